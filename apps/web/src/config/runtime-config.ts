import { RUNTIME_CONFIG_GLOBAL, type RuntimeConfig, decodeRuntimeConfig } from '@portal/shared';
import { createContext, useContext } from 'react';

declare global {
  interface Window {
    [RUNTIME_CONFIG_GLOBAL]?: () => string;
  }
}

let cached: RuntimeConfig | undefined;

/**
 * The browser's runtime configuration, as `/config.js` defined it (spec section 3). Every host the
 * app calls or links to comes from here; nothing is compiled in.
 */
export function getRuntimeConfig(): RuntimeConfig {
  if (cached) return cached;
  const read = window[RUNTIME_CONFIG_GLOBAL];
  if (typeof read !== 'function') throw new Error('运行时配置未加载：/config.js 不可用');
  cached = decodeRuntimeConfig(read());
  return cached;
}

/** Tests set the configuration directly. */
export function setRuntimeConfig(config: RuntimeConfig | undefined): void {
  cached = config;
}

/** The configuration the app renders with (`AppProviders`): on the server, that of the request it renders. */
export const RuntimeConfigContext = createContext<RuntimeConfig | undefined>(undefined);

/** The runtime configuration in a component: the provided one, else the browser's (tests render without providers). */
export function useRuntimeConfig(): RuntimeConfig {
  return useContext(RuntimeConfigContext) ?? getRuntimeConfig();
}

/** Resolves a path relative to the portal home (`/news`) or keeps an absolute URL as it is. */
export function portalUrl(config: RuntimeConfig, pathOrUrl: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(pathOrUrl)) return pathOrUrl;
  return config.homeUrl + (pathOrUrl.startsWith('/') ? pathOrUrl : `/${pathOrUrl}`);
}

/** A relative file path (thumbnail, icon) prefixed with the static-file base address. */
export function fileUrl(config: RuntimeConfig, path: string): string {
  if (!path || /^(https?:|data:|blob:)/.test(path)) return path;
  return config.fileStaticUrl + (path.startsWith('/') ? path : `/${path}`);
}
