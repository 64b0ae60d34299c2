/** Content shapes of spec section 3 ("Entities and their fields"), shared by server and web. */

export interface CategoryNode {
  id: number;
  categoryId: string;
  categoryName: string;
  channel: string;
  children: CategoryNode[];
}

export interface ArticleListItem {
  id: number;
  uuid: string;
  title: string;
  summary: string;
  /** Relative path; the web app prefixes the static-file base address. */
  thumbnail: string | null;
  /** `YYYY-MM-DD HH:mm:ss`; the first 10 characters are shown. */
  publishTime: string;
  categoryId: string;
  categoryName: string;
}

export interface ArticleDetail extends Omit<ArticleListItem, 'categoryId' | 'categoryName'> {
  /** Spec section 3: `policy` for the policy tree (its number and expiry are shown), `news` for every other article. */
  categoryId: 'policy' | 'news';
  /** The category the article is filed under (what the list item calls categoryId and categoryName). */
  subCategoryId: string;
  subCategoryName: string;
  /** The list it is published in: its one detail address is `/news/detail` or `/knowledge/detail`. */
  channel: 'news' | 'knowledge';
  /** Policy document number, shown only for policies. */
  number: string | null;
  dataSourceName: string | null;
  /** Days; -1 or null means 长期有效. */
  expirationDay: number | null;
  /** Sanitised HTML. */
  content: string;
  viewCount: number;
}

export interface ArticleQuery {
  offset: number;
  limit: number;
  searchKey?: string;
  filterCategoryId?: string;
  filterStartTime?: string;
  filterEndTime?: string;
  sortOrder?: number;
}

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

export interface RecommendItem {
  applicationUuid: string;
  name: string;
  applicationDescription: string;
  imagePath: string;
  iconPath: string;
  category: string;
  provider: string;
}

export interface ApplicationDetail extends RecommendItem {
  content: string;
}

export interface LinkBlock {
  title: string;
  subtitle: string;
  icon: string;
  linkUrl: string;
  /** 1: open linkUrl in a new window. */
  openUrlFlag: number;
}

export interface KpiTile {
  image: string;
  kpi: string;
  uom: string;
  name: string;
}

export interface HomeBlocks {
  banners: LinkBlock[];
  links: LinkBlock[];
  awards: LinkBlock[];
  kpis: KpiTile[];
}
