import type { RuntimeConfig } from '@portal/shared';
import { getRuntimeConfig } from '@/config/runtime-config';
import { type ApiClient, createApiClient } from './api-client';
import { sessionEnded } from './auth';
import type { Transport } from './http-transport';

/** The token endpoint sits on the central login (CAS) host (spec section 7). */
function tokenUrl(config: RuntimeConfig): string {
  return `${new URL(config.casLoginUrl).origin}/web/portal/oauth/token`;
}

/** An API client for a runtime configuration; the server renderer passes a transport that answers in-process. */
export function createPortalApi(config: RuntimeConfig, transport?: Transport): ApiClient {
  // The server renderer's client has no session of a browser to end.
  return transport
    ? createApiClient({ baseURL: '', tokenUrl: () => tokenUrl(config), transport })
    : createApiClient({ baseURL: config.apiBaseUrl, tokenUrl: () => tokenUrl(config), onSessionEnded: sessionEnded });
}

let client: ApiClient | undefined;

/** The browser's API client, created on first use so it reads the runtime configuration once loaded. */
export function api(): ApiClient {
  client ??= createPortalApi(getRuntimeConfig());
  return client;
}

/** Tests answer the browser client's calls in memory. */
export function setApiTransport(transport: Transport): void {
  client = createApiClient({ baseURL: '', tokenUrl: () => tokenUrl(getRuntimeConfig()), transport, onSessionEnded: sessionEnded });
}
