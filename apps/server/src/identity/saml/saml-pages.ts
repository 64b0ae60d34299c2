import { createHash } from 'node:crypto';
import escapeHtml from 'escape-html';
import { layout } from '../cas/login-page.js';

const page = (casBase: string, title: string, body: string) => layout(title, casBase, `<h1>${escapeHtml(title)}</h1>\n${body}`, 'SAML 2.0');
const text = (value: string) => `<p class="cas-card__text">${escapeHtml(value)}</p>`;

/** A request the identity provider refuses: nothing goes to any application. */
export function samlRefusedPage(casBase: string): string {
  return page(
    casBase,
    '登录请求无效',
    text('应用发起的 SAML 登录请求无法处理（未登记的应用、地址或签名不符、请求过期或重复），请返回应用重新进入，或联系应用管理员。'),
  );
}

/** A sign-in whose request is gone (expired, answered, or started in another browser). */
export function samlExpiredPage(casBase: string): string {
  return page(casBase, '登录请求已过期', text('登录请求已过期或已完成，请返回应用重新进入。'));
}

/** The account lacks what the application's NameID format needs (an email). */
export function samlNoEmailPage(casBase: string): string {
  return page(casBase, '无法登录该应用', text('该应用以邮箱识别用户，而您的账号未登记邮箱。请在个人信息中填写邮箱后重试，或联系管理员。'));
}

/** After a logout without an SP address to answer to. */
export function samlLogoutDonePage(casBase: string): string {
  return page(casBase, '您已退出登录', text('您已退出统一身份认证，可以关闭此页面。'));
}

/** The script that submits the form at once (its hash goes into the page's CSP). */
const SUBMIT_SCRIPT = "document.getElementById('saml-post').submit();";
export const SUBMIT_SCRIPT_HASH = `'sha256-${createHash('sha256').update(SUBMIT_SCRIPT).digest('base64')}'`;

/**
 * The HTTP-POST binding (SAML Bindings §3.5.4): a form that carries the message to the SP, submitted by
 * a hashed script, with a button where scripts do not run.
 */
export function samlPostPage(
  casBase: string,
  action: string,
  field: 'SAMLResponse' | 'SAMLRequest',
  value: string,
  relayState: string,
): string {
  const relay = relayState ? `<input type="hidden" name="RelayState" value="${escapeHtml(relayState)}">` : '';
  return layout(
    '正在登录',
    casBase,
    `<h1>正在进入应用</h1>
<form id="saml-post" method="post" action="${escapeHtml(action)}">
<input type="hidden" name="${field}" value="${escapeHtml(value)}">${relay}
<p class="cas-card__text">如果页面没有自动跳转，请点击继续。</p>
<button class="cas-button" type="submit">继续</button>
</form>
<script>${SUBMIT_SCRIPT}</script>`,
    'SAML 2.0',
  );
}
