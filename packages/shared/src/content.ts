import type { Static } from 'typebox';
import type {
  ApplicationDetailSchema,
  ArticleDetailSchema,
  ArticleListItemSchema,
  ArticleQuerySchema,
  HomeBlocksSchema,
  KpiTileSchema,
  LinkBlockSchema,
  RecommendItemSchema,
} from './contracts/content.js';
import type { Defaulted } from './contracts/envelope.js';
/** Content shapes of spec section 3 ("Entities and their fields"), shared by server and web. */

export interface CategoryNode {
  id: number;
  categoryId: string;
  categoryName: string;
  channel: string;
  children: CategoryNode[];
}

export type ArticleListItem = Static<typeof ArticleListItemSchema>;

export type ArticleDetail = Static<typeof ArticleDetailSchema>;

export type ArticleQuery = Defaulted<Static<typeof ArticleQuerySchema>, 'sortOrder'>;

/** sortOrder values of the published list (the spec gives only the default, 6). */
export const ARTICLE_SORT_ORDERS = [
  { value: 6, label: '最新发布' },
  { value: 1, label: '最早发布' },
  { value: 2, label: '最多浏览' },
  { value: 3, label: '最少浏览' },
  { value: 4, label: '标题排序' },
  { value: 5, label: '最近更新' },
] as const;
export const DEFAULT_ARTICLE_SORT_ORDER = 6;

export type RecommendItem = Static<typeof RecommendItemSchema>;

export type ApplicationDetail = Static<typeof ApplicationDetailSchema>;

export type LinkBlock = Static<typeof LinkBlockSchema>;

export type KpiTile = Static<typeof KpiTileSchema>;

export type HomeBlocks = Static<typeof HomeBlocksSchema>;
