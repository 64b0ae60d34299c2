import { createHmac } from 'node:crypto';
import type { ChatSourceType } from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../../seed/accounts-seed.js';
import { type ChatStandins, startChatStandins } from '../../../testing/chat-standins.js';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';
import { type BrowserResponse, listen, TestBrowser } from '../../../testing/test-browser.js';
import { consoleClient } from '../../org/__tests__/account-test-client.js';

const HENGYUE = '徐州恒岳重工机械有限公司';
const RUICHI = '常州瑞驰液压科技有限公司';
const LABELS: Record<ChatSourceType, string> = { wecom: '企业微信', dingtalk: '钉钉', feishu: '飞书' };

/** RFC 4648 base32 and RFC 6238 TOTP, independent of the server's libraries (as in two-factor-login.test.ts). */
function base32Decode(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of text.replace(/=+$/, '').toUpperCase()) bits += alphabet.indexOf(char).toString(2).padStart(5, '0');
  const bytes: number[] = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}
function totp(key: Buffer, atMs: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(atMs / 1000 / 30)));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(binary % 1_000_000).padStart(6, '0');
}

describe.each(testDialects())('QR sign-in with 企业微信, 钉钉 and 飞书 at the central login on %s', (dialect) => {
  let standins: ChatStandins;
  let t: TestApp;
  let base: string;
  let service: string;
  let c: ReturnType<typeof consoleClient>;
  let admin: string;
  const sources = new Map<ChatSourceType, number>();

  const enterpriseId = async (name: string) =>
    (await t.database.db.selectFrom('enterprise').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;

  /** A source configured with the stand-in's app (the console's 认证源 does the same through its API). */
  async function addSource(type: ChatSourceType, enterprise: string, status: 'enabled' | 'disabled' = 'enabled'): Promise<number> {
    const config =
      type === 'wecom'
        ? { corpId: standins.wecom.corpId, agentId: standins.wecom.agentId }
        : type === 'dingtalk'
          ? { appKey: standins.dingtalk.appKey, corpId: standins.dingtalk.corpId }
          : { appId: standins.feishu.appId };
    const now = new Date().toISOString();
    const row = await t.database.db
      .insertInto('auth_source')
      .values({
        enterprise_id: await enterpriseId(enterprise),
        type,
        name: `${LABELS[type]}登录`,
        status,
        config: JSON.stringify(config),
        secret: t.app.authSourceRepository.sealSecret(standins.platform(type).secret),
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }
  const setStatus = (id: number, status: 'enabled' | 'disabled') =>
    t.database.db.updateTable('auth_source').set({ status }).where('id', '=', id).execute();

  beforeAll(async () => {
    standins = await startChatStandins();
    t = await createTestApp(dialect, { ...standins.env, LOGIN_ATTEMPTS_PER_MINUTE: '1000' });
    base = await listen(t.app);
    service = `${base}/demo-app/login`;
    c = consoleClient(t);
    admin = await tokenFor(t, 'admin');
    sources.set('wecom', await addSource('wecom', HENGYUE));
    sources.set('dingtalk', await addSource('dingtalk', HENGYUE));
    sources.set('feishu', await addSource('feishu', HENGYUE, 'disabled'));
  });
  afterAll(async () => {
    await t?.close();
    await standins?.close();
  });

  const serviceQuery = () => `?service=${encodeURIComponent(service)}`;
  /** A browser's whole QR sign-in: the button, the platform's page (scanned by `userid`), the callback. */
  async function scanIn(browser: TestBrowser, type: ChatSourceType, userid: string): Promise<BrowserResponse> {
    const platform = standins.platform(type);
    platform.scanner = userid;
    try {
      const hops = await browser.navigate(`/cas/login/${type}${serviceQuery()}`, {}, 3);
      expect(hops.map((h) => h.status).slice(0, 2), hops.at(-1)?.text).toEqual([302, 302]);
      return hops.at(-1)!;
    } finally {
      platform.scanner = null;
    }
  }
  /** The user a service ticket is for (CAS 3.0 JSON validation), or undefined. */
  async function ticketUser(location: string | null): Promise<string | undefined> {
    const ticket = new URL(location ?? '', base).searchParams.get('ticket') ?? '';
    const res = await t.app.inject({
      url: `/cas/p3/serviceValidate?service=${encodeURIComponent(service)}&ticket=${encodeURIComponent(ticket)}&format=JSON`,
    });
    return res.json<{ serviceResponse: { authenticationSuccess?: { user: string } } }>().serviceResponse.authenticationSuccess?.user;
  }
  const accountId = async (username: string) => (await c.row(admin, username))?.id ?? 0;
  const field = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '';
  const post = (browser: TestBrowser, path: string, page: BrowserResponse, fields: Record<string, string> = {}) =>
    browser.fetch(`/cas/login${path}${serviceQuery()}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ proof: field(page.text, 'proof'), execution: field(page.text, 'execution'), ...fields }).toString(),
    });

  it('the login page offers 其他登录方式 for the platforms an active enterprise has enabled, keeping the service', async () => {
    const page = await new TestBrowser(base).fetch(`/cas/login${serviceQuery()}`);
    expect(page.text).toContain('其他登录方式');
    const href = (type: string) => `${base}/cas/login/${type}?service=${encodeURIComponent(service)}`.replace(/&/g, '&amp;');
    expect(page.text).toContain(`href="${href('wecom')}">企业微信</a>`);
    expect(page.text).toContain(`href="${href('dingtalk')}">钉钉</a>`);
    expect(page.text).not.toContain('>飞书</a>');

    await setStatus(sources.get('feishu')!, 'enabled');
    expect((await new TestBrowser(base).fetch('/cas/login')).text).toContain(`href="${base}/cas/login/feishu">飞书</a>`);
    // An enterprise that is disabled offers nothing.
    await t.database.db.updateTable('enterprise').set({ status: 'disabled' }).where('name', '=', HENGYUE).execute();
    try {
      const none = await new TestBrowser(base).fetch('/cas/login');
      expect(none.text).not.toContain('其他登录方式');
      expect((await new TestBrowser(base).fetch('/cas/login/wecom')).status).toBe(404);
    } finally {
      await t.database.db.updateTable('enterprise').set({ status: 'active' }).where('name', '=', HENGYUE).execute();
    }
  });

  it.each(['wecom', 'dingtalk', 'feishu'] as const)(
    '%s: the button goes to the platform’s QR page with the callback address and a state bound to this browser',
    async (type) => {
      const browser = new TestBrowser(base);
      const start = await browser.fetch(`/cas/login/${type}${serviceQuery()}`);
      expect(start.status).toBe(302);
      const qr = new URL(start.location ?? '');
      expect(`${qr.origin}${qr.pathname}`).toBe(
        {
          wecom: `${standins.env.WECOM_LOGIN_URL}/wwlogin/sso/login`,
          dingtalk: `${standins.env.DINGTALK_LOGIN_URL}/oauth2/auth`,
          feishu: `${standins.env.FEISHU_LOGIN_URL}/open-apis/authen/v1/authorize`,
        }[type],
      );
      expect(qr.searchParams.get('redirect_uri')).toBe(`${base}/cas/login/${type}/callback`);
      expect(qr.searchParams.get('state')).toMatch(/^[A-Za-z0-9]{64}$/);
      const cookie = start.headers.getSetCookie().find((line) => line.startsWith('CASCHAT='));
      expect(cookie).toMatch(/; Max-Age=600/);
      expect(cookie).toMatch(/; Path=\/cas\/login/);
      expect(cookie).toMatch(/; HttpOnly/);
      expect(cookie).toMatch(/; SameSite=Lax/);
      // Another start gets another state.
      const again = new URL((await browser.fetch(`/cas/login/${type}`)).location ?? '');
      expect(again.searchParams.get('state')).not.toBe(qr.searchParams.get('state'));
    },
  );

  it.each([
    ['wecom', 'LiNa', 'staff'],
    ['dingtalk', 'LiuYang', 'liuyang'],
    ['feishu', 'LiNa', 'staff'],
  ] as const)(
    '%s: the first sign-in links %s by phone, the next one by the identity; TGC and a service ticket',
    async (type, userid, username) => {
      const browser = new TestBrowser(base);
      const first = await scanIn(browser, type, userid);
      expect(first.url).toContain(`/cas/login/${type}/callback`);
      expect(first.status, first.text).toBe(303);
      expect(first.location).toMatch(new RegExp(`^${service.replace(/[.?/]/g, '\\$&')}\\?ticket=ST-`));
      expect(browser.cookies.get('TGC')).toMatchObject({ httpOnly: true, path: '/cas' });
      expect(await ticketUser(first.location)).toBe(username);
      // The state cookie is spent.
      expect(browser.cookies.has('CASCHAT')).toBe(false);

      // The platform's phone changes: the identity linked at the first sign-in still finds the account.
      const directory = standins.platform(type).directory;
      const phone = directory.person(userid).mobile;
      directory.update(userid, { mobile: '13999999999' });
      try {
        const second = await scanIn(new TestBrowser(base), type, userid);
        expect(second.status, second.text).toBe(303);
        expect(await ticketUser(second.location)).toBe(username);
      } finally {
        directory.update(userid, { mobile: phone });
      }
    },
  );

  it.each([
    ['wecom', 'ZhaoLei', 'no account has the phone'],
    ['wecom', 'QianHui', 'the directory has no phone'],
    ['wecom', 'Outsider', 'not a member of the organisation'],
    ['dingtalk', 'Outsider', 'not a member of the organisation'],
    ['feishu', 'SunQian', 'no account has the phone'],
    ['dingtalk', 'ChenMing', 'the account with the phone is disabled'],
  ] as const)('%s: %s (%s) is told no account is linked, and nothing signs in', async (type, userid, _why) => {
    const browser = new TestBrowser(base);
    const page = await scanIn(browser, type, userid);
    expect(page.status).toBe(403);
    expect(page.text).toContain(`未找到与该${LABELS[type]}账号关联的平台账号，请联系企业管理员`);
    expect(page.text).toContain(`href="${base}/cas/login?service=${encodeURIComponent(service)}">返回账号登录</a>`);
    expect(browser.cookies.has('TGC')).toBe(false);
    const logged = await t.database.db
      .selectFrom('login_log')
      .select(['result', 'reason', 'enterprise_id'])
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(logged).toEqual({ result: 'failure', reason: 'unknown-account', enterprise_id: await enterpriseId(HENGYUE) });
  });

  it('a tampered, missing or another browser’s state is refused before the code is used', async () => {
    const browser = new TestBrowser(base);
    const start = await browser.fetch(`/cas/login/wecom${serviceQuery()}`);
    const state = new URL(start.location ?? '').searchParams.get('state') ?? '';
    const code = standins.wecom.codeFor('LiNa');
    const callback = (who: TestBrowser, query: string) => who.fetch(`/cas/login/wecom/callback${query}`);
    const cookie = browser.cookies.get('CASCHAT');

    const tampered = `${state.slice(0, -1)}${state.endsWith('a') ? 'b' : 'a'}`;
    const refused = await callback(browser, `?code=${code}&state=${tampered}&appid=${standins.wecom.corpId}`);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('企业微信扫码登录已过期或无效，请重新扫码登录');
    // The login form again, for the same service.
    expect(refused.text).toContain(`action="${base}/cas/login?service=${encodeURIComponent(service)}"`);
    expect(browser.cookies.has('TGC')).toBe(false);

    // Each refusal spends the pending sign-in; put this browser's cookie back to try the next.
    for (const query of [`?code=${code}`, `?code=${code}&state=`]) {
      browser.cookies.set('CASCHAT', cookie!);
      expect((await callback(browser, query)).status).toBe(400);
    }
    // Another browser (no cookie) with this browser's genuine state.
    const other = new TestBrowser(base);
    expect((await callback(other, `?code=${code}&state=${state}`)).status).toBe(400);
    expect(other.cookies.has('TGC')).toBe(false);
    // A cookie of a sign-in with another platform does not count for this one.
    const dingtalk = new TestBrowser(base);
    await dingtalk.fetch('/cas/login/dingtalk');
    expect((await callback(dingtalk, `?code=${code}&state=${state}`)).status).toBe(400);

    // None of that reached the platform: the code still signs in, once, with the right state and cookie.
    browser.cookies.set('CASCHAT', cookie!);
    const done = await callback(browser, `?code=${code}&state=${state}`);
    expect(done.status, done.text).toBe(303);
    expect(await ticketUser(done.location)).toBe('staff');
    expect((await callback(browser, `?code=${code}&state=${state}`)).status).toBe(400);
  });

  it('a refused authorisation, a source disabled meanwhile and a platform error are explained on the login form', async () => {
    const denied = new TestBrowser(base);
    const state = new URL((await denied.fetch('/cas/login/feishu')).location ?? '').searchParams.get('state');
    const refusal = await denied.fetch(`/cas/login/feishu/callback?error=access_denied&state=${state}`);
    expect(refusal.status).toBe(400);
    expect(refusal.text).toContain('未完成飞书授权，请重新扫码登录');

    const late = new TestBrowser(base);
    const lateState = new URL((await late.fetch('/cas/login/feishu')).location ?? '').searchParams.get('state');
    await setStatus(sources.get('feishu')!, 'disabled');
    try {
      const answer = await late.fetch(`/cas/login/feishu/callback?code=${standins.feishu.codeFor('LiNa')}&state=${lateState}`);
      expect(answer.status).toBe(403);
      expect(answer.text).toContain('该企业已停用飞书登录，请使用账号密码登录');
    } finally {
      await setStatus(sources.get('feishu')!, 'enabled');
    }

    const stale = new TestBrowser(base);
    const staleState = new URL((await stale.fetch('/cas/login/wecom')).location ?? '').searchParams.get('state');
    const failed = await stale.fetch(`/cas/login/wecom/callback?code=not-a-code&state=${staleState}`);
    expect(failed.status).toBe(502);
    expect(failed.text).toContain('企业微信登录失败：企业微信返回错误：40029 invalid code');
    expect(stale.cookies.has('TGC')).toBe(false);
  });

  it('a disabled or locked account is refused, and an initial password must still be changed first', async () => {
    const staff = await accountId('staff');
    expect((await c.call(admin, 'PUT', `/account/${staff}/status`, { status: 'disabled' })).statusCode).toBe(200);
    try {
      const browser = new TestBrowser(base);
      const refused = await scanIn(browser, 'wecom', 'LiNa');
      expect(refused.status).toBe(403);
      expect(refused.text).toContain('账号已停用，请联系企业管理员');
      expect(browser.cookies.has('TGC')).toBe(false);
    } finally {
      await c.call(admin, 'PUT', `/account/${staff}/status`, { status: 'active' });
    }

    // Wrong passwords lock the account; the scan does not get past the lock.
    for (let i = 0; i < 10; i++) {
      const [answer] = await new TestBrowser(base).casLogin('staff', 'Wrong@2026', service);
      if (answer?.status === 423) break;
    }
    try {
      const locked = await scanIn(new TestBrowser(base), 'wecom', 'LiNa');
      expect(locked.status).toBe(423);
      expect(locked.text).toMatch(/账号已锁定，请 \d+ 分钟后再试/);
    } finally {
      expect((await c.call(admin, 'POST', `/account/${staff}/unlock`)).statusCode).toBe(200);
    }

    const wangfang = await accountId('wangfang');
    const reset = await c.call(admin, 'POST', `/account/${wangfang}/password`, {
      passwordMode: 'manual',
      password: await c.encoded('Initial@2026'),
    });
    expect(reset.statusCode, reset.body).toBe(200);
    const browser = new TestBrowser(base);
    const change = await scanIn(browser, 'wecom', 'WangFang');
    expect(change.status).toBe(200);
    expect(change.text).toContain('<h1>修改初始密码</h1>');
    expect(browser.cookies.has('TGC')).toBe(false);
    const done = await post(browser, '/password', change, {
      change: field(change.text, 'change'),
      password: 'Changed@2026',
      confirm: 'Changed@2026',
    });
    expect(done.status, done.text).toBe(303);
    expect(await ticketUser(done.location)).toBe('wangfang');
  });

  it('仅允许通过企业身份提供方登录 holds for 扫码 as for a password; 企业管理员 keep it (break glass)', async () => {
    const now = new Date().toISOString();
    const config = {
      issuer: 'https://idp.hengyue-hi.cn',
      clientId: 'portal',
      scopes: 'openid',
      mapping: { username: 'preferred_username', name: 'name', email: 'email', phone: 'phone_number' },
      domains: [],
      jit: false,
      groupIds: [],
      enforce: true,
    };
    const forced = await t.database.db
      .insertInto('auth_source')
      .values({
        enterprise_id: await enterpriseId(HENGYUE),
        type: 'oidc',
        name: '恒岳统一身份',
        status: 'enabled',
        config: JSON.stringify(config),
        secret: t.app.authSourceRepository.sealSecret('client-secret'),
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    try {
      const browser = new TestBrowser(base);
      const refused = await scanIn(browser, 'wecom', 'LiNa');
      expect(refused.status).toBe(403);
      expect(refused.text).toContain('企业要求通过企业身份提供方登录，请点击“恒岳统一身份”登录');
      expect(browser.cookies.has('TGC')).toBe(false);
    } finally {
      await t.database.db.deleteFrom('auth_source').where('id', '=', forced.id).execute();
    }
  });

  it('two-factor login applies: enrolment at the first scan, the code at the next', async () => {
    const policy = (twoFactor: 'off' | 'all') => c.call(admin, 'PUT', '/security/policy', { ...t.app.config.securityDefaults, twoFactor });
    expect((await policy('all')).statusCode).toBe(200);
    try {
      const browser = new TestBrowser(base);
      const enrol = await scanIn(browser, 'dingtalk', 'LiuYang');
      expect(enrol.status).toBe(200);
      expect(enrol.text).toContain('<h1>绑定二次验证</h1>');
      expect(browser.cookies.has('TGC')).toBe(false);
      const key = base32Decode((/密钥：<code>([A-Z2-7 ]+)<\/code>/.exec(enrol.text)?.[1] ?? '').replace(/ /g, ''));
      const codes = await post(browser, '/two-factor/enrol', enrol, { code: totp(key, Date.now()) });
      expect(codes.text).toContain('<h1>保存恢复码</h1>');
      const done = await post(browser, '/two-factor/continue', codes);
      expect(done.status).toBe(303);
      expect(await ticketUser(done.location)).toBe('liuyang');

      const next = new TestBrowser(base);
      const ask = await scanIn(next, 'dingtalk', 'LiuYang');
      expect(ask.status).toBe(200);
      expect(ask.text).toContain('<h1>二次验证</h1>');
      expect(next.cookies.has('TGC')).toBe(false);
      const valid = [-30_000, 0, 30_000, 60_000].map((d) => totp(key, Date.now() + d));
      const wrong = await post(next, '/two-factor', ask, { code: ['000000', '111111', '222222'].find((x) => !valid.includes(x)) ?? '' });
      expect(wrong.status).toBe(401);
      const ok = await post(next, '/two-factor', wrong, { code: totp(key, Date.now() + 30_000) });
      expect(ok.status, ok.text).toBe(303);
      expect(await ticketUser(ok.location)).toBe('liuyang');
      expect(next.cookies.has('TGC')).toBe(true);
    } finally {
      await policy('off');
    }
  });

  it('with several enterprises on a platform, 选择企业 comes first and each choice goes to that enterprise’s app', async () => {
    const ruichi = await addSource('wecom', RUICHI);
    try {
      const browser = new TestBrowser(base);
      const choose = await browser.fetch(`/cas/login/wecom${serviceQuery()}`);
      expect(choose.status).toBe(200);
      expect(choose.text).toContain('<h1>选择企业</h1>');
      const links = [...choose.text.matchAll(/<a class="cas-choice" href="([^"]+)">([^<]+)<\/a>/g)].map((m) => [
        (m[1] ?? '').replace(/&amp;/g, '&'),
        m[2],
      ]);
      expect(links.map(([, name]) => name).sort()).toEqual([HENGYUE, RUICHI].sort());
      const hengyue = links.find(([, name]) => name === HENGYUE)?.[0] ?? '';
      expect(hengyue).toBe(`${base}/cas/login/wecom?source=${sources.get('wecom')}&service=${encodeURIComponent(service)}`);
      expect(browser.cookies.has('CASCHAT')).toBe(false);

      standins.wecom.scanner = 'LiNa';
      try {
        const hops = await browser.navigate(hengyue, {}, 3);
        expect(hops.at(-1)?.status).toBe(303);
        expect(await ticketUser(hops.at(-1)?.location ?? null)).toBe('staff');
      } finally {
        standins.wecom.scanner = null;
      }
      // An id that is not an enabled source of this platform is not offered.
      for (const id of [String(sources.get('dingtalk')), '999999', 'x']) {
        const none = await browser.fetch(`/cas/login/wecom?source=${id}`);
        expect(none.status).toBe(404);
        expect(none.text).toContain('未找到启用企业微信登录的企业');
      }
    } finally {
      await t.database.db.deleteFrom('auth_source').where('id', '=', ruichi).execute();
    }
  });

  it('an unregistered service is refused before anything else', async () => {
    const answer = await new TestBrowser(base).fetch(`/cas/login/wecom?service=${encodeURIComponent('https://evil.example.com/')}`);
    expect(answer.status).toBe(403);
    expect(answer.text).toContain('未授权的服务');
    expect(answer.headers.getSetCookie().some((line) => line.startsWith('CASCHAT='))).toBe(false);
  });

  it('a password still signs in accounts that have a linked identity', async () => {
    const [done] = await new TestBrowser(base).casLogin('staff', DEMO_PASSWORD, service);
    expect(done?.status).toBe(303);
  });
});
