import type { LoginLogRow } from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../../seed/accounts-seed.js';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';
import { listen, TestBrowser } from '../../../testing/test-browser.js';

const WINDOWS_CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const ANDROID_WECHAT =
  'Mozilla/5.0 (Linux; Android 13; V2148A) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/98.0 Mobile Safari/537.36 MicroMessenger/8.0.40';

/** The CAS login form, posted by a browser that names itself. */
async function casLogin(base: string, username: string, password: string, userAgent: string) {
  const browser = new TestBrowser(base);
  const headers = { 'user-agent': userAgent };
  const form = await browser.fetch('/cas/login', { headers });
  const execution = /name="execution" value="([^"]+)"/.exec(form.text)?.[1] ?? '';
  return browser.fetch('/cas/login', {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username, password, execution }).toString(),
  });
}

describe.each(testDialects())('登录日志 on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let rcadmin: string;
  let operator: string;
  let oa: number;
  beforeAll(async () => {
    t = await createTestApp(dialect, { LOGIN_ATTEMPTS_PER_MINUTE: '1000' });
    const base = await listen(t.app);
    admin = await tokenFor(t, 'admin');
    rcadmin = await tokenFor(t, 'rcadmin');
    operator = await tokenFor(t, 'operator');
    // Real attempts at the central login.
    expect((await casLogin(base, 'wangfang', 'wrong-password', WINDOWS_CHROME)).status).toBe(401);
    expect((await casLogin(base, 'wangfang', DEMO_PASSWORD, WINDOWS_CHROME)).status).toBe(200);
    expect((await casLogin(base, 'chenming', DEMO_PASSWORD, ANDROID_WECHAT)).status).toBe(403);
    expect((await casLogin(base, 'nobody-here', DEMO_PASSWORD, ANDROID_WECHAT)).status).toBe(401);
    expect((await casLogin(base, 'service', DEMO_PASSWORD, ANDROID_WECHAT)).status).toBe(200);

    // Attempts at known times and for an application (the CAS writes these as it signs on to one).
    const db = t.database.db;
    const ids = new Map((await db.selectFrom('account').select(['id', 'username', 'enterprise_id']).execute()).map((a) => [a.username, a]));
    const hengyue = ids.get('admin')!.enterprise_id!;
    const now = new Date().toISOString();
    oa = (
      await db
        .insertInto('sso_application')
        .values({ enterprise_id: hengyue, name: 'OA 办公', created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const attempt = (username: string, at: string, result: 'success' | 'failure', reason = '', applicationId: number | null = null) => ({
      enterprise_id: hengyue,
      account_id: ids.get(username)!.id,
      username,
      name: username === 'zhoujie' ? '周杰' : '刘洋',
      result,
      reason,
      application_id: applicationId,
      application_name: applicationId ? 'OA 办公' : '',
      ip: '10.1.2.3',
      user_agent: WINDOWS_CHROME,
      created_at: at,
    });
    await db
      .insertInto('login_log')
      .values([
        // 2026-03-01 09:00:00 and 10:30:00 China time.
        attempt('zhoujie', '2026-03-01T01:00:00.000Z', 'success', '', oa),
        attempt('zhoujie', '2026-03-01T02:30:00.000Z', 'failure', 'not-authorized', oa),
        attempt('liuyang', '2026-03-02T02:30:00.000Z', 'failure', 'two-factor-failed'),
      ])
      .execute();
  });
  afterAll(() => t.close());

  const call = (token: string, url: string) =>
    t.app.inject({ url: `/web-api/console/v1${url}`, headers: { 'x-requested-with': 'XMLHttpRequest', authorization: token } });
  const list = async (token: string, query = '') => {
    const res = await call(token, `/login-log/page/list?limit=100${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: { total: number; rows: LoginLogRow[] }[] }>().data[0]!;
  };

  it('lists every attempt of the enterprise’s accounts, newest first, with its reason, 浏览器 and 系统', async () => {
    const { rows, total } = await list(admin);
    expect(total).toBe(rows.length);
    const wangfang = rows.filter((r) => r.username === 'wangfang');
    expect(wangfang.map((r) => [r.result, r.reason, r.reasonText])).toEqual([
      ['success', '', ''],
      ['failure', 'bad-password', '密码错误'],
    ]);
    expect(wangfang[0]).toMatchObject({ name: '王芳', ip: '127.0.0.1', browser: 'Chrome 120', os: 'Windows 10', applicationName: '' });
    expect(rows.find((r) => r.username === 'chenming')).toMatchObject({
      result: 'failure',
      reasonText: '账号停用',
      browser: 'WeChat 8',
      os: 'Android 13',
      enterpriseName: '徐州恒岳重工机械有限公司',
    });
    expect(rows.find((r) => r.username === 'zhoujie' && r.result === 'failure')).toMatchObject({
      reasonText: '无权访问应用',
      applicationName: 'OA 办公',
      createdAt: '2026-03-01 10:30:00',
    });
    const times = rows.map((r) => r.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    // Neither another enterprise's accounts nor names that matched no account.
    expect(rows.map((r) => r.username)).not.toContain('service');
    expect(rows.map((r) => r.username)).not.toContain('nobody-here');
    expect((await list(rcadmin)).rows.map((r) => r.username)).toEqual(['service']);
  });

  it('operators (audit:all-enterprises) read every enterprise’s attempts and those that named no account', async () => {
    const { rows } = await list(operator);
    expect(rows.find((r) => r.username === 'nobody-here')).toMatchObject({ reasonText: '账号不存在', name: '', enterpriseName: '' });
    expect(rows.find((r) => r.username === 'service')?.enterpriseName).toBe('常州瑞驰液压科技有限公司');
    expect(rows.some((r) => r.username === 'wangfang')).toBe(true);
  });

  it('filters by time, account, result, reason and application', async () => {
    const q = (params: Record<string, string>) => `&${new URLSearchParams(params).toString()}`;
    const names = async (params: Record<string, string>) => (await list(admin, q(params))).rows.map((r) => `${r.username}:${r.result}`);
    expect(await names({ filterStartTime: '2026-03-01 00:00:00', filterEndTime: '2026-03-01 23:59:59' })).toEqual([
      'zhoujie:failure',
      'zhoujie:success',
    ]);
    // Both bounds included, to the second.
    expect(await names({ filterStartTime: '2026-03-01 10:30:00', filterEndTime: '2026-03-02 10:30:00' })).toEqual([
      'liuyang:failure',
      'zhoujie:failure',
    ]);
    expect(await names({ filterEndTime: '2026-03-01 09:00:00' })).toEqual(['zhoujie:success']);
    expect(await names({ username: '周杰' })).toEqual(['zhoujie:failure', 'zhoujie:success']);
    expect(await names({ username: 'wangfang', result: 'failure' })).toEqual(['wangfang:failure']);
    expect(await names({ reason: 'two-factor-failed' })).toEqual(['liuyang:failure']);
    expect(await names({ applicationId: String(oa) })).toEqual(['zhoujie:failure', 'zhoujie:success']);
    expect((await list(admin, q({ applicationId: '0' }))).rows.every((r) => r.applicationName === '')).toBe(true);
    // Another enterprise's application filters to nothing of theirs.
    expect((await list(rcadmin, q({ applicationId: String(oa) }))).total).toBe(0);

    for (const [params, msg] of [
      [{ filterStartTime: '2026-03-01' }, '开始时间格式应为 yyyy-MM-dd HH:mm:ss'],
      [{ filterEndTime: '2026-02-30 00:00:00' }, '结束时间格式应为 yyyy-MM-dd HH:mm:ss'],
      [{ filterStartTime: '2026-03-02 00:00:00', filterEndTime: '2026-03-01 00:00:00' }, '开始时间不能晚于结束时间'],
    ] as const) {
      const res = await call(admin, `/login-log/page/list${q(params).replace('&', '?')}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 1, msg });
    }
    expect((await call(admin, '/login-log/page/list?result=maybe')).statusCode).toBe(400);
  });

  it('offers the enterprise’s applications as the 应用 filter', async () => {
    const res = await call(admin, '/login-log/applications');
    // With the demo applications of 恒岳 (seeded, its OpenID Connect and SAML ones and the platform application it subscribed to included), by name.
    const offered = res.json<{ data: { id: number; name: string }[] }>().data;
    expect(offered.map((a) => a.name)).toEqual([
      'OA 办公',
      '恒岳供应链协同',
      '恒岳移动巡检',
      '恒岳设备运维平台',
      '恒岳质量追溯系统',
      '智能运维',
    ]);
    expect(offered[0]).toEqual({ id: oa, name: 'OA 办公' });
    expect((await call(rcadmin, '/login-log/applications')).json<{ data: unknown[] }>().data).toEqual([]);
  });

  it('exports the filtered attempts as a CSV file, audited', async () => {
    const res = await call(admin, `/login-log/export?username=${encodeURIComponent('周杰')}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(decodeURIComponent(String(res.headers['content-disposition']))).toMatch(
      /^attachment; filename=login-log-\d{14}\.csv; filename\*=UTF-8''登录日志-\d{14}\.csv$/,
    );
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter(Boolean);
    expect(lines).toEqual([
      '"时间","账号","姓名","企业","结果","原因","应用","IP","浏览器","系统"',
      '"2026-03-01 10:30:00","zhoujie","周杰","徐州恒岳重工机械有限公司","失败","无权访问应用","OA 办公","10.1.2.3","Chrome 120","Windows 10"',
      '"2026-03-01 09:00:00","zhoujie","周杰","徐州恒岳重工机械有限公司","成功","","OA 办公","10.1.2.3","Chrome 120","Windows 10"',
    ]);
    const other = await call(rcadmin, '/login-log/export');
    expect(other.body).toContain('"service"');
    expect(other.body).not.toContain('zhoujie');

    const audit = await call(admin, '/audit/page/list?action=login-log.export');
    expect(audit.json<{ data: { rows: { username: string; target: string }[] }[] }>().data[0]?.rows[0]).toMatchObject({
      username: 'admin',
      target: '周杰',
    });
  });

  it('needs the security:login-log authority', async () => {
    const staff = await tokenFor(t, 'staff');
    for (const url of ['/login-log/page/list', '/login-log/export', '/login-log/applications']) {
      expect((await call(staff, url)).statusCode).toBe(403);
      expect((await call('', url)).statusCode).toBe(401);
    }
  });
});
