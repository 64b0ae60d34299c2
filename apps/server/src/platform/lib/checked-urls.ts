import { BadRequestError } from './errors.js';

/** Longest stored address (the columns are varchar(500)). */
export const MAX_URL_LENGTH = 500;

const FILE_PATH = /^\/[A-Za-z0-9/_.-]+$/;
const HTTP_URL = /^https?:\/\/[^\s"'<>\\]+$/i;

function isHttpUrl(value: string): boolean {
  if (!HTTP_URL.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/**
 * An image address: a path under the file service (`/uploads/…`, `/demo/…`, no `..`) or an
 * http(s) URL; empty gives null. Anything else (`javascript:`, `data:`, traversal) is refused.
 */
export function checkedImagePath(value: string | null | undefined, message: string): string | null {
  const v = value?.trim();
  if (!v) return null;
  if (v.length <= MAX_URL_LENGTH && FILE_PATH.test(v) && !v.includes('..') && !v.startsWith('//')) return v;
  if (v.length <= MAX_URL_LENGTH && isHttpUrl(v)) return v;
  throw new BadRequestError(message);
}

/**
 * A link target: an http(s) URL or a path of this site (`/news?x=1`, not `//host`); empty gives
 * null. Script and data URLs, backslashes, spaces and control characters are refused.
 */
export function checkedLinkUrl(value: string | null | undefined, message: string): string | null {
  const v = value?.trim();
  if (!v) return null;
  if (v.length > MAX_URL_LENGTH) throw new BadRequestError(message);
  if (isHttpUrl(v)) return v;
  // Browsers read `/\host` and `//host` as another site; a site path has neither.
  if (/^\/(?![/\\])[^\s"'<>\\\p{Cc}]*$/u.test(v)) return v;
  throw new BadRequestError(message);
}
