import type { AdminArticle, ArticleInput } from '../api/articles';

/** What the article form holds. */
export interface ArticleFormValues {
  title: string;
  categoryId?: string;
  summary?: string;
  thumbnail?: string;
  number?: string;
  /** Days; -1 or empty: 长期有效. */
  expirationDay?: number | null;
  dataSourceName?: string;
  content: string;
}

export const EMPTY_ARTICLE_FORM: ArticleFormValues = { title: '', summary: '', thumbnail: '', content: '', dataSourceName: '' };

/** Chinese messages of the article form (the server answers the same rules with its own). */
export const ArticleFormMessage = {
  titleRequired: '请输入文章标题',
  titleTooLong: '标题不能超过 200 个字符',
  categoryRequired: '请选择分类',
  summaryTooLong: '摘要不能超过 500 个字符',
  numberTooLong: '文号不能超过 100 个字符',
  expirationInvalid: '有效期为 -1（长期有效）或 0 至 36500 天',
  sourceTooLong: '来源不能超过 100 个字符',
  contentRequired: '请输入文章正文',
} as const;

const text = (value: string | undefined | null) => (value ?? '').trim();

/** The form as the write API's body: policy-only fields are sent only for policies, blanks as null. */
export function toArticleInput(values: ArticleFormValues, isPolicy: boolean): ArticleInput {
  return {
    title: text(values.title),
    summary: text(values.summary),
    thumbnail: text(values.thumbnail) || null,
    content: values.content,
    number: isPolicy ? text(values.number) || null : null,
    categoryId: values.categoryId ?? '',
    dataSourceName: text(values.dataSourceName) || null,
    expirationDay: isPolicy && values.expirationDay !== undefined && values.expirationDay !== null ? values.expirationDay : null,
  };
}

/** A stored article as the form's values. */
export function toArticleForm(article: AdminArticle): ArticleFormValues {
  return {
    title: article.title,
    categoryId: article.categoryId,
    summary: article.summary,
    thumbnail: article.thumbnail ?? '',
    number: article.number ?? '',
    expirationDay: article.expirationDay,
    dataSourceName: article.dataSourceName ?? '',
    content: article.content,
  };
}
