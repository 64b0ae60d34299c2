/**
 * Runtime configuration (spec section 3, "System configuration"). The server writes it into
 * `/config.js` as base64-encoded JSON returned by a global function; the web app reads every host
 * from it and from nowhere else.
 */
export interface RuntimeConfig {
  /** Central login (CAS) page, e.g. `https://sso.example.com/cas/login`. */
  casLoginUrl: string;
  /** Central logout (CAS) address. */
  casLogoutUrl: string;
  /** Main site address (403 page links go to `mainUrl + mainVisitPrefix`). */
  mainUrl: string;
  /** Prefix appended to `mainUrl` when linking back to the main site. */
  mainVisitPrefix: string;
  /** Application center; the carousel opens `{appCenterUrl}/center/detail?uuid=…`. */
  appCenterUrl: string;
  /** Open-service (developer) center. */
  openServiceUrl: string;
  /** Tenant admin console opened by the header's console button. */
  tenantManageUrl: string;
  /** Platform operators' console. */
  operatePlatformUrl: string;
  /** Base address prefixed to relative file paths (thumbnails, icons, images). */
  fileStaticUrl: string;
  /** Portal home page. */
  homeUrl: string;
  /** Base address of the portal's API calls (content, application, identity, portal). */
  apiBaseUrl: string;
  /** The Android installation package /app-download offers; empty when none is published (the page says how to get the app). */
  appPackageUrl: string;
}

export const RUNTIME_CONFIG_KEYS = [
  'casLoginUrl',
  'casLogoutUrl',
  'mainUrl',
  'mainVisitPrefix',
  'appCenterUrl',
  'openServiceUrl',
  'tenantManageUrl',
  'operatePlatformUrl',
  'fileStaticUrl',
  'homeUrl',
  'apiBaseUrl',
  'appPackageUrl',
] as const satisfies readonly (keyof RuntimeConfig)[];

/** Name of the global function defined by `/config.js`. */
export const RUNTIME_CONFIG_GLOBAL = 'getPortalConfig';

/** Encodes the configuration as base64 of its UTF-8 JSON (works in Node and browsers). */
export function encodeRuntimeConfig(config: RuntimeConfig): string {
  const bytes = new TextEncoder().encode(JSON.stringify(config));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

export function decodeRuntimeConfig(encoded: string): RuntimeConfig {
  const binary = atob(encoded);
  const bytes = Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
  return JSON.parse(new TextDecoder().decode(bytes)) as RuntimeConfig;
}
