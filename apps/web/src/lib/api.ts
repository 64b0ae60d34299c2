import type { RuntimeConfig } from '@portal/shared';
import { getRuntimeConfig } from '@/config/runtime-config';
import { type ApiClient, createApiClient } from './api-client';
import type { Transport } from './http-transport';

/** The token endpoint sits on the central login (CAS) host (spec section 7). */
function tokenUrl(config: RuntimeConfig): string {
  return `${new URL(config.casLoginUrl).origin}/web/portal/oauth/token`;
}

/** An API client for a runtime configuration; the server renderer passes a transport that answers in-process. */
export function createPortalApi(config: RuntimeConfig, transport?: Transport): ApiClient {
  return createApiClient({ baseURL: transport ? '' : config.apiBaseUrl, tokenUrl: () => tokenUrl(config), transport });
}

let client: ApiClient | undefined;

/** The browser's API client, created on first use so it reads the runtime configuration once loaded. */
export function api(): ApiClient {
  client ??= createPortalApi(getRuntimeConfig());
  return client;
}

/** Tests answer the browser client's calls in memory. */
export function setApiTransport(transport: Transport): void {
  client = createApiClient({ baseURL: '', tokenUrl: () => tokenUrl(getRuntimeConfig()), transport });
}
