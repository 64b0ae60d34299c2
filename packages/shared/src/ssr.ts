import type { RuntimeConfig } from './runtime-config.js';

/** An in-process call of the portal's own API made while a page renders on the server. */
export interface SsrFetchRequest {
  method: string;
  /** Path and query, e.g. `/open-api/cms/v1/category/tree?channel=news`. */
  url: string;
}

export interface SsrFetchResponse {
  status: number;
  contentType: string;
  body: string;
}

export interface SsrRenderRequest {
  /** The page's URL as `SsrEntry.pageUrl` gave it. */
  url: string;
  /** The runtime configuration `/config.js` gives the same request (spec section 3). */
  config: RuntimeConfig;
  fetchLocal(request: SsrFetchRequest): Promise<SsrFetchResponse>;
}

/** What the document head says about a rendered page: its title, and for search engines and link previews the rest. */
export interface SsrPageHead {
  /** `<title>`: the route title after the page's own subject (an article's title), then the product title (spec section 1). */
  title: string;
  /** og:title: the page's own subject, or its route title. */
  shareTitle: string;
  /** `<meta name="description">` and og:description; none: the site's own description stays. */
  description?: string;
  /** og:image: a file path as content stores it (relative to the static-file base) or an absolute URL. */
  image?: string;
  /** og:type. */
  type: 'website' | 'article';
  /** The canonical link's and og:url's path when it is not the page's own (an article under the other channel's address). */
  canonicalPath?: string;
}

export interface SsrRenderResult {
  /** Markup for `#root`. */
  html: string;
  head: SsrPageHead;
  /**
   * 404 when the page shows that what was asked for does not exist (an unknown path, an unknown
   * article); 400 when it says the address was malformed.
   */
  status: 200 | 400 | 404;
  /** JSON of the data the page rendered with, for the browser to start from. */
  state: string;
}

/** The web app's server entry (built by `vite build --ssr`). */
export interface SsrEntry {
  /**
   * The URL the server renders a page from: its path and the query parameters the page reads (the
   * others do not change it), or null when the page is rendered in the browser only. Requests with
   * the same page URL share one rendered page; every unknown path gives the one not-found page's URL.
   */
  pageUrl(url: string): string | null;
  /** Renders the page at a URL `pageUrl` gave; null: serve the plain index.html. */
  render(request: SsrRenderRequest): Promise<SsrRenderResult | null>;
}

/** Marks the server renderer's in-process calls: what a render reads is not a visitor's read (article views). */
export const SSR_FETCH_HEADER = 'x-portal-render';

/** Id of the `<script type="application/json">` that carries the rendered data. */
export const SSR_STATE_ELEMENT_ID = 'portal-state';
