import type { Static } from 'typebox';
import type {
  IdentifierStatsDaySchema,
  IdentifierStatsQuerySchema,
  IdentifierStatsSchema,
  LabelRequestSchema,
} from './contracts/identifier-stats.js';
/**
 * 标识统计 and identifier upkeep: lookup analytics for prefix owners (运营统计 for operators),
 * printable QR labels and bulk updates. Shared by the server's answers and the console pages.
 */

/** How a lookup reached the node. */
export const LOOKUP_CHANNELS = ['web', 'qr', 'api', 'upstream'] as const;
export type LookupChannel = (typeof LOOKUP_CHANNELS)[number];
export const LookupChannelLabel: Record<LookupChannel, string> = {
  web: '网页查询',
  qr: '扫码',
  api: 'Handle API',
  upstream: '上游转发',
};

/** What the lookup found. `malformed`: the handle did not parse (counted under the prefix it names, if any). */
export const LOOKUP_OUTCOMES = ['found', 'not_found', 'malformed'] as const;
export type LookupOutcome = (typeof LOOKUP_OUTCOMES)[number];
export const LookupOutcomeLabel: Record<LookupOutcome, string> = {
  found: '已找到',
  not_found: '未找到',
  malformed: '格式错误',
};

/** Regions that are not a province: a private or loopback address, or one the IP database cannot place. */
export const REGION_INTRANET = '内网';
export const REGION_UNKNOWN = '未知';
/**
 * The provinces a lookup's region names: China's province-level divisions in their short form, as maps
 * label them (广东, 北京, 内蒙古, 香港). Any other address is REGION_INTRANET or REGION_UNKNOWN.
 */
export const CHINA_PROVINCES = [
  ...['北京', '天津', '上海', '重庆', '河北', '山西', '辽宁', '吉林', '黑龙江', '江苏', '浙江', '安徽'],
  ...['福建', '江西', '山东', '河南', '湖北', '湖南', '广东', '海南', '四川', '贵州', '云南', '陕西'],
  ...['甘肃', '青海', '台湾', '内蒙古', '广西', '西藏', '宁夏', '新疆', '香港', '澳门'],
] as const;

/**
 * The QR codes on printed labels open `/mark?keyword=<handle>&src=qr`; /mark passes `src=qr` on to the
 * identity query, which counts the lookup as 扫码.
 */
export const QR_SOURCE_PARAM = 'src';
export const QR_SOURCE_VALUE = 'qr';

/** Ranges of 标识统计, in days ending today (China time). */
export const STATS_RANGES = [7, 30, 90] as const;
export type StatsRange = (typeof STATS_RANGES)[number];
/** Rows of each top list. */
export const STATS_TOP_ROWS = 10;

/** `GET /web-api/identity/v1/stats?days=&prefix=` query. `prefix` narrows to one prefix in scope. */
export type IdentifierStatsQuery = Static<typeof IdentifierStatsQuerySchema>;

export type IdentifierStatsDay = Static<typeof IdentifierStatsDaySchema>;

export type IdentifierStats = Static<typeof IdentifierStatsSchema>;

/** `GET /web-api/identity/v1/stats/export?table=&days=&prefix=`: one table of the page as CSV. */
export const STATS_EXPORT_TABLES = ['daily', 'regions', 'handles', 'values', 'missing'] as const;
export type StatsExportTable = (typeof STATS_EXPORT_TABLES)[number];

export const IdentifierStatsMessage = {
  badRange: '统计范围只能是 7、30 或 90 天',
  badPrefix: '前缀不存在或不属于本企业',
  badTable: '导出的统计表不存在',
} as const;

// ----- QR labels -----

/** Label sizes in millimetres (width × height): common thermal-printer rolls and A4 sticker sheets. */
export const LABEL_SIZES = ['40x30', '50x30', '60x40', '70x50', '100x70'] as const;
export type LabelSize = (typeof LABEL_SIZES)[number];
/** `sheet`: A4 pages filled with labels in rows; `single`: one label a page, for label printers. */
export const LABEL_LAYOUTS = ['sheet', 'single'] as const;
export type LabelLayout = (typeof LABEL_LAYOUTS)[number];
/** Largest label request; more records must be narrowed by a filter. */
export const LABEL_MAX_RECORDS = 5000;
/** Template fields printed under the handle. */
export const LABEL_MAX_FIELDS = 2;

/** Width and height of a label in millimetres. */
export function labelDimensions(size: LabelSize): { width: number; height: number } {
  const [width = 0, height = 0] = size.split('x').map(Number);
  return { width, height };
}

/** The A4 sheet in millimetres: labels at least `margin` from the edges and `gap` apart (room to cut), the grid centred. */
export const LABEL_SHEET = { width: 210, height: 297, margin: 4, gap: 2 } as const;

/** How many labels of `size` an A4 sheet holds. */
export function labelSheetGrid(size: LabelSize): { columns: number; rows: number; perPage: number } {
  const { width, height } = labelDimensions(size);
  const fit = (page: number, label: number) => Math.floor((page - 2 * LABEL_SHEET.margin + LABEL_SHEET.gap) / (label + LABEL_SHEET.gap));
  const columns = fit(LABEL_SHEET.width, width);
  const rows = fit(LABEL_SHEET.height, height);
  return { columns, rows, perPage: columns * rows };
}

/**
 * `POST /web-api/identity/v1/record/labels` → application/pdf. Either `ids` (selected records) or the
 * record list's filters (`prefix`, `templateId`, `searchKey`, as in IdentifierRecordQuery).
 */
export type LabelRequest = Static<typeof LabelRequestSchema>;

export const LabelMessage = {
  tooMany: `一次最多生成 ${LABEL_MAX_RECORDS} 个标签，请先按前缀、模板或标识筛选后再生成`,
  none: '没有可生成标签的标识记录',
  tooManyFields: `最多选择 ${LABEL_MAX_FIELDS} 个数据项`,
  unknownField: '所选数据项不在这些标识的模板中',
} as const;
