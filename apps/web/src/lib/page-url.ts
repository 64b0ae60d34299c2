import { type UIMatch, useLocation, useMatches } from 'react-router';
import type { PageHead, PageHeadContext } from './page-head';

/** What a route declares besides its path (`handle` in the route tree). */
export interface RouteHandle {
  title?: string;
  /** The route's pages set the title themselves (the console: one route, many pages). */
  titleFromPage?: boolean;
  /** The query parameters the page reads; any other parameter does not change the page. */
  searchParams?: readonly string[];
  /** The server renders the page (public pages a visitor lands on, showing no one's own data). */
  ssr?: boolean;
  /** The path the server renders the page from instead of its own: every unknown path is the one /404 page. */
  pagePath?: string;
  /** What the page tells search engines and link previews, from its URL and the data its loader fetched. */
  head?: (page: PageHeadContext) => PageHead;
}

/** What the page (the deepest matched route) declares. */
export function pageHandle(matches: readonly Pick<UIMatch, 'handle'>[]): RouteHandle | undefined {
  return matches.at(-1)?.handle as RouteHandle | undefined;
}

/**
 * The page's own URL: its path and the query parameters it reads (first value each, in declared
 * order; empty ones dropped). Two URLs with the same page URL show the same page, so the server
 * renders and caches one page for both.
 */
export function pageUrl(pathname: string, search: string, searchParams: readonly string[] = []): string {
  const given = new URLSearchParams(search);
  const kept = new URLSearchParams();
  for (const name of searchParams) {
    const value = given.get(name);
    if (value) kept.set(name, value);
  }
  const query = kept.toString();
  return query ? `${pathname}?${query}` : pathname;
}

/** The current page's own URL (see `pageUrl`): the same on the server and in the browser. */
export function usePageUrl(): string {
  const { pathname, search } = useLocation();
  const matches = useMatches();
  return pageUrl(pathname, search, pageHandle(matches)?.searchParams);
}
