/**
 * The article detail's 请先登录 (spec sections 2 and 8) invites a visitor to the platform's services:
 * every article stays readable without an account, so it is asked once per browser session, not on
 * every article.
 */
export const LOGIN_PROMPT_TEXT = '登录后即可使用标识解析、应用中心、开放服务等平台服务；文章无需登录也可继续阅读。';

/**
 * A session cookie (no expiry: it ends with the browser session). Not session storage: list cards open
 * articles in new tabs without an opener, and each such tab starts with empty session storage.
 */
const PROMPTED_COOKIE = 'portal_login_prompted';

/** Where cookies are refused: asked once per page load instead. */
let promptedHere = false;

function prompted(): boolean {
  return document.cookie.split(/;\s*/).includes(`${PROMPTED_COOKIE}=1`);
}

function writeCookie(value: string, extra = ''): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${PROMPTED_COOKIE}=${value}; Path=/; SameSite=Lax${secure}${extra}`;
}

/** Whether to ask now: true once per browser session, and marks it asked. */
export function takeLoginPrompt(): boolean {
  if (promptedHere || prompted()) return false;
  promptedHere = true;
  writeCookie('1');
  return true;
}

/** The prompt went away unanswered: it may be asked again. */
export function releaseLoginPrompt(): void {
  promptedHere = false;
  writeCookie('', '; Max-Age=0');
}
