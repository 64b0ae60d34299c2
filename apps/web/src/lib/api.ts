import type { RuntimeConfig } from '@portal/shared';
import type { AxiosAdapter } from 'axios';
import { getRuntimeConfig } from '@/config/runtime-config';
import { type ApiClient, createApiClient, typed } from './api-client';

/** The token endpoint sits on the central login (CAS) host (spec section 7). */
function tokenUrl(config: RuntimeConfig): string {
  return `${new URL(config.casLoginUrl).origin}/web/portal/oauth/token`;
}

/** An API client for a runtime configuration; the server renderer passes an adapter that answers in-process. */
export function createPortalApi(config: RuntimeConfig, adapter?: AxiosAdapter): ApiClient {
  return typed(createApiClient({ baseURL: adapter ? '' : config.apiBaseUrl, tokenUrl: () => tokenUrl(config), adapter }));
}

let client: ApiClient | undefined;

/** The browser's API client, created on first use so it reads the runtime configuration once loaded. */
export function api(): ApiClient {
  client ??= createPortalApi(getRuntimeConfig());
  return client;
}

/** Tests answer the browser client's calls in memory. */
export function setApiAdapter(adapter: AxiosAdapter): void {
  client = typed(createApiClient({ baseURL: '', tokenUrl: () => tokenUrl(getRuntimeConfig()), adapter }));
}
