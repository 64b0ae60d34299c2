import { type IdentifierStats, type IdentifierStatsQuery, STATS_RANGES, type StatsExportTable, type StatsRange } from '@portal/shared';

/** The range 标识统计 opens with: a month shows a trend without the noise of single days. */
export const DEFAULT_STATS_RANGE: StatsRange = 30;

/** What the page shows: the range in days and one prefix of the scope (none: all of them). */
export interface StatsView {
  days: StatsRange;
  prefix?: string;
}

/** Prefixes are dotted digits and letters (88.118.8); anything else in a link is no prefix at all. */
const PREFIX = /^[0-9A-Za-z.]{1,64}$/;

const isRange = (value: number): value is StatsRange => (STATS_RANGES as readonly number[]).includes(value);

/**
 * The view a URL asks for (`?days=&prefix=`), so a reload, a shared link or the tab's return shows the
 * same figures. A range that is none of 7/30/90 falls back to the default; a prefix outside the user's
 * scope is the server's to refuse.
 */
export function readStatsView(search: URLSearchParams): StatsView {
  const days = Number(search.get('days'));
  const prefix = search.get('prefix')?.trim() ?? '';
  return { days: isRange(days) ? days : DEFAULT_STATS_RANGE, ...(PREFIX.test(prefix) ? { prefix } : {}) };
}

/** The URL query of a view; defaults are left out. */
export function statsSearch(view: StatsView): URLSearchParams {
  const search = new URLSearchParams();
  if (view.days !== DEFAULT_STATS_RANGE) search.set('days', String(view.days));
  if (view.prefix) search.set('prefix', view.prefix);
  return search;
}

/** The statistics call of a view. */
export function statsQuery(view: StatsView): IdentifierStatsQuery {
  return view.prefix ? { days: view.days, prefix: view.prefix } : { days: view.days };
}

/** The file an exported table is saved as: the table and the China days it covers (as the server names it). */
export function exportFilename(table: StatsExportTable, stats: Pick<IdentifierStats, 'from' | 'to'>): string {
  return `标识统计-${table}-${stats.from}-${stats.to}.csv`;
}

const number = new Intl.NumberFormat('zh-CN');
/** Counts as the page writes them: 12,345. */
export const formatCount = (value: number) => number.format(value);
const average = new Intl.NumberFormat('zh-CN', { maximumFractionDigits: 1 });
/** A mean per day: 0.4 reads better than 0 for a quiet month. */
export const formatAverage = (value: number) => average.format(value);

/** A share as a percentage with one decimal at most: 0.1234 → 12.3%, 0.5 → 50%, 0 → 0%. */
export function formatRate(rate: number): string {
  const percent = Math.round(rate * 1000) / 10;
  return `${Number.isFinite(percent) ? percent : 0}%`;
}

/** `part` of `whole` as a percentage (0% of nothing). */
export const shareOf = (part: number, whole: number) => formatRate(whole > 0 ? part / whole : 0);
