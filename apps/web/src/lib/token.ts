const KEY = 'portal.token';

let memory: string | null | undefined;

function storage(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

/**
 * The API token, stored as `type + ' ' + token` (spec section 7, token refresh). Kept for the tab's
 * life only (sessionStorage); the long-lived login is the HttpOnly session cookie, never script-readable.
 */
export const tokenStore = {
  get(): string | null {
    if (memory === undefined) memory = storage()?.getItem(KEY) ?? null;
    return memory;
  },
  set(token: string): void {
    memory = token;
    storage()?.setItem(KEY, token);
  },
  clear(): void {
    memory = null;
    storage()?.removeItem(KEY);
  },
};
