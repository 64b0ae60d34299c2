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

export interface SsrRenderResult {
  /** Markup for `#root`. */
  html: string;
  /** The page title (spec section 1). */
  title: string;
  /** JSON of the data the page rendered with, for the browser to start from. */
  state: string;
}

/** The web app's server entry (built by `vite build --ssr`). */
export interface SsrEntry {
  /**
   * The URL the server renders a page from: its path and the query parameters the page reads (the
   * others do not change it), or null when the page is rendered in the browser only. Requests with
   * the same page URL share one rendered page.
   */
  pageUrl(url: string): string | null;
  /** Renders the page at a URL `pageUrl` gave; null: serve the plain index.html. */
  render(request: SsrRenderRequest): Promise<SsrRenderResult | null>;
}

/** Id of the `<script type="application/json">` that carries the rendered data. */
export const SSR_STATE_ELEMENT_ID = 'portal-state';
