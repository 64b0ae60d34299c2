/** Spec section 4 / style.md: the default pattern of `parseTime`. */
export const DEFAULT_TIME_PATTERN = '{y}-{m}-{d} {h}:{i}:{s}';

/** Spec section 9: the time-text thresholds, in seconds. */
const JUST_NOW = 30;
const HOUR = 3600;
const DAY = 86_400;
const TWO_DAYS = 172_800;

const WEEKDAYS = ['日', '一', '二', '三', '四', '五', '六'];

export type TimeInput = Date | number | string;

/** A 10-digit number (or digit string) is a Unix time in seconds; anything else milliseconds or a date text. */
function toDate(time: TimeInput): Date {
  if (time instanceof Date) return time;
  let value: number | string = time;
  if (typeof value === 'string') value = /^\d+$/.test(value) ? Number(value) : value.replace(/-/g, '/');
  if (typeof value === 'number' && String(value).length === 10) value *= 1000;
  return new Date(value);
}

/**
 * Formats a time with `{y}` `{m}` `{d}` `{h}` `{i}` `{s}` (two digits) and `{a}` (weekday 日…六).
 * Empty input gives null; a date text like `2026-11-22 08:05:00` is read as local time.
 */
export function parseTime(time: TimeInput | null | undefined, pattern: string = DEFAULT_TIME_PATTERN): string | null {
  if (time === null || time === undefined || time === '' || time === 0) return null;
  const date = toDate(time);
  if (Number.isNaN(date.getTime())) return null;
  const parts: Record<string, number> = {
    y: date.getFullYear(),
    m: date.getMonth() + 1,
    d: date.getDate(),
    h: date.getHours(),
    i: date.getMinutes(),
    s: date.getSeconds(),
    a: date.getDay(),
  };
  return pattern.replace(/{([ymdhisa])+}/g, (_match, key: string) => {
    const value = parts[key] ?? 0;
    return key === 'a' ? (WEEKDAYS[value] ?? '') : String(value).padStart(2, '0');
  });
}

/**
 * A relative time text (spec section 4): under 30 s 刚刚, under an hour `n分钟前`, under a day
 * `n小时前` (both rounded up), under two days 1天前; older times as `{pattern}` when given, else
 * `M月D日H时m分`.
 */
export function formatTime(time: TimeInput, pattern?: string, now: number = Date.now()): string {
  const date = toDate(time);
  const seconds = (now - date.getTime()) / 1000;
  if (seconds < JUST_NOW) return '刚刚';
  if (seconds < HOUR) return `${Math.ceil(seconds / 60)}分钟前`;
  if (seconds < DAY) return `${Math.ceil(seconds / HOUR)}小时前`;
  if (seconds < TWO_DAYS) return '1天前';
  if (pattern) return parseTime(date, pattern) ?? '';
  return `${date.getMonth() + 1}月${date.getDate()}日${date.getHours()}时${date.getMinutes()}分`;
}

/** China is UTC+8 all year (no daylight saving). */
const CHINA_OFFSET_MS = 8 * 3_600_000;

/**
 * An instant (ISO text or Date) as China time `yyyy-MM-dd HH:mm:ss`, whatever the browser's zone:
 * the server's other times (publish time, audit log) are China time too. Empty for an invalid input.
 */
export function chinaTimeText(instant: string | Date): string {
  const ms = (instant instanceof Date ? instant : new Date(instant)).getTime();
  if (Number.isNaN(ms)) return '';
  return new Date(ms + CHINA_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');
}

/** Today's date in China, `yyyy-MM-dd`, whatever the browser's zone (安全合规's periods are China dates). */
export function chinaToday(now = Date.now()): string {
  return new Date(now + CHINA_OFFSET_MS).toISOString().slice(0, 10);
}
