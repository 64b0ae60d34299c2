import type { PageHead, PageHeadContext } from '@/lib/page-head';
import { excerpt, htmlText } from '@/lib/page-head';
import { getArticleDetailQueryOptions } from '../api/articles';

/**
 * The head of an article detail (issue 21, item 4): the article's title, its summary or the start of
 * its body, its thumbnail; an unknown or missing id is not found (HTTP 404 from the server).
 */
export function articleHead({ search, queryClient }: PageHeadContext): PageHead {
  const id = search.get('id') ?? '';
  if (!id) return { notFound: true };
  const article = queryClient.getQueryData(getArticleDetailQueryOptions(id).queryKey);
  if (article === null) return { notFound: true };
  if (!article) return {};
  return {
    subject: article.title,
    description: excerpt(article.summary.trim() || htmlText(article.content)),
    image: article.thumbnail,
    type: 'article',
  };
}
