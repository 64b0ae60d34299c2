import type { AxiosAdapter } from 'axios';
import { getRuntimeConfig } from '@/config/runtime-config';
import { createApiClient, typed } from './api-client';

/** The token endpoint sits on the central login (CAS) host (spec section 7). */
function tokenUrl(): string {
  return `${new URL(getRuntimeConfig().casLoginUrl).origin}/web/portal/oauth/token`;
}

let client: ReturnType<typeof typed> | undefined;

/** The app's API client, created on first use so it reads the runtime configuration once loaded. */
export function api() {
  client ??= typed(createApiClient({ baseURL: getRuntimeConfig().apiBaseUrl, tokenUrl }));
  return client;
}

/** The server renderer answers the client's calls in-process instead of over HTTP. */
export function setApiAdapter(adapter: AxiosAdapter): void {
  client = typed(createApiClient({ baseURL: '', tokenUrl, adapter }));
}
