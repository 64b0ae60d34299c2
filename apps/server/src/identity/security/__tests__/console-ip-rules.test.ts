import { CONSOLE_IP_RULES_MAX, type ConsoleIpRules } from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerFor, createTestApp, secondInstance, type TestApp, testClock, testDialects, tokenFor } from '../../../testing/test-app.js';

const BASE = '/web-api/console/v1';
const XHR = { 'x-requested-with': 'XMLHttpRequest' };
const INSIDE = '203.0.113.7';
const OUTSIDE = '198.51.100.20';

describe.each(testDialects())('控制台访问 (console IP rules) on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let staff: string;
  let rcadmin: string;
  let operator: string;
  const clock = testClock();
  beforeAll(async () => {
    t = await createTestApp(dialect, {}, { clock });
    [admin, staff, rcadmin, operator] = await Promise.all([
      tokenFor(t, 'admin'),
      tokenFor(t, 'staff'),
      tokenFor(t, 'rcadmin'),
      tokenFor(t, 'operator'),
    ]);
  });
  afterAll(() => t.close());

  /** A call as the browser at `from` makes it. */
  const call = (token: string, from: string, method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, remoteAddress: from, headers: { ...XHR, authorization: token }, ...(payload ? { payload } : {}) });
  const rulesOf = async (token: string, from = INSIDE) => {
    const res = await call(token, from, 'GET', `${BASE}/security/ip-rules`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: [ConsoleIpRules] }>().data[0];
  };
  const save = (token: string, from: string, rules: string[]) => call(token, from, 'PUT', `${BASE}/security/ip-rules`, { rules });
  const audit = async (from: string) =>
    (await call(admin, from, 'GET', `${BASE}/audit/page/list?action=security.ip-rules`)).json<{
      data: { rows: { username: string; target: string; outcome: string; detail: string; ip: string }[] }[];
    }>().data[0]?.rows ?? [];

  it('answers no restriction and the caller’s own address before anything is saved', async () => {
    expect(await rulesOf(admin)).toEqual({ rules: [], currentIp: INSIDE });
    expect(await rulesOf(admin, '2001:db8::5')).toEqual({ rules: [], currentIp: '2001:db8::5' });
  });

  it('refuses invalid entries naming the form’s line, more than the maximum, and a list without the caller’s address, writing nothing', async () => {
    const refusals: [string[], string][] = [
      [['10.0.0.0/8', '', '300.1.1.1'], '第 3 行「300.1.1.1」不是有效的 IP 地址或 CIDR 网段'],
      [['10.0.0.0/33'], '第 1 行「10.0.0.0/33」不是有效的 IP 地址或 CIDR 网段'],
      [['2001:db8::/129'], '第 1 行「2001:db8::/129」不是有效的 IP 地址或 CIDR 网段'],
      // ipaddr.js alone would read these lenient forms as addresses.
      [[INSIDE, '10.1'], '第 2 行「10.1」不是有效的 IP 地址或 CIDR 网段'],
      [[INSIDE, '0xa.0.0.1'], '第 2 行「0xa.0.0.1」不是有效的 IP 地址或 CIDR 网段'],
      [[INSIDE, 'fe80::1%eth0'], '第 2 行「fe80::1%eth0」不是有效的 IP 地址或 CIDR 网段'],
      [[INSIDE, '10.0.0.0/8/8'], '第 2 行「10.0.0.0/8/8」不是有效的 IP 地址或 CIDR 网段'],
      [[INSIDE, 'intranet'], '第 2 行「intranet」不是有效的 IP 地址或 CIDR 网段'],
      [[INSIDE, ...Array.from({ length: CONSOLE_IP_RULES_MAX }, (_, i) => `10.0.${i}.0/24`)], '允许访问的 IP 地址最多 50 条'],
      [['10.0.0.0/8', '2001:db8::/32'], `当前 IP 地址（${INSIDE}）不在列表内，保存后将无法访问控制台，请先加入该地址`],
    ];
    for (const [rules, msg] of refusals) {
      const res = await save(admin, INSIDE, rules);
      expect([res.statusCode, res.json()]).toEqual([400, { code: 1, msg }]);
    }
    expect((await rulesOf(admin)).rules).toEqual([]);
    const [failure] = await audit(INSIDE);
    expect(failure).toMatchObject({ username: 'admin', target: '', outcome: 'failure' });
    expect(failure?.detail).toContain('不在列表内');
  });

  it('saves IPv4 and IPv6 networks in canonical form, audits the change, and leaves other enterprises free', async () => {
    const res = await save(admin, INSIDE, [' 10.1.2.3/8 ', '', '2001:DB8:0::/32', INSIDE, `${INSIDE}/32`, '::ffff:192.0.2.0/120']);
    expect([res.statusCode, res.json().msg]).toEqual([200, '控制台访问规则已保存，立即生效']);
    const saved = ['10.0.0.0/8', '2001:db8::/32', INSIDE, '192.0.2.0/24'];
    expect(await rulesOf(admin)).toEqual({ rules: saved, currentIp: INSIDE });
    const [entry] = await audit(INSIDE);
    expect(entry).toMatchObject({ username: 'admin', target: '控制台访问', outcome: 'success', ip: INSIDE });
    expect(entry?.detail).toBe(saved.join('，'));
    expect((await rulesOf(rcadmin, OUTSIDE)).rules).toEqual([]);
  });

  it('lets the enterprise’s accounts use the console only from a listed address, at once after the save', async () => {
    for (const from of ['10.200.3.4', '2001:db8:ffff::1', INSIDE, '::ffff:10.9.9.9', '192.0.2.200']) {
      const res = await call(admin, from, 'GET', `${BASE}/security/policy`);
      expect(res.statusCode, `${from}: ${res.body}`).toBe(200);
    }
    for (const [token, from, url] of [
      [admin, OUTSIDE, `${BASE}/security/policy`],
      [admin, '2001:db9::1', `${BASE}/security/ip-rules`],
      [admin, '203.0.113.8', '/web-api/console/v1/account/page/list'],
      // Any console area and any signed-in guard: 消息中心 needs no authority, identifier management is another prefix.
      [staff, OUTSIDE, `${BASE}/notification/unread-count`],
      [admin, OUTSIDE, '/web-api/identity/v1/prefix/list'],
      [admin, OUTSIDE, '/web-api/cms/v1/category/list'],
    ] as const) {
      const res = await call(token, from, 'GET', url);
      expect([url, res.statusCode, res.json()]).toEqual([
        url,
        403,
        { code: 1, msg: `当前 IP 地址（${from}）不在企业允许访问控制台的范围内` },
      ]);
    }
  });

  it('refuses a console write from outside and records it, and keeps the portal and the central login open', async () => {
    const before = (await call(admin, INSIDE, 'GET', `${BASE}/security/policy`)).json<{ data: { lockMinutes: number }[] }>().data[0];
    const write = await call(admin, OUTSIDE, 'PUT', `${BASE}/security/policy`, { ...before, lockMinutes: 60 });
    expect(write.statusCode).toBe(403);
    expect((await call(admin, INSIDE, 'GET', `${BASE}/security/policy`)).json<{ data: unknown[] }>().data[0]).toEqual(before);
    const refusedWrite = await call(admin, INSIDE, 'GET', `${BASE}/audit/page/list?action=security.policy`);
    expect(refusedWrite.json<{ data: { rows: { outcome: string; ip: string }[] }[] }>().data[0]?.rows[0]).toMatchObject({
      outcome: 'failure',
      ip: OUTSIDE,
    });
    // The signed-in user's own pages and the public site are not the console.
    expect((await call(staff, OUTSIDE, 'GET', '/web/portal/account/password-rules')).statusCode).toBe(200);
    expect((await call(staff, OUTSIDE, 'GET', '/web-api/portal/v1/my-apps')).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/cas/login', remoteAddress: OUTSIDE })).statusCode).toBe(200);
    // An administrator's act on the public site (申请使用) is the console's all the same.
    const subscribe = await call(admin, OUTSIDE, 'POST', '/web-api/portal/v1/applications/no-such-app/subscription', {});
    expect([subscribe.statusCode, subscribe.json().msg]).toEqual([403, `当前 IP 地址（${OUTSIDE}）不在企业允许访问控制台的范围内`]);
  });

  it('holds neither another enterprise nor platform operators', async () => {
    // An IPv4 client of a server listening on `::` is named as people write its address.
    const mapped = await call(admin, `::ffff:${OUTSIDE}`, 'GET', `${BASE}/security/policy`);
    expect([mapped.statusCode, mapped.json().msg]).toEqual([403, `当前 IP 地址（${OUTSIDE}）不在企业允许访问控制台的范围内`]);
    expect((await call(rcadmin, OUTSIDE, 'GET', `${BASE}/security/policy`)).statusCode).toBe(200);
    // The operator's own enterprise lists only INSIDE: the operator is let in from OUTSIDE all the same.
    const listed = await save(operator, INSIDE, [INSIDE]);
    expect(listed.statusCode, listed.body).toBe(200);
    try {
      expect((await call(operator, OUTSIDE, 'GET', `${BASE}/tenant/page/list`)).statusCode).toBe(200);
      expect((await call(operator, OUTSIDE, 'GET', `${BASE}/security/policy`)).statusCode).toBe(200);
    } finally {
      expect((await save(operator, INSIDE, [])).statusCode).toBe(200);
    }
  });

  it('an emptied list lifts the restriction', async () => {
    const res = await save(admin, INSIDE, ['', '  ']);
    expect([res.statusCode, res.json().msg]).toEqual([200, '已清空允许访问的 IP 地址，控制台不限制访问地址']);
    expect(await rulesOf(admin, OUTSIDE)).toEqual({ rules: [], currentIp: OUTSIDE });
    expect((await audit(OUTSIDE))[0]).toMatchObject({ outcome: 'success', detail: '不限制' });
  });

  it('another instance follows a save within 30 seconds', async () => {
    expect((await call(admin, OUTSIDE, 'GET', `${BASE}/security/policy`)).statusCode).toBe(200);
    const other = await secondInstance(t);
    try {
      const res = await other.app.inject({
        method: 'PUT',
        url: `${BASE}/security/ip-rules`,
        remoteAddress: INSIDE,
        headers: { ...XHR, authorization: admin },
        payload: { rules: [INSIDE] },
      });
      expect(res.statusCode, res.body).toBe(200);
    } finally {
      await other.close();
    }
    // This instance answers from its copy of the list until it is 30 seconds old.
    expect((await call(admin, OUTSIDE, 'GET', `${BASE}/security/policy`)).statusCode).toBe(200);
    clock.advance(30_001);
    expect((await call(admin, OUTSIDE, 'GET', `${BASE}/security/policy`)).statusCode).toBe(403);
    expect((await call(admin, INSIDE, 'GET', `${BASE}/security/policy`)).statusCode).toBe(200);
  });

  it('an operator reads an enterprise’s list in 租户管理 and lifts it, which the enterprise’s 操作日志 records', async () => {
    const { enterpriseId } = await callerFor(t, 'admin');
    const listed = await save(admin, INSIDE, [INSIDE, '10.0.0.0/8']);
    expect(listed.statusCode, listed.body).toBe(200);
    const read = await call(operator, OUTSIDE, 'GET', `${BASE}/tenants/${enterpriseId}/ip-rules`);
    expect([read.statusCode, read.json().data]).toEqual([200, [{ rules: [INSIDE, '10.0.0.0/8'] }]]);
    // Only operators: an enterprise administrator may neither read nor lift it this way.
    expect((await call(admin, INSIDE, 'GET', `${BASE}/tenants/${enterpriseId}/ip-rules`)).statusCode).toBe(403);
    expect((await call(admin, INSIDE, 'DELETE', `${BASE}/tenants/${enterpriseId}/ip-rules`)).statusCode).toBe(403);
    const missing = await call(operator, OUTSIDE, 'DELETE', `${BASE}/tenants/999999/ip-rules`);
    expect([missing.statusCode, missing.json().msg]).toEqual([404, '企业不存在']);

    const cleared = await call(operator, OUTSIDE, 'DELETE', `${BASE}/tenants/${enterpriseId}/ip-rules`);
    expect([cleared.statusCode, cleared.json().msg]).toEqual([200, '已清除该企业的控制台访问限制']);
    // At once on this instance: the administrator is back from anywhere.
    expect((await call(admin, OUTSIDE, 'GET', `${BASE}/security/policy`)).statusCode).toBe(200);
    expect(await rulesOf(admin, OUTSIDE)).toEqual({ rules: [], currentIp: OUTSIDE });
    expect((await audit(OUTSIDE))[0]).toMatchObject({ username: 'operator', outcome: 'success', detail: '平台运营清除限制：不限制' });
  });
});
