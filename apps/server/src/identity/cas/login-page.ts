import { AUTH_SOURCE_TYPE_LABELS, type ChatSourceType } from '@portal/shared';
import escapeHtml from 'escape-html';

/**
 * The embedded CAS server's pages: server-rendered HTML. The CSP allows no inline script: the pages
 * that offer a passkey load the site's own two files (the WebAuthn browser library and PASSKEY_JS).
 */

/** The scripts of a page that offers a passkey, from this site (CSP script-src 'self'). */
const passkeyScripts = (casBase: string) =>
  `<script src="${escapeHtml(casBase)}/assets/webauthn.js" defer></script>\n<script src="${escapeHtml(casBase)}/assets/passkey.js" defer></script>\n`;

/** The central login's page frame; `protocol` names the service in the footer (CAS 3.0, OpenID Connect). */
export function layout(title: string, casBase: string, body: string, protocol = 'CAS 3.0', head = ''): string {
  const scripts = (body.includes('data-passkey=') ? passkeyScripts(casBase) : '') + head;
  return `<!doctype html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} - Engineering e+ 统一身份认证</title>
<link rel="icon" href="${escapeHtml(casBase)}/assets/logo.svg" type="image/svg+xml">
<link rel="stylesheet" href="${escapeHtml(casBase)}/assets/login.css">
${scripts}</head>
<body>
<main class="cas">
  <section class="cas-brand" aria-hidden="true">
    <div class="cas-brand__logo"><img src="${escapeHtml(casBase)}/assets/logo.svg" alt="" width="40" height="40"><span>Engineering e+</span></div>
    <h2>工业互联网平台</h2>
    <p>一个账号，通行门户、应用中心、开放服务与控制台</p>
    <ul>
      <li>设备上云与远程运维</li>
      <li>工业标识解析与产品追溯</li>
      <li>工业 APP 与开发者工具</li>
    </ul>
  </section>
  <section class="cas-card">${body}</section>
</main>
<footer class="cas-footer">© 2026 工程机械集团有限公司 版权所有 · 统一身份认证服务（${protocol}）</footer>
</body>
</html>`;
}

/** A CAS address carrying the service the login is for (CAS 3.0 §2.1.1), if any. */
const withService = (url: string, service: string | undefined) => (service ? `${url}?service=${encodeURIComponent(service)}` : url);

/** The hidden fields every step of a login carries: the form token, and renew when the service asked for it. */
const stepFields = (execution: string, renew: boolean) =>
  `<input type="hidden" name="execution" value="${escapeHtml(execution)}">${renew ? '\n  <input type="hidden" name="renew" value="true">' : ''}`;

const alert = (error: string | undefined) => (error ? `<div class="cas-alert" role="alert">${escapeHtml(error)}</div>` : '');

/**
 * A passkey's form (PASSKEY_JS drives it): the button asks this site for the ceremony's options, the
 * browser's authenticator answers, and the form posts the answer. Hidden until the script finds WebAuthn.
 * `extra`: more of the form (信任此设备's box, or the field that carries the page's box).
 */
function passkeyForm(
  m: { casBase: string; service: string | undefined; renew: boolean; execution: string; proof?: string },
  label: string,
  title?: string,
  extra = '',
): string {
  const secondFactor = m.proof !== undefined;
  const action = withService(`${m.casBase}/login/${secondFactor ? 'two-factor/passkey' : 'passkey'}`, m.service);
  return `<form method="post" action="${escapeHtml(action)}" class="cas-passkey" data-passkey="${escapeHtml(`${m.casBase}/login/passkey/options`)}" hidden>
  <input type="hidden" name="credential" value="">
  ${secondFactor ? `<input type="hidden" name="proof" value="${escapeHtml(m.proof ?? '')}">\n  ` : ''}${stepFields(m.execution, m.renew)}
  ${title ? `<p class="cas-other__title">${escapeHtml(title)}</p>\n  ` : ''}<p class="cas-passkey__error cas-alert" role="alert" hidden></p>
  ${extra ? `${extra}\n  ` : ''}<button type="button" class="cas-passkey__button">${escapeHtml(label)}</button>
</form>`;
}

export interface LoginPageModel {
  casBase: string;
  portalBase: string;
  service: string | undefined;
  renew: boolean;
  execution: string;
  username?: string;
  error?: string;
  /** 其他登录方式: the chat platforms some active enterprise signs in with. */
  chatLogins?: readonly ChatSourceType[];
  /** Identity-first (some enterprise's provider claims email domains): 账号或邮箱 first, the password after it. */
  identityFirst?: boolean;
  /** 其他登录方式: the enterprises' own providers (OpenID Connect), by their 认证源 name. */
  federatedLogins?: readonly { id: number; label: string }[];
}

/** A federated source's sign-in, for the same service (and renew) as the form. */
export function federatedLoginHref(casBase: string, sourceId: number, service: string | undefined, renew: boolean): string {
  const query = new URLSearchParams();
  if (service) query.set('service', service);
  if (renew) query.set('renew', 'true');
  const search = query.toString();
  return `${casBase}/login/federation/${sourceId}${search ? `?${search}` : ''}`;
}

/** The QR sign-in of a chat platform, for the same service (and renew) as the form. */
export function chatLoginHref(casBase: string, type: ChatSourceType, service: string | undefined, renew: boolean, source?: number): string {
  const query = new URLSearchParams();
  if (source !== undefined) query.set('source', String(source));
  if (service) query.set('service', service);
  if (renew) query.set('renew', 'true');
  const search = query.toString();
  return `${casBase}/login/${type}${search ? `?${search}` : ''}`;
}

/** 其他登录方式: a button per chat platform and per enterprise provider, or nothing when none is configured. */
function otherLogins(m: LoginPageModel): string {
  if (!m.chatLogins?.length && !m.federatedLogins?.length) return '';
  const chat = (m.chatLogins ?? []).map(
    (type) =>
      `<a class="cas-other__button cas-other__button--${type}" href="${escapeHtml(chatLoginHref(m.casBase, type, m.service, m.renew))}">${escapeHtml(AUTH_SOURCE_TYPE_LABELS[type])}</a>`,
  );
  const federated = (m.federatedLogins ?? []).map(
    (s) =>
      `<a class="cas-other__button cas-other__button--federated" href="${escapeHtml(federatedLoginHref(m.casBase, s.id, m.service, m.renew))}">${escapeHtml(s.label)}</a>`,
  );
  const buttons = [...chat, ...federated].join('');
  return `<div class="cas-other"><p class="cas-other__title">其他登录方式</p><div class="cas-other__buttons">${buttons}</div></div>`;
}

export function loginPage(m: LoginPageModel): string {
  const action = `${m.casBase}/login${m.service ? `?service=${encodeURIComponent(m.service)}` : ''}`;
  // Identity-first: 账号或邮箱 comes first and an address of a claimed domain signs in at its provider
  // without a password (the field stays, so a username and password typed or posted together still sign in).
  const federated = m.identityFirst === true;
  const placeholder = federated ? '请输入用户名、手机号或企业邮箱' : '请输入用户名或手机号';
  const hint = federated ? '\n  <p class="cas-hint" id="login-hint">使用企业邮箱时，无需密码，点击登录将跳转到企业身份提供方</p>' : '';
  return layout(
    '登录',
    m.casBase,
    `<h1>账号登录</h1>
<p class="cas-card__sub">欢迎使用 Engineering e+ 统一身份认证</p>
${m.error ? `<div class="cas-alert" role="alert">${escapeHtml(m.error)}</div>` : ''}
<form method="post" action="${escapeHtml(action)}" class="cas-form" autocomplete="on">
  <label for="username">${federated ? '账号或邮箱' : '账号'}</label>
  <input id="username" name="username" type="text" required maxlength="64" autocomplete="username" placeholder="${placeholder}" value="${escapeHtml(m.username ?? '')}"${m.username ? '' : ' autofocus'}${federated ? ' aria-describedby="login-hint"' : ''}>${hint}
  <label for="password">密码</label>
  <input id="password" name="password" type="password"${federated ? '' : ' required'} maxlength="64" autocomplete="current-password" placeholder="请输入密码"${m.username ? ' autofocus' : ''}>
  <input type="hidden" name="execution" value="${escapeHtml(m.execution)}">
  ${m.renew ? '<input type="hidden" name="renew" value="true">' : ''}
  <button type="submit">登 录</button>
</form>
${passkeyForm(m, '使用通行密钥', '通行密钥登录')}
${otherLogins(m)}
<div class="cas-links">
  <a href="${escapeHtml(m.portalBase)}/?register=1">没有账号？立即注册</a>
  <a href="${escapeHtml(withService(`${m.casBase}/forgot-password`, m.service))}">忘记密码？</a>
</div>
<div class="cas-links cas-links--center"><a href="${escapeHtml(m.portalBase)}/">返回门户首页</a></div>`,
  );
}

export interface ChooseEnterprisePageModel {
  casBase: string;
  type: ChatSourceType;
  service: string | undefined;
  renew: boolean;
  /** The enterprises that sign in with this platform, by name. */
  enterprises: readonly { sourceId: number; name: string }[];
}

/** 选择企业: several enterprises sign in with the same platform, each with its own app; the person picks theirs. */
export function chooseEnterprisePage(m: ChooseEnterprisePageModel): string {
  const label = AUTH_SOURCE_TYPE_LABELS[m.type];
  const choices = m.enterprises
    .map(
      (e) =>
        `<li><a class="cas-choice" href="${escapeHtml(chatLoginHref(m.casBase, m.type, m.service, m.renew, e.sourceId))}">${escapeHtml(e.name)}</a></li>`,
    )
    .join('');
  return layout(
    '选择企业',
    m.casBase,
    `<h1>选择企业</h1>
<p class="cas-card__sub">请选择您所在的企业，然后使用${escapeHtml(label)}扫码登录。</p>
<ul class="cas-choices">${choices}</ul>
<div class="cas-links"><a href="${escapeHtml(withService(`${m.casBase}/login`, m.service))}">返回账号登录</a></div>`,
  );
}

export interface PasswordChangePageModel {
  casBase: string;
  service: string | undefined;
  renew: boolean;
  execution: string;
  change: string;
  name: string;
  /** 密码已过期 (the policy's expiry) rather than an initial password. */
  expired?: boolean;
  /** The account's password rules in one line (describePasswordRules). */
  rules?: string;
  error?: string;
}

/**
 * 修改初始密码: an account given an initial password sets its own before it is logged in;
 * 密码已过期: the same step when the password is older than the policy allows.
 */
export function passwordChangePage(m: PasswordChangePageModel): string {
  const action = `${m.casBase}/login/password${m.service ? `?service=${encodeURIComponent(m.service)}` : ''}`;
  const title = m.expired ? '密码已过期' : '修改初始密码';
  const why = m.expired ? '您的密码已超过企业规定的有效期，请设置新密码后继续。' : '您的密码由管理员设置，首次登录请设置新密码后继续。';
  return layout(
    title,
    m.casBase,
    `<h1>${title}</h1>
<p class="cas-card__sub">${escapeHtml(m.name)}，${why}</p>
${m.error ? `<div class="cas-alert" role="alert">${escapeHtml(m.error)}</div>` : ''}
<form method="post" action="${escapeHtml(action)}" class="cas-form" autocomplete="off">
  <label for="password">新密码</label>
  <input id="password" name="password" type="password" required maxlength="64" autocomplete="new-password" placeholder="${escapeHtml(m.rules ?? '6-18位')}，区分大小写" autofocus>
  <label for="confirm">确认新密码</label>
  <input id="confirm" name="confirm" type="password" required maxlength="64" autocomplete="new-password" placeholder="请再次输入密码">
  <input type="hidden" name="change" value="${escapeHtml(m.change)}">
  <input type="hidden" name="execution" value="${escapeHtml(m.execution)}">
  ${m.renew ? '<input type="hidden" name="renew" value="true">' : ''}
  <button type="submit">确认修改并登录</button>
</form>`,
  );
}

export function messagePage(casBase: string, title: string, text: string, links: { href: string; label: string }[]): string {
  return layout(
    title,
    casBase,
    `<h1>${escapeHtml(title)}</h1>
<p class="cas-card__text">${escapeHtml(text)}</p>
<div class="cas-links cas-links--buttons">${links.map((l) => `<a class="cas-button" href="${escapeHtml(l.href)}">${escapeHtml(l.label)}</a>`).join('')}</div>`,
  );
}

/**
 * Identity-first's hand-over to an enterprise's provider after the login form's post: a same-site
 * refresh, not a redirect, since CSP form-action would judge a redirect chain after a form post by the
 * provider's origin, which the login page cannot know in advance. The link serves browsers that do not refresh.
 */
export function federatedRedirectPage(casBase: string, href: string): string {
  return layout(
    '正在跳转',
    casBase,
    `<h1>正在跳转到企业身份提供方</h1>
<p class="cas-card__text">您的邮箱属于已接入企业身份提供方的企业，请在企业身份提供方完成登录。</p>
<div class="cas-links cas-links--buttons"><a class="cas-button" href="${escapeHtml(href)}">继续</a></div>`,
    'CAS 3.0',
    `<meta http-equiv="refresh" content="0;url=${escapeHtml(href)}">\n`,
  );
}

export interface StepPageModel {
  casBase: string;
  service: string | undefined;
  renew: boolean;
  execution: string;
  /** The signed proof of the steps before this one (LoginProofs). */
  proof: string;
  name: string;
  error?: string;
}

export interface CodePageModel extends StepPageModel {
  /** The way in use: the authenticator's code (or a recovery code), 短信验证码, or a passkey. */
  method: 'totp' | 'sms' | 'passkey';
  /** The ways the account can use (the page offers the others). */
  factors: { totp: boolean; sms: boolean; passkey: boolean };
  /** The phone an SMS code goes to, masked (138****0002). */
  phone: string;
  /** 信任此设备's days; 0: the box is not offered. */
  trustDays: number;
  /** An SMS code was just sent. */
  sent?: boolean;
}

/** A button posting the step's proof to `path` with one more field (another way, or a new SMS code). */
const stepButton = (m: CodePageModel, path: string, fields: Record<string, string>, label: string, primary = false) =>
  `<form method="post" action="${escapeHtml(withService(`${m.casBase}${path}`, m.service))}" class="cas-inline">
  ${Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('')}
  <input type="hidden" name="proof" value="${escapeHtml(m.proof)}">
  ${stepFields(m.execution, m.renew)}
  <button type="submit"${primary ? '' : ' class="cas-other__button"'}>${escapeHtml(label)}</button>
</form>`;

/** 信任此设备: offered with every code form when the enterprise allows trusted devices. */
const trustBox = (days: number) =>
  days > 0
    ? `<label class="cas-check" for="trust"><input id="trust" name="trust" type="checkbox" value="1">信任此设备，${days} 天内在此浏览器登录无需二次验证</label>`
    : '';

/**
 * 二次验证: the code of the authenticator app (RFC 6238) or one of the recovery codes, a 短信验证码
 * sent to the account's phone, or a passkey; the other ways the account can use below; 信任此设备 when allowed.
 */
export function twoFactorCodePage(m: CodePageModel): string {
  const action = escapeHtml(withService(`${m.casBase}/login/two-factor`, m.service));
  const codeForm = (
    label: string,
    input: string,
    method: string,
  ) => `<form method="post" action="${action}" class="cas-form" autocomplete="off">
  <label for="code">${label}</label>
  ${input}
  <input type="hidden" name="method" value="${method}">
  ${trustBox(m.trustDays)}
  <input type="hidden" name="proof" value="${escapeHtml(m.proof)}">
  ${stepFields(m.execution, m.renew)}
  <button type="submit">验 证</button>
</form>`;
  // 信任此设备 after a passkey too: the code form's box is carried by the passkey's form (PASSKEY_JS), and
  // without a code form on the page the passkey's form holds the box itself.
  const codeOnPage = m.method === 'totp' || (m.method === 'sms' && !!m.sent);
  const trust = m.trustDays > 0 ? (codeOnPage ? '<input type="hidden" name="trust" value="" data-trust>' : trustBox(m.trustDays)) : '';
  const passkey = m.method === 'passkey' || m.factors.passkey ? passkeyForm(m, '使用通行密钥验证', undefined, trust) : '';
  let sub: string;
  let main: string;
  if (m.method === 'totp') {
    sub = `请打开手机上的身份验证器应用，输入其中显示的 6 位动态验证码${m.factors.passkey ? '，或使用通行密钥验证' : ''}。`;
    main = `${codeForm(
      '动态验证码',
      '<input id="code" name="code" type="text" required maxlength="16" inputmode="numeric" autocomplete="one-time-code" placeholder="6 位数字，或一个恢复码" autofocus>',
      'totp',
    )}
${passkey}
<p class="cas-hint">手机不在身边？可输入绑定时保存的一个恢复码，每个恢复码只能使用一次。恢复码也已用完时，请联系企业管理员重置二次验证。</p>`;
  } else if (m.method === 'passkey') {
    sub = '请使用您的通行密钥完成验证。';
    // The form shows only where the browser has WebAuthn: the way back is said in plain text, as for a lost authenticator.
    const alternatives = m.factors.totp || m.factors.sms ? '请选择下方其他验证方式，或' : '请';
    main = `${passkey}
<p class="cas-hint">无法使用通行密钥（浏览器不支持，或通行密钥不在身边）？${alternatives}联系企业管理员清除通行密钥后重新登录。</p>`;
  } else if (m.sent) {
    sub = `验证码已发送至 ${escapeHtml(m.phone)}，5 分钟内有效。`;
    main = `${codeForm(
      '短信验证码',
      '<input id="code" name="code" type="text" required maxlength="6" inputmode="numeric" pattern="[0-9]{6}" autocomplete="one-time-code" placeholder="请输入 6 位验证码" autofocus>',
      'sms',
    )}
${passkey}`;
  } else {
    sub = `将向账号绑定的手机 ${escapeHtml(m.phone)} 发送短信验证码。`;
    main = `<div class="cas-form">${stepButton(m, '/login/two-factor/method', { method: 'sms' }, '获取短信验证码', true)}</div>
${passkey}`;
  }
  const others = [
    ...(m.method === 'sms' && m.sent ? [stepButton(m, '/login/two-factor/method', { method: 'sms' }, '重新发送短信')] : []),
    ...(m.method !== 'totp' && m.factors.totp ? [stepButton(m, '/login/two-factor/method', { method: 'totp' }, '验证器应用')] : []),
    ...(m.method !== 'sms' && m.factors.sms ? [stepButton(m, '/login/two-factor/method', { method: 'sms' }, '短信验证码')] : []),
  ];
  return layout(
    '二次验证',
    m.casBase,
    `<h1>二次验证</h1>
<p class="cas-card__sub">${escapeHtml(m.name)}，${sub}</p>
${alert(m.error)}
${main}
${others.length ? `<div class="cas-other"><p class="cas-other__title">其他验证方式</p><div class="cas-other__buttons">${others.join('')}</div></div>` : ''}
<div class="cas-links"><a href="${escapeHtml(withService(`${m.casBase}/login`, m.service))}">使用其他账号登录</a></div>`,
  );
}

export interface EnrolPageModel extends StepPageModel {
  /** The otpauth URI's QR code as a data URL. */
  qrDataUrl: string;
  /** The secret in groups of four, for typing into an app. */
  manualKey: string;
}

/** 绑定二次验证: the policy requires two-factor login and the account has no authenticator yet. */
export function twoFactorEnrolPage(m: EnrolPageModel): string {
  return layout(
    '绑定二次验证',
    m.casBase,
    `<h1>绑定二次验证</h1>
<p class="cas-card__sub">${escapeHtml(m.name)}，企业要求登录时进行二次验证。请用身份验证器应用（如 Microsoft Authenticator）扫描二维码或输入密钥，再填写应用显示的 6 位验证码。</p>
${alert(m.error)}
<div class="cas-qr"><img src="${escapeHtml(m.qrDataUrl)}" alt="二次验证二维码" width="180" height="180"></div>
<p class="cas-secret">密钥：<code>${escapeHtml(m.manualKey)}</code></p>
<form method="post" action="${escapeHtml(withService(`${m.casBase}/login/two-factor/enrol`, m.service))}" class="cas-form" autocomplete="off">
  <label for="code">动态验证码</label>
  <input id="code" name="code" type="text" required maxlength="6" inputmode="numeric" pattern="[0-9]{6}" autocomplete="one-time-code" placeholder="请输入 6 位数字" autofocus>
  <input type="hidden" name="proof" value="${escapeHtml(m.proof)}">
  ${stepFields(m.execution, m.renew)}
  <button type="submit">完成绑定</button>
</form>
<div class="cas-links"><a href="${escapeHtml(withService(`${m.casBase}/login`, m.service))}">使用其他账号登录</a></div>`,
  );
}

export interface RecoveryCodesPageModel extends StepPageModel {
  codes: readonly string[];
}

/** 保存恢复码: shown once, right after enrolment; only their hashes are kept. */
export function recoveryCodesPage(m: RecoveryCodesPageModel): string {
  return layout(
    '保存恢复码',
    m.casBase,
    `<h1>保存恢复码</h1>
<p class="cas-card__sub">二次验证已绑定。以下 ${m.codes.length} 个恢复码只显示这一次，请抄写或打印后妥善保存：手机丢失或无法使用验证器时，每个恢复码可代替动态验证码登录一次。</p>
<ol class="cas-codes">${m.codes.map((c) => `<li><code>${escapeHtml(c)}</code></li>`).join('')}</ol>
<form method="post" action="${escapeHtml(withService(`${m.casBase}/login/two-factor/continue`, m.service))}" class="cas-form">
  <input type="hidden" name="proof" value="${escapeHtml(m.proof)}">
  ${stepFields(m.execution, m.renew)}
  <button type="submit">我已保存，继续登录</button>
</form>`,
  );
}

export interface ForgotPasswordPageModel {
  casBase: string;
  service: string | undefined;
  execution: string;
  phone?: string;
  error?: string;
}

/** 忘记密码, first step: the phone the account is bound to. */
export function forgotPasswordPage(m: ForgotPasswordPageModel): string {
  return layout(
    '忘记密码',
    m.casBase,
    `<h1>忘记密码</h1>
<p class="cas-card__sub">请输入账号绑定的手机号，我们将向该手机号发送验证码。</p>
${alert(m.error)}
<form method="post" action="${escapeHtml(withService(`${m.casBase}/forgot-password`, m.service))}" class="cas-form" autocomplete="on">
  <label for="phone">手机号</label>
  <input id="phone" name="phone" type="tel" required maxlength="20" autocomplete="tel" placeholder="请输入手机号" value="${escapeHtml(m.phone ?? '')}" autofocus>
  ${stepFields(m.execution, false)}
  <button type="submit">获取验证码</button>
</form>
<div class="cas-links"><a href="${escapeHtml(withService(`${m.casBase}/login`, m.service))}">返回登录</a></div>`,
  );
}

export interface ResetPasswordPageModel {
  casBase: string;
  service: string | undefined;
  execution: string;
  phone: string;
  /** Set once the SMS code was verified: the form asks for the new password only. */
  proof?: string;
  /** The account's password rules, once the code proved whose phone it is. */
  rules?: string;
  notice?: string;
  error?: string;
}

/** 忘记密码, second step: the SMS code, the new password and its confirmation. */
export function resetPasswordPage(m: ResetPasswordPageModel): string {
  const codeField = m.proof
    ? `<input type="hidden" name="proof" value="${escapeHtml(m.proof)}">`
    : `<label for="code">短信验证码</label>
  <input id="code" name="code" type="text" required maxlength="6" inputmode="numeric" pattern="[0-9]{6}" autocomplete="one-time-code" placeholder="请输入 6 位验证码" autofocus>`;
  return layout(
    '重置密码',
    m.casBase,
    `<h1>重置密码</h1>
<p class="cas-card__sub">${m.proof ? '验证码已验证，请设置新密码。' : '请输入短信验证码并设置新密码。'}</p>
${m.notice ? `<div class="cas-notice" role="status">${escapeHtml(m.notice)}</div>` : ''}
${alert(m.error)}
<form method="post" action="${escapeHtml(withService(`${m.casBase}/forgot-password/reset`, m.service))}" class="cas-form" autocomplete="off">
  <label for="phone">手机号</label>
  <input id="phone" name="phone" type="tel" readonly value="${escapeHtml(m.phone)}">
  ${codeField}
  <label for="password">新密码</label>
  <input id="password" name="password" type="password" required maxlength="64" autocomplete="new-password" placeholder="${escapeHtml(m.rules ?? '6-18位')}，区分大小写"${m.proof ? ' autofocus' : ''}>
  <label for="confirm">确认新密码</label>
  <input id="confirm" name="confirm" type="password" required maxlength="64" autocomplete="new-password" placeholder="请再次输入密码">
  ${stepFields(m.execution, false)}
  <button type="submit">重置密码</button>
</form>
<div class="cas-links">
  <a href="${escapeHtml(withService(`${m.casBase}/forgot-password`, m.service))}">重新获取验证码</a>
  <a href="${escapeHtml(withService(`${m.casBase}/login`, m.service))}">返回登录</a>
</div>`,
  );
}

export const LOGIN_CSS = `*{box-sizing:border-box}
html,body{margin:0;height:100%}
body{font-family:-apple-system,BlinkMacSystemFont,"PingFang SC","Hiragino Sans GB","Microsoft YaHei","Noto Sans CJK SC",sans-serif;color:#1f2937;
background:#eef3fb radial-gradient(circle at 12% 18%,rgba(22,119,255,.16),transparent 42%),radial-gradient(circle at 88% 80%,rgba(19,194,194,.14),transparent 40%);
display:flex;flex-direction:column;min-height:100vh}
.cas{flex:1;display:grid;grid-template-columns:420px 400px;justify-content:center;align-content:center;padding:48px 16px}
.cas-brand{width:420px;min-height:460px;padding:48px 40px;color:#fff;border-radius:16px 0 0 16px;
background:linear-gradient(150deg,#0b3d91 0%,#1677ff 60%,#13c2c2 130%);box-shadow:0 20px 60px rgba(11,61,145,.25)}
.cas-brand__logo{display:flex;align-items:center;gap:12px;font-size:22px;font-weight:700;letter-spacing:.5px}
.cas-brand__logo img{background:#fff;border-radius:10px;padding:4px}
.cas-brand h2{margin:56px 0 12px;font-size:30px;font-weight:700}
.cas-brand p{margin:0 0 32px;opacity:.9;line-height:1.7}
.cas-brand ul{margin:0;padding:0;list-style:none}
.cas-brand li{padding:10px 0 10px 28px;position:relative;opacity:.95}
.cas-brand li::before{content:"";position:absolute;left:0;top:15px;width:14px;height:14px;border-radius:50%;border:3px solid rgba(255,255,255,.85)}
.cas-card{width:400px;min-height:460px;background:#fff;padding:48px 40px;border-radius:0 16px 16px 0;box-shadow:0 20px 60px rgba(15,23,42,.12)}
.cas-card h1{margin:0;font-size:24px}
.cas-card__sub,.cas-card__text{margin:8px 0 24px;color:#6b7280;line-height:1.7}
.cas-alert{margin:0 0 16px;padding:10px 14px;border:1px solid #ffccc7;background:#fff2f0;color:#cf1322;border-radius:8px;font-size:14px}
.cas-form{display:flex;flex-direction:column}
.cas-form label{font-size:14px;color:#374151;margin:4px 0 6px}
.cas-form input{height:42px;padding:0 12px;border:1px solid #d0d7e2;border-radius:8px;font-size:15px;margin-bottom:14px;outline:none;transition:border-color .2s,box-shadow .2s}
.cas-form input:focus{border-color:#1677ff;box-shadow:0 0 0 3px rgba(22,119,255,.15)}
.cas-form button,.cas-button{height:44px;margin-top:8px;border:0;border-radius:8px;background:#1677ff;color:#fff;font-size:16px;cursor:pointer;letter-spacing:2px;text-decoration:none;display:inline-flex;align-items:center;justify-content:center;padding:0 20px}
.cas-form button:hover,.cas-button:hover{background:#4096ff}
.cas-links{display:flex;justify-content:space-between;margin-top:20px;font-size:14px}
.cas-links a{color:#1677ff;text-decoration:none}
.cas-links--buttons{justify-content:flex-start;gap:12px}
.cas-links--buttons .cas-button{color:#fff;margin:0}
.cas-footer{text-align:center;color:#8a94a6;font-size:12px;padding:16px}
.cas-links--center{justify-content:center;margin-top:12px}
.cas-hint{margin:12px 0 0;color:#6b7280;font-size:13px;line-height:1.6}
.cas-notice{margin:0 0 16px;padding:10px 14px;border:1px solid #b7eb8f;background:#f6ffed;color:#237804;border-radius:8px;font-size:14px}
.cas-form input[readonly]{background:#f3f4f6;color:#4b5563}
.cas-qr{display:flex;justify-content:center;margin:0 0 12px}
.cas-qr img{width:180px;height:180px;border:1px solid #e5e7eb;border-radius:8px;padding:6px;background:#fff}
.cas-secret{margin:0 0 16px;font-size:13px;color:#374151;line-height:1.9}
.cas-secret code,.cas-codes code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:14px;background:#f3f4f6;padding:2px 6px;border-radius:4px}
.cas-other{margin-top:20px;text-align:center}
.cas-other__title{display:flex;align-items:center;gap:12px;margin:0 0 12px;color:#8a94a6;font-size:13px}
.cas-other__title::before,.cas-other__title::after{content:"";flex:1;border-top:1px solid #e5e7eb}
.cas-other__buttons{display:flex;justify-content:center;gap:12px;flex-wrap:wrap}
.cas-other__button{min-width:88px;padding:8px 14px;border:1px solid #d0d7e2;border-radius:8px;color:#374151;font-size:14px;text-decoration:none}
.cas-other__button:hover{border-color:#1677ff;color:#1677ff}
.cas-other__button--wecom{color:#0082ef}
.cas-other__button--dingtalk{color:#007fff}
.cas-other__button--feishu{color:#3370ff}
.cas-hint{margin:-6px 0 12px;color:#6b7280;font-size:12px;line-height:1.6}
.cas-other__button--federated{color:#1f2937;max-width:100%;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.cas-table{width:100%;border-collapse:collapse;margin:0 0 16px;font-size:13px;table-layout:fixed}
.cas-table th,.cas-table td{padding:6px 8px;border-bottom:1px solid #e5e7eb;text-align:left;vertical-align:top;word-break:break-all}
.cas-table th{width:36%;color:#6b7280;font-weight:normal}
.cas-choices{list-style:none;margin:0;padding:0;display:flex;flex-direction:column;gap:10px}
.cas-choice{display:block;padding:12px 16px;border:1px solid #d0d7e2;border-radius:8px;color:#1f2937;text-decoration:none}
.cas-choice:hover{border-color:#1677ff;color:#1677ff;background:#f0f6ff}
.cas-inline{display:inline-flex;margin:0}
.cas-inline .cas-other__button{background:#fff;cursor:pointer;font:inherit;font-size:14px}
.cas-form .cas-inline{display:flex;flex-direction:column}
.cas-form .cas-inline button{width:100%}
.cas-form .cas-check,.cas-passkey .cas-check{display:flex;align-items:center;gap:8px;margin:0 0 14px;font-size:14px;color:#374151;cursor:pointer}
.cas-form .cas-check input,.cas-passkey .cas-check input{width:16px;height:16px;margin:0;padding:0;flex:none}
.cas-codes{display:grid;grid-template-columns:repeat(2,minmax(0,1fr));gap:8px 16px;margin:0 0 20px;padding-left:24px}
.cas-passkey{display:flex;flex-direction:column;margin-top:12px}
.cas-passkey[hidden],.cas-passkey__error[hidden]{display:none}
.cas-passkey__button{height:44px;border:1px solid #1677ff;border-radius:8px;background:#fff;color:#1677ff;font-size:15px;cursor:pointer}
.cas-passkey__button:hover{background:#f0f6ff}
.cas-passkey__button:disabled{opacity:.6;cursor:wait}
@media (max-width:860px){.cas{grid-template-columns:minmax(0,420px)}.cas-brand{display:none}.cas-card{border-radius:16px;width:100%;max-width:420px;min-height:0;padding:36px 24px}}
`;

/** The portal logo (same as the web app's favicon). */
export const LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#1f6fff"/><stop offset="1" stop-color="#0f3d8c"/></linearGradient></defs><rect width="64" height="64" rx="14" fill="url(#g)"/><path d="M18 18h24v6H25v5h15v6H25v5h17v6H18z" fill="#fff"/><path d="M44 28h4v4h4v4h-4v4h-4v-4h-4v-4h4z" fill="#ffb020"/></svg>`;

/**
 * The passkey forms' script (no inline script: CSP script-src 'self'): shows them when the browser has
 * WebAuthn, and on the button asks for the ceremony's options (POST, with the form's proof for a second
 * factor), runs it with @simplewebauthn/browser (webauthn.js) and posts the answer with the form.
 */
export const PASSKEY_JS = `(function () {
  'use strict';
  var lib = window.SimpleWebAuthnBrowser;
  if (!lib || !lib.browserSupportsWebAuthn()) return;
  document.querySelectorAll('form[data-passkey]').forEach(function (form) {
    var button = form.querySelector('.cas-passkey__button');
    var error = form.querySelector('.cas-passkey__error');
    var proof = form.querySelector('input[name="proof"]');
    form.hidden = false;
    function fail(text) {
      error.textContent = text;
      error.hidden = false;
      button.disabled = false;
    }
    // Only this site's own messages are shown: a proxy's error page or a dropped connection gets a plain one.
    function shown(text) {
      var err = new Error(text);
      err.shown = true;
      return err;
    }
    button.addEventListener('click', function () {
      button.disabled = true;
      error.hidden = true;
      fetch(form.getAttribute('data-passkey'), {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
        body: JSON.stringify(proof ? { proof: proof.value } : {}),
      })
        .then(
          function (res) {
            return res.json().then(
              function (body) {
                if (!res.ok || !body || !body.data || !body.data[0]) throw shown((body && body.msg) || '通行密钥验证失败，请重试');
                return body.data[0].options;
              },
              function () {
                throw shown('服务暂时不可用，请稍后重试');
              },
            );
          },
          function () {
            throw shown('网络连接失败，请检查网络后重试');
          },
        )
        .then(function (options) {
          return lib.startAuthentication({ optionsJSON: options }).catch(function () {
            throw shown('未完成通行密钥验证，请重试或使用其他方式登录');
          });
        })
        .then(function (credential) {
          form.querySelector('input[name="credential"]').value = JSON.stringify(credential);
          var relay = form.querySelector('input[data-trust]');
          var box = document.getElementById('trust');
          if (relay) relay.value = box && box.checked ? '1' : '';
          form.submit();
        })
        .catch(function (err) {
          fail(err && err.shown ? err.message : '通行密钥验证失败，请重试');
        });
    });
  });
})();
`;
