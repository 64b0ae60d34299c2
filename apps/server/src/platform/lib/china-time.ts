import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat.js';
import utc from 'dayjs/plugin/utc.js';
import { BadRequestError } from './errors.js';

dayjs.extend(utc);
dayjs.extend(customParseFormat);

// The portal shows and filters times in China Standard Time (UTC+8, no daylight saving), whatever
// the server's time zone; the database stores ISO instants (spec section 5: yyyy-MM-dd HH:mm:ss).
const CHINA_OFFSET_MINUTES = 8 * 60;
export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

/** `yyyy-MM-dd HH:mm:ss` in China time. */
export function chinaTime(date: Date): string {
  return dayjs(date).utcOffset(CHINA_OFFSET_MINUTES).format(DATE_TIME_FORMAT);
}

/** The China date (`yyyy-MM-dd`) of an instant. */
export function chinaDate(date: Date): string {
  return chinaTime(date).slice(0, 10);
}

/** The last `days` China dates up to the one of `now`, oldest first (`yyyy-MM-dd`), for the console's charts. */
export function lastChinaDates(now: Date, days: number): string[] {
  return Array.from({ length: days }, (_, i) => chinaDate(new Date(now.getTime() - (days - 1 - i) * 86_400_000)));
}

/** `M月D日 HH:mm` in China time, for "try again at …" messages. */
export function chinaClock(date: Date): string {
  return dayjs(date).utcOffset(CHINA_OFFSET_MINUTES).format('M月D日 HH:mm');
}

/** The instant a China-time `yyyy-MM-dd HH:mm:ss` names, or undefined when it names none (2024-02-30…). */
export function parseChinaTime(text: string): Date | undefined {
  const parsed = dayjs.utc(text, DATE_TIME_FORMAT, true);
  return parsed.isValid() ? parsed.subtract(CHINA_OFFSET_MINUTES, 'minute').toDate() : undefined;
}

/** A China-time filter bound (spec section 5: yyyy-MM-dd HH:mm:ss) as the ISO instant the logs store; refuses any other text. */
export function chinaTimeToIso(text: string, label: string): string {
  const date = parseChinaTime(text);
  if (!date) throw new BadRequestError(`${label}格式应为 yyyy-MM-dd HH:mm:ss`);
  return date.toISOString();
}

/**
 * A filter bound `yyyy-MM-dd[ HH:mm:ss]` as a full China-time text: a bare date takes the start or the
 * end of its day. Undefined when the text names no real moment.
 */
export function chinaTimeBound(text: string, edge: 'start' | 'end'): string | undefined {
  const full = text.length === 10 ? `${text} ${edge === 'start' ? '00:00:00' : '23:59:59'}` : text;
  return parseChinaTime(full) ? full : undefined;
}
