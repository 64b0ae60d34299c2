/** Query keys of the content console: mutations invalidate by these prefixes. */
export const contentAdminKeys = {
  categories: ['content-admin', 'categories'] as const,
  articles: ['content-admin', 'articles'] as const,
  article: (uuid: string) => ['content-admin', 'article', uuid] as const,
  applications: ['content-admin', 'applications'] as const,
  homeBlocks: ['content-admin', 'home-blocks'] as const,
};
