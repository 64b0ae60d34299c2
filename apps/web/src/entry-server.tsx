import { type SsrEntry, type SsrFetchRequest, type SsrFetchResponse, type SsrRenderRequest, type SsrRenderResult } from '@portal/shared';
import { type QueryClient, dehydrate } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { type RouteObject, StaticRouterProvider, createStaticHandler, createStaticRouter, matchRoutes } from 'react-router';
import { AppProviders } from '@/app/app';
import { routes } from '@/app/router';
import type { ServerState } from '@/app/server-state';
import { createPortalApi } from '@/lib/api';
import type { Transport } from '@/lib/http-transport';
import { resolvePageHead } from '@/lib/page-head';
import { pageHandle, pageUrl } from '@/lib/page-url';
import { createQueryClient, routerContext } from '@/lib/query-client';

/**
 * Server rendering of the public pages a visitor lands on (routes with `handle.ssr`): the first view
 * arrives as HTML (fast first paint on a phone) and the browser hydrates it. The page's data comes
 * from the same route loaders the browser runs, into a query client of this render. Only visitor
 * content is rendered here; who is logged in is found out in the browser.
 */

const handler = createStaticHandler(routes);

/**
 * The path a page declares (`/news`): routes match whatever the case and a trailing slash, but a page
 * has one address (its canonical link, its render). Undefined for a path with parameters.
 */
function declaredPath(matches: readonly { route: RouteObject }[]): string | undefined {
  const route = matches.at(-1)?.route;
  if (route?.index) return '/';
  return route?.path?.startsWith('/') && !/[:*]/.test(route.path) ? route.path : undefined;
}

/**
 * The URL a page renders from, or null when the server does not render it (see `SsrEntry.pageUrl`).
 * Every unknown path renders from /404: one render serves them all.
 */
function serverPageUrl(url: string): string | null {
  // Appended, not resolved: a path like `//x` stays a path.
  const { pathname, search } = new URL(`http://ssr.invalid${url}`);
  const matches = matchRoutes(routes, pathname) ?? [];
  const page = pageHandle(matches.map((m) => ({ handle: m.route.handle as unknown })));
  if (!page?.ssr) return null;
  if (page.pagePath) return pageUrl(page.pagePath, '', page.searchParams);
  return pageUrl(declaredPath(matches) ?? pathname, search, page.searchParams);
}

/**
 * A call that failed while the loaders ran: the browser would start without its data and draw something
 * else than the server did, so the browser renders such a page itself (and retries the call).
 */
function anyQueryFailed(queryClient: QueryClient): boolean {
  return queryClient
    .getQueryCache()
    .getAll()
    .some((query) => query.state.status === 'error');
}

/** Answers the API client's calls through the server's own routes, in-process. */
function localTransport(fetchLocal: (request: SsrFetchRequest) => Promise<SsrFetchResponse>): Transport {
  return (request) => {
    const target = new URL(request.url, 'http://ssr.invalid');
    return fetchLocal({ method: request.method, url: target.pathname + target.search });
  };
}

async function render(request: SsrRenderRequest): Promise<SsrRenderResult | null> {
  if (serverPageUrl(request.url) === null) return null;
  const queryClient = createQueryClient(createPortalApi(request.config, localTransport(request.fetchLocal)));
  const url = new URL(request.url, request.config.homeUrl);
  const context = await handler.query(new Request(url), { requestContext: routerContext(queryClient) });
  // A redirect or a route whose code failed to load: the browser router handles it.
  if (context instanceof Response || context.statusCode !== 200 || anyQueryFailed(queryClient)) return null;

  const html = renderToString(
    <StrictMode>
      <AppProviders queryClient={queryClient} config={request.config}>
        <StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} hydrate={false} />
      </AppProviders>
    </StrictMode>,
  );
  const state: ServerState = { queries: dehydrate(queryClient), loaderData: context.loaderData };
  const { notFound, badRequest, ...head } = resolvePageHead(
    context.matches.map((m) => ({ handle: m.route.handle as unknown })),
    { search: url.searchParams, queryClient },
  );
  return { html, head, status: notFound ? 404 : badRequest ? 400 : 200, state: JSON.stringify(state) };
}

export const entry: SsrEntry = { pageUrl: serverPageUrl, render };
