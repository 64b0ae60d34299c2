import { type SsrEntry, type SsrFetchRequest, type SsrFetchResponse, type SsrRenderRequest, type SsrRenderResult } from '@portal/shared';
import { type QueryClient, dehydrate } from '@tanstack/react-query';
import axios, { type AxiosAdapter, AxiosHeaders } from 'axios';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { type StaticHandlerContext, StaticRouterProvider, createStaticHandler, createStaticRouter } from 'react-router';
import { getSiteInfoQueryOptions } from '@/api/get-site-info';
import { AppProviders, createQueryClient } from '@/app/app';
import type { RouteHandle } from '@/app/root-layout';
import { routes } from '@/app/router';
import { pageTitle, paths } from '@/config/paths';
import { setRuntimeConfig } from '@/config/runtime-config';
import { type Channel, getCategoriesQueryOptions, getPublishedArticlesQueryOptions } from '@/features/articles/api/articles';
import { INITIAL_ARTICLE_FILTERS, articleListQuery } from '@/features/articles/lib/article-format';
import { getHomeBlocksQueryOptions, getLatestNewsQueryOptions, getRecommendedAppsQueryOptions } from '@/features/home/api/home';
import { setApiAdapter } from '@/lib/api';

/**
 * Server rendering of the busiest public pages: the first view arrives as HTML (fast first paint on a
 * phone) and the browser hydrates it. Only visitor content is rendered here; who is logged in is found
 * out in the browser, as on every other page.
 */

type Prefetch = (queryClient: QueryClient) => Promise<unknown>;

const articleList =
  (channel: Channel): Prefetch =>
  async (queryClient) => {
    const categories = await queryClient.fetchQuery(getCategoriesQueryOptions(channel));
    const first = categories[0]?.categoryId;
    if (first !== undefined)
      await queryClient.prefetchQuery(getPublishedArticlesQueryOptions(articleListQuery(INITIAL_ARTICLE_FILTERS, first)));
  };

/**
 * Pages rendered on the server, with the data each shows in its first view. The others (article and
 * application details, agreements, console) render in the browser: they show sanitised HTML, which
 * needs the browser's DOM, or belong to a user.
 */
const PREFETCH: Partial<Record<string, Prefetch>> = {
  [paths.home.path]: (queryClient) =>
    Promise.all([
      queryClient.prefetchQuery(getHomeBlocksQueryOptions()),
      queryClient.prefetchQuery(getLatestNewsQueryOptions()),
      queryClient.prefetchQuery(getRecommendedAppsQueryOptions()),
    ]),
  [paths.news.path]: articleList('news'),
  [paths.knowledge.path]: articleList('knowledge'),
  [paths.settled.path]: () => Promise.resolve(),
};

/** Answers the API client's calls through the server's own routes, in-process. */
function localAdapter(fetchLocal: (request: SsrFetchRequest) => Promise<SsrFetchResponse>): AxiosAdapter {
  return async (config) => {
    const target = new URL(axios.getUri(config), 'http://ssr.invalid');
    const answer = await fetchLocal({ method: (config.method ?? 'get').toUpperCase(), url: target.pathname + target.search });
    return {
      data: answer.body,
      status: answer.status,
      statusText: String(answer.status),
      headers: new AxiosHeaders({ 'content-type': answer.contentType }),
      config,
    };
  };
}

let adapterFor: SsrRenderRequest['fetchLocal'] | undefined;

async function render(request: SsrRenderRequest): Promise<SsrRenderResult | null> {
  if (adapterFor !== request.fetchLocal) {
    setApiAdapter(localAdapter(request.fetchLocal));
    adapterFor = request.fetchLocal;
  }
  const url = new URL(request.url, request.config.homeUrl);
  const prefetch = PREFETCH[url.pathname];
  if (!prefetch) return null;
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(url));
  // A redirect or a route whose code failed to load: the browser router handles it.
  if (context instanceof Response || context.statusCode !== 200) return null;

  const queryClient = createQueryClient();
  await Promise.all([queryClient.prefetchQuery(getSiteInfoQueryOptions()), prefetch(queryClient)]);

  // The configuration is per request origin: set it right before the synchronous render.
  setRuntimeConfig(request.config);
  const html = renderToString(
    <StrictMode>
      <AppProviders queryClient={queryClient}>
        <StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} hydrate={false} />
      </AppProviders>
    </StrictMode>,
  );
  return {
    html,
    title: pageTitle(routeTitle(context)),
    state: JSON.stringify(dehydrate(queryClient)),
  };
}

function routeTitle(context: StaticHandlerContext): string | undefined {
  return [...context.matches].reverse().find((m) => (m.route.handle as RouteHandle | undefined)?.title)?.route.handle.title as
    string | undefined;
}

export const entry: SsrEntry = { render };
