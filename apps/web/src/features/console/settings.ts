/** Spec section 3, "Settings": the console's title and which parts of the shell are on. */
export const consoleSettings = {
  title: 'Engineering e+ 企业控制台',
  tagsView: true,
  fixedHeader: true,
  sidebarLogo: true,
} as const;

/** The console's root path: it redirects to the first permitted page (spec section 2, route `/`). */
export const CONSOLE_ROOT = '/console';
/** Prefix of the refresh route inside the console (spec section 2: `/redirect{fullPath}`). */
export const REDIRECT_PREFIX = '/redirect';
/** Where the guard remembers the page a visitor wanted before the central login (spec section 4). */
export const LAST_URL_KEY = 'LAST_URL';
