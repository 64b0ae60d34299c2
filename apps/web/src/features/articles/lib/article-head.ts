import { paths } from '@/config/paths';
import type { PageHead, PageHeadContext } from '@/lib/page-head';
import { excerpt, htmlText } from '@/lib/page-head';
import { type Channel, getArticleDetailQueryOptions } from '../api/articles';

const DETAIL_HREF: Record<Channel, (id: string) => string> = { news: paths.newsDetail.getHref, knowledge: paths.knowledgeDetail.getHref };

/**
 * The head of an article detail in a channel's detail page: the article's title, its summary or the
 * start of its body, its thumbnail; an unknown or missing id is not found (HTTP 404 from the server).
 * An article opened under the other channel's address names its own channel's address as canonical.
 */
export const articleHead =
  (channel: Channel) =>
  ({ search, queryClient }: PageHeadContext): PageHead => {
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
      ...(article.channel !== channel ? { canonical: DETAIL_HREF[article.channel](article.uuid) } : {}),
    };
  };
