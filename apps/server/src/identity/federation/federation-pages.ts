import escapeHtml from 'escape-html';
import { layout } from '../cas/login-page.js';
import type { MappedAccount } from './federation-service.js';

/** What 测试连接's popup shows and posts back to the console that opened it. */
export type FederationTestOutcome =
  { ok: true; subject: string; claims: Record<string, unknown>; mapped: MappedAccount } | { ok: false; error: string };

const MAPPED_LABELS: Record<keyof MappedAccount, string> = { username: '用户名', name: '姓名', email: '邮箱', phone: '手机号' };

const claimValue = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/**
 * 测试连接's popup after the provider's answer: the claims received and the account fields they map
 * to (no one is signed in). The result also goes to the console's window (postMessage to the portal's
 * origin only) by FEDERATION_TEST_JS: the CSP allows no inline script, so the data rides in a JSON block.
 */
export function federationTestPage(casBase: string, portalBase: string, outcome: FederationTestOutcome): string {
  const data = JSON.stringify({ type: 'federation-test', ...outcome }).replace(/</g, '\\u003c');
  const rows = (pairs: [string, string][]) =>
    pairs.map(([k, v]) => `<tr><th scope="row">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`).join('');
  const body = outcome.ok
    ? `<h1>测试登录成功</h1>
<p class="cas-card__text">已从企业身份提供方收到以下信息（未登录任何账号）。</p>
<h2 class="cas-other__title">映射的账号字段</h2>
<table class="cas-table"><tbody>${rows([['外部标识（sub）', outcome.subject], ...Object.entries(outcome.mapped).map(([k, v]) => [MAPPED_LABELS[k as keyof MappedAccount], v || '（无）'] as [string, string])])}</tbody></table>
<h2 class="cas-other__title">收到的声明</h2>
<table class="cas-table"><tbody>${rows(Object.entries(outcome.claims).map(([k, v]) => [k, claimValue(v)]))}</tbody></table>`
    : `<h1>测试登录失败</h1>
<div class="cas-alert" role="alert">${escapeHtml(outcome.error)}</div>`;
  return layout(
    '测试登录',
    casBase,
    `${body}
<script type="application/json" id="federation-test-result" data-origin="${escapeHtml(new URL(portalBase).origin)}">${data}</script>
<script src="${escapeHtml(casBase)}/assets/federation-test.js" defer></script>`,
  );
}

/** Posts the popup's result to the console window that opened it, at the portal's origin only. */
export const FEDERATION_TEST_JS = `(function () {
  var node = document.getElementById('federation-test-result');
  if (!node || !window.opener) return;
  try {
    window.opener.postMessage(JSON.parse(node.textContent || '{}'), node.getAttribute('data-origin'));
  } catch (e) {
    /* the console was closed or navigated away */
  }
})();
`;
