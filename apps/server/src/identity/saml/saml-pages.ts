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

/** A message the endpoint's checks refuse before it is read (a field too long, of the wrong type). */
export function samlInvalidPage(casBase: string, reason: string): string {
  return page(casBase, '请求无效', text(`${reason}。请返回应用重新进入，或联系应用管理员。`));
}

/** Over the per-address limit of SAML messages. */
export function samlBusyPage(casBase: string, seconds: number): string {
  return page(casBase, '请求过于频繁', text(`请求过于频繁，请 ${seconds} 秒后再试。`));
}

/** A sign-in whose request is gone (expired, answered, or started in another browser). */
export function samlExpiredPage(casBase: string): string {
  return page(casBase, '登录请求已过期', text('登录请求已过期或已完成，请返回应用重新进入。'));
}

/**
 * The account has no email the application's NameID format can name it by: none at all, or one that
 * another account holds as well (it would name either). 个人信息 shows no email: the enterprise's
 * administrator sets it in 账号管理.
 */
export function samlNoEmailPage(casBase: string): string {
  return page(
    casBase,
    '无法登录该应用',
    text(
      '该应用以邮箱识别用户，而您的账号未登记邮箱，或该邮箱同时登记在其他账号上，无法唯一识别您。请联系企业管理员在账号管理中为您的账号设置唯一的邮箱后重试。',
    ),
  );
}

/** A logout request the identity provider refuses: no session ends, nothing goes to any application. */
export function samlLogoutRefusedPage(casBase: string): string {
  return page(
    casBase,
    '退出请求无效',
    text(
      '应用发起的 SAML 退出请求无法处理（未登记的应用、签名不符、请求过期或重复），登录状态未改变。请返回应用重试，或在门户中退出登录。',
    ),
  );
}

/** After a logout without an SP address to answer to (the CAS logout page's words). */
export function samlLogoutDonePage(casBase: string): string {
  return page(casBase, '您已安全退出', text('统一身份认证会话已结束，可以关闭此页面。'));
}

/** An application signed out of a sign-in that is not this browser's session: the session goes on. */
export function samlLogoutKeptPage(casBase: string): string {
  return page(casBase, '已退出应用', text('应用的退出请求已处理。本浏览器的统一身份认证登录状态未改变。'));
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
  purpose: 'sign-in' | 'sign-out' = 'sign-in',
): string {
  const relay = relayState ? `<input type="hidden" name="RelayState" value="${escapeHtml(relayState)}">` : '';
  // A LogoutResponse goes back to the application after the session ended: no sign-in words on it.
  const [title, heading] = purpose === 'sign-out' ? ['正在退出', '已退出统一认证，正在返回应用'] : ['正在登录', '正在进入应用'];
  return layout(
    title,
    casBase,
    `<h1>${heading}</h1>
<form id="saml-post" method="post" action="${escapeHtml(action)}">
<input type="hidden" name="${field}" value="${escapeHtml(value)}">${relay}
<p class="cas-card__text">如果页面没有自动跳转，请点击继续。</p>
<button class="cas-button" type="submit">继续</button>
</form>
<script>${SUBMIT_SCRIPT}</script>`,
    'SAML 2.0',
  );
}
