import type { SsrPageHead } from '@portal/shared';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';
import { type UIMatch, useLocation, useMatches } from 'react-router';
import { PRODUCT_TITLE, pageTitle } from '@/config/paths';
import { type RouteHandle, pageHandle } from './page-url';

/** What a page says about itself besides its route title (`RouteHandle.head`). */
export interface PageHead {
  /** What the page shows, put before the route title: an article's title, a searched identifier. */
  subject?: string;
  /** og:title when neither the subject nor the route title says it (the home page: the site's name). */
  shareTitle?: string;
  /** A sentence or two of what the page says; none: the site's own description. */
  description?: string;
  /** A file path as content stores it (relative to the static-file base) or an absolute URL. */
  image?: string | null;
  type?: 'website' | 'article';
  /** The page shows that what was asked for does not exist: the server answers 404. */
  notFound?: boolean;
  /** The page says the address itself was malformed: the server answers 400. */
  badRequest?: boolean;
  /** The one address of what the page shows, when that is not the page's own (a site path). */
  canonical?: string;
}

/** What a page's head is made from: its URL's query and the data its route loader left in the query cache. */
export interface PageHeadContext {
  search: URLSearchParams;
  queryClient: QueryClient;
}

export interface ResolvedPageHead extends SsrPageHead {
  notFound: boolean;
  badRequest: boolean;
}

type Matches = readonly Pick<UIMatch, 'handle'>[];

/** The deepest route's handle that names a title (a layout's, when the page has none). */
function titled(matches: Matches): RouteHandle | undefined {
  return [...matches].reverse().find((m) => (m.handle as RouteHandle | undefined)?.title)?.handle as RouteHandle | undefined;
}

/**
 * The head of the page the matched routes show (spec section 1: product title plus route title; an
 * article's or identifier's own title comes first). The server renders it into the document head, the
 * browser keeps `document.title` in step with it.
 */
export function resolvePageHead(matches: Matches, context: PageHeadContext): ResolvedPageHead {
  const routeTitle = titled(matches)?.title;
  const own = pageHandle(matches)?.head?.(context) ?? {};
  const subject = own.subject?.trim();
  return {
    title: pageTitle(subject ? [subject, routeTitle].filter(Boolean).join(' - ') : routeTitle),
    shareTitle: own.shareTitle || subject || routeTitle || PRODUCT_TITLE,
    ...(own.description ? { description: own.description } : {}),
    ...(own.image ? { image: own.image } : {}),
    type: own.type ?? 'website',
    ...(own.canonical ? { canonicalPath: own.canonical } : {}),
    notFound: own.notFound ?? false,
    badRequest: own.badRequest ?? false,
  };
}

/**
 * The current page's title, following the data it shows (an article's title once it has loaded);
 * undefined where the page titles itself (the console).
 */
export function usePageTitle(): string | undefined {
  const matches = useMatches();
  const { search } = useLocation();
  const queryClient = useQueryClient();
  const subscribe = useCallback((onChange: () => void) => queryClient.getQueryCache().subscribe(onChange), [queryClient]);
  const snapshot = () =>
    titled(matches)?.titleFromPage ? undefined : resolvePageHead(matches, { search: new URLSearchParams(search), queryClient }).title;
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}

/** Entities a text excerpt may carry out of HTML. */
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** The text of an HTML fragment (an article body, a static page), without a DOM: the server renderer has none. */
export function htmlText(html: string): string {
  return html
    .replace(/<(script|style|template)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
      if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? entity;
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ' ';
    })
    .replace(/\s+/g, ' ')
    .trim();
}

/** Search engines show about this many characters of a Chinese description. */
export const DESCRIPTION_LENGTH = 120;

/** A description from a text: at most `length` characters, cut with an ellipsis. */
export function excerpt(text: string, length = DESCRIPTION_LENGTH): string {
  const chars = [...text.replace(/\s+/g, ' ').trim()];
  return chars.length > length ? `${chars.slice(0, length - 1).join('')}…` : chars.join('');
}
