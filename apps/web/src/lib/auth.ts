import { ApiPrefix, type RuntimeConfig } from '@portal/shared';
import { getRuntimeConfig } from '@/config/runtime-config';
import { tokenStore } from './token';

/** Clearers of client state run at logout (the query cache, session-scoped stores). */
const logoutHandlers = new Set<() => void>();

export function onLogout(handler: () => void): () => void {
  logoutHandlers.add(handler);
  return () => {
    logoutHandlers.delete(handler);
  };
}

/** Pages that need the login and react when it ends elsewhere (the console); see `sessionEnded`. */
const sessionEndHandlers = new Set<() => void>();

export function onSessionEnd(handler: () => void): () => void {
  sessionEndHandlers.add(handler);
  return () => {
    sessionEndHandlers.delete(handler);
  };
}

/**
 * The login session ended elsewhere (强制下线, 停用, 重置密码) or expired: its token is dropped, and
 * the page that needs the login (the console) takes the user to the central login.
 */
export function sessionEnded(): void {
  tokenStore.clear();
  for (const handler of sessionEndHandlers) handler();
}

/**
 * The central login, coming back to `target` (a path of this app) afterwards. It starts at the
 * portal server, which binds the login to this browser (login CSRF) before sending it to the CAS.
 * Links rendered on the server pass the request's configuration.
 */
export function centralLoginUrl(
  target: string = window.location.pathname + window.location.search,
  config: RuntimeConfig = getRuntimeConfig(),
): string {
  const start = new URL(`${ApiPrefix.portalAuth}/cas/login`, config.apiBaseUrl);
  start.searchParams.set('target', target);
  return start.toString();
}

/**
 * Logout (spec section 4): clear all user state, reset the router (a full page load does it),
 * then go to the central logout address, which returns to the portal home.
 */
export function logout(): void {
  tokenStore.clear();
  for (const handler of logoutHandlers) handler();
  const config = getRuntimeConfig();
  window.location.assign(`${config.casLogoutUrl}?service=${encodeURIComponent(config.homeUrl + '/')}`);
}
