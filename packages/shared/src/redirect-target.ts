/** Longest redirect target accepted (the CAS `service` and portal `target` parameters). */
const MAX_TARGET_LENGTH = 2000;

// Browsers drop tab, CR and LF inside URLs and read a backslash as a slash, so a target that holds
// any of them means something else to the browser than to this check: refused outright.
// eslint-disable-next-line no-control-regex -- control characters are what this looks for
const AMBIGUOUS = /[\u0000-\u001f\u007f\\]/;

/**
 * An absolute http(s) URL a redirecting parameter names, parsed as a browser would, or undefined:
 * no credentials (`user@host`), no control characters or backslashes. Whether it may be used is the
 * caller's rule (a registered CAS service, this site's origin).
 */
export function parseRedirectUrl(raw: string | undefined, base?: string): URL | undefined {
  if (!raw || raw.length > MAX_TARGET_LENGTH || AMBIGUOUS.test(raw)) return undefined;
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username || url.password) return undefined;
  return url;
}

/**
 * The one check of every redirect to a page of this site (login callback `target`, LAST_URL,
 * `/redirect/…`): the target is resolved against `siteOrigin` as a browser would and must stay on
 * it; the answer is the normalised path (`/news?page=2#top`), never `//host` or `/\host`.
 */
export function siteRedirectPath(raw: string | undefined, siteOrigin: string): string | undefined {
  const origin = new URL(siteOrigin).origin;
  const url = parseRedirectUrl(raw, `${origin}/`);
  if (!url || url.origin !== origin) return undefined;
  const path = `${url.pathname}${url.search}${url.hash}`;
  return path.startsWith('/') && !path.startsWith('//') ? path : undefined;
}
