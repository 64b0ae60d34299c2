import escapeHtml from 'escape-html';
import { layout } from '../cas/login-page.js';

/**
 * The provider's own pages (errors it cannot send back to an application, RP-initiated logout) in the
 * central login's frame: its stylesheet and logo, no scripts.
 */
const page = (casBase: string, title: string, body: string) =>
  layout(title, casBase, `<h1>${escapeHtml(title)}</h1>\n${body}`, 'OpenID Connect');

const text = (value: string) => `<p class="cas-card__text">${escapeHtml(value)}</p>`;

/**
 * A request the provider cannot answer to the application (an unknown client, an unregistered
 * redirect address): what went wrong, and the OAuth error code for whoever runs the application.
 */
export function oidcErrorPage(casBase: string, error: string, description: string | undefined): string {
  return page(
    casBase,
    '登录请求无效',
    text('应用发起的登录请求无法处理，请返回应用重新进入，或联系应用管理员。') +
      `<p class="cas-card__text">错误代码：${escapeHtml(error)}${description ? `（${escapeHtml(description)}）` : ''}</p>`,
  );
}

/**
 * RP-initiated logout's confirmation (OpenID Connect RP-Initiated Logout 1.0 §2): `form` is the
 * provider's hidden form (its xsrf token); the buttons submit it, with `logout=yes` to sign out.
 */
export function oidcLogoutPage(casBase: string, clientName: string | undefined, form: string): string {
  const from = clientName ? `应用「${clientName}」请求退出登录。` : '';
  return page(
    casBase,
    '确认退出登录',
    `${text(`${from}是否退出统一身份认证？退出后，通过它登录的所有应用都将退出登录。`)}
${form}
<div class="cas-links cas-links--buttons">
<button class="cas-button" type="submit" form="op.logoutForm" name="logout" value="yes" autofocus>退出登录</button>
<button class="cas-button" type="submit" form="op.logoutForm">取消</button>
</div>`,
  );
}

/** After a logout without a registered address to return to. */
export function oidcLogoutDonePage(casBase: string): string {
  return page(casBase, '您已退出登录', text('您已退出统一身份认证，可以关闭此页面。'));
}

/**
 * A sign-in whose authorization request is gone (expired, finished, or started in another browser):
 * the application starts a new one.
 */
export function oidcSignInExpiredPage(casBase: string): string {
  return page(casBase, '登录请求已过期', text('登录请求已过期或已完成，请返回应用重新进入。'));
}
