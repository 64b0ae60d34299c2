/** Query keys of the identifier console: mutations invalidate by these prefixes. */
export const identifierAdminKeys = {
  all: ['identifier-admin'] as const,
  prefixes: ['identifier-admin', 'prefixes'] as const,
  enterprises: ['identifier-admin', 'enterprises'] as const,
  templates: ['identifier-admin', 'templates'] as const,
  templateVersions: (id: number) => ['identifier-admin', 'template-versions', id] as const,
  records: ['identifier-admin', 'records'] as const,
};

/** The public lookup (/mark) caches answers under this key: record writes drop them. */
export const publicIdentityKey = ['identity'] as const;
