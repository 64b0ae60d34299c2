import { RUNTIME_CONFIG_GLOBAL, type RuntimeConfig, decodeRuntimeConfig } from '@portal/shared';

declare global {
  interface Window {
    [RUNTIME_CONFIG_GLOBAL]?: () => string;
  }
}

let cached: RuntimeConfig | undefined;

/**
 * The runtime configuration `/config.js` defined (spec section 3). Every host the app calls or
 * links to comes from here; nothing is compiled in.
 */
export function getRuntimeConfig(): RuntimeConfig {
  if (cached) return cached;
  const read = window[RUNTIME_CONFIG_GLOBAL];
  if (typeof read !== 'function') throw new Error('运行时配置未加载：/config.js 不可用');
  cached = decodeRuntimeConfig(read());
  return cached;
}

/** Tests and the server renderer set the configuration directly. */
export function setRuntimeConfig(config: RuntimeConfig | undefined): void {
  cached = config;
}

/** Resolves a path relative to the portal home (`/news`) or keeps an absolute URL as it is. */
export function portalUrl(pathOrUrl: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(pathOrUrl)) return pathOrUrl;
  return getRuntimeConfig().homeUrl + (pathOrUrl.startsWith('/') ? pathOrUrl : `/${pathOrUrl}`);
}

/** A relative file path (thumbnail, icon) prefixed with the static-file base address. */
export function fileUrl(path: string): string {
  if (!path || /^(https?:|data:|blob:)/.test(path)) return path;
  return getRuntimeConfig().fileStaticUrl + (path.startsWith('/') ? path : `/${path}`);
}
