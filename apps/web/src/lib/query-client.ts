import { QueryClient } from '@tanstack/react-query';
import { RouterContextProvider, createContext } from 'react-router';
import { api } from './api';
import type { ApiClient } from './api-client';

declare module 'react-router' {
  // Data routers always hand loaders a `RouterContextProvider`; this types `context` as one.
  interface Future {
    v8_middleware: true;
  }
}

const DEFAULT_OPTIONS = {
  defaultOptions: {
    // The API client already toasts errors; one retry would toast twice.
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 60_000 },
  },
};

/** A query client whose queries call the API through their own client (see `createQueryClient`). */
class OwnApiQueryClient extends QueryClient {
  constructor(readonly api: ApiClient) {
    super(DEFAULT_OPTIONS);
  }
}

/**
 * The app's query client. The server renderer makes one per page with `ownApi`, a client answered
 * in-process; the browser's queries use `api()`.
 */
export function createQueryClient(ownApi?: ApiClient): QueryClient {
  return ownApi ? new OwnApiQueryClient(ownApi) : new QueryClient(DEFAULT_OPTIONS);
}

/** The API client for a query function's `client` (its query client): that client's own, or the browser's. */
export function apiOf(client: QueryClient): ApiClient {
  return client instanceof OwnApiQueryClient ? client.api : api();
}

/** Route loaders fill the query client of the router they run in (browser) or of the page render (server). */
export const queryClientContext = createContext<QueryClient>();

export function routerContext(queryClient: QueryClient): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(queryClientContext, queryClient);
  return context;
}
