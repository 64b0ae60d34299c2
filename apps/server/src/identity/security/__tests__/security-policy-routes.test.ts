import type { SecurityPolicy } from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../platform/config.js';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';
import { consoleClient } from '../../org/__tests__/account-test-client.js';

const XHR = { 'x-requested-with': 'XMLHttpRequest' };

const strict: SecurityPolicy = {
  passwordMinLength: 10,
  passwordClasses: ['lower', 'upper', 'digit', 'symbol'],
  passwordNoUsername: true,
  passwordHistory: 5,
  passwordExpiryDays: 90,
  lockMaxFailures: 3,
  lockMinutes: 30,
  sessionIdleMinutes: 30,
  sessionMaxHours: 4,
  sessionMaxConcurrent: 0,
  sessionOverflow: 'end-oldest',
  twoFactor: 'admins',
  auditRetentionDays: 365,
  twoFactorRoles: [],
  twoFactorMethods: ['totp', 'passkey'],
  trustDeviceDays: 0,
};

describe('platform security defaults from the environment', () => {
  it('follow LOGIN_*, CAS_TGT_* and the PASSWORD_* keys, and refuse a policy no password can meet', () => {
    expect(loadConfig({}).securityDefaults).toEqual({
      passwordMinLength: 6,
      passwordClasses: [],
      passwordNoUsername: false,
      passwordHistory: 0,
      passwordExpiryDays: 0,
      lockMaxFailures: 5,
      lockMinutes: 15,
      sessionIdleMinutes: 120,
      sessionMaxHours: 8,
      sessionMaxConcurrent: 0,
      sessionOverflow: 'end-oldest',
      twoFactor: 'off',
      auditRetentionDays: 180,
      twoFactorRoles: [],
      twoFactorMethods: ['totp', 'passkey'],
      trustDeviceDays: 0,
    });
    expect(
      loadConfig({ PASSWORD_MIN_LENGTH: '8', PASSWORD_CLASSES: 'upper,digit', PASSWORD_NO_USERNAME: '1', TWO_FACTOR: 'all' })
        .securityDefaults,
    ).toMatchObject({ passwordMinLength: 8, passwordClasses: ['upper', 'digit'], passwordNoUsername: true, twoFactor: 'all' });
    expect(loadConfig({ CAS_MAX_SESSIONS: '3', CAS_SESSION_OVERFLOW: 'refuse' }).securityDefaults).toMatchObject({
      sessionMaxConcurrent: 3,
      sessionOverflow: 'refuse',
    });
    expect(() => loadConfig({ CAS_SESSION_OVERFLOW: 'ask' })).toThrow(/CAS_SESSION_OVERFLOW/);
    expect(() => loadConfig({ CAS_MAX_SESSIONS: '21' })).toThrow(/同时在线会话数上限/);
    expect(() => loadConfig({ PASSWORD_MIN_LENGTH: '19' })).toThrow(/PASSWORD_\*.*密码最短长度不能超过18位/);
    expect(() => loadConfig({ PASSWORD_CLASSES: 'emoji' })).toThrow(/PASSWORD_CLASSES/);
    expect(() => loadConfig({ TWO_FACTOR: 'sometimes' })).toThrow(/TWO_FACTOR/);
    // 按角色 names an enterprise's roles: no platform default can.
    expect(() => loadConfig({ TWO_FACTOR: 'roles' })).toThrow(/TWO_FACTOR/);
    expect(loadConfig({ TWO_FACTOR_METHODS: 'sms, totp', TRUST_DEVICE_DAYS: '30' }).securityDefaults).toMatchObject({
      twoFactorMethods: ['totp', 'sms'],
      trustDeviceDays: 30,
    });
    expect(() => loadConfig({ TWO_FACTOR_METHODS: 'email' })).toThrow(/TWO_FACTOR_METHODS/);
    expect(() => loadConfig({ TRUST_DEVICE_DAYS: '91' })).toThrow(/信任此设备天数/);
    expect(() => loadConfig({ LOGIN_MAX_FAILURES: '1' })).toThrow(/登录失败锁定次数/);
  });
});

describe.each(testDialects())('安全设置 API on %s', (dialect) => {
  let t: TestApp;
  let c: ReturnType<typeof consoleClient>;
  let admin: string;
  let rcadmin: string;
  let staff: string;
  beforeAll(async () => {
    t = await createTestApp(dialect, { PASSWORD_MIN_LENGTH: '8', LOGIN_MAX_FAILURES: '4' });
    c = consoleClient(t);
    [admin, rcadmin, staff] = await Promise.all([tokenFor(t, 'admin'), tokenFor(t, 'rcadmin'), tokenFor(t, 'staff')]);
  });
  afterAll(() => t.close());

  const policyOf = (token: string) => c.data<SecurityPolicy>(c.call(token, 'GET', '/security/policy'));

  it('answers the platform defaults to an enterprise that saved none', async () => {
    expect(await policyOf(admin)).toEqual({ ...t.app.config.securityDefaults, passwordMinLength: 8, lockMaxFailures: 4 });
  });

  it('saves a policy, answers it back, audits it, and leaves other enterprises on their own', async () => {
    const res = await c.call(admin, 'PUT', '/security/policy', strict);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().msg).toBe('安全设置已保存，下次登录起生效');
    expect(await policyOf(admin)).toEqual(strict);
    // 瑞驰 still follows the platform, and its own save touches nothing of 恒岳's.
    expect((await policyOf(rcadmin)).passwordMinLength).toBe(8);
    const theirs = await c.call(rcadmin, 'PUT', '/security/policy', { ...strict, passwordMinLength: 12, twoFactor: 'off' });
    expect(theirs.statusCode, theirs.body).toBe(200);
    expect(await policyOf(admin)).toEqual(strict);
    expect((await policyOf(rcadmin)).passwordMinLength).toBe(12);
    const [entry] = await c.audit(admin, 'security.policy');
    expect(entry).toMatchObject({ username: 'admin', target: '安全设置', outcome: 'success' });
    expect(entry?.detail).toContain('密码最短10位');
    // Each enterprise's 操作日志 shows its own change only.
    expect((await c.audit(admin, 'security.policy')).map((e) => e.username)).toEqual(['admin']);
  });

  it('refuses a policy no password can meet and numbers out of range, in Chinese, writing nothing', async () => {
    const before = await policyOf(admin);
    const refusals: [Partial<SecurityPolicy>, string][] = [
      [{ passwordMinLength: 19 }, '密码最短长度不能超过18位（密码最长18位，否则任何密码都无法满足）'],
      [{ passwordMinLength: 5 }, '密码最短长度不能少于6位'],
      [{ passwordHistory: 25 }, '禁止重复使用的历史密码个数须为 0-24 之间的整数'],
      [{ passwordExpiryDays: 4000 }, '密码有效期（天）须为 0-3650 之间的整数'],
      [{ lockMaxFailures: 2 }, '登录失败锁定次数须为 3-20 之间的整数'],
      [{ lockMinutes: 2000 }, '锁定时长（分钟）须为 1-1440 之间的整数'],
      [{ sessionIdleMinutes: 600, sessionMaxHours: 8 }, '会话空闲超时不能超过会话最长时长'],
    ];
    for (const [patch, msg] of refusals) {
      const res = await c.call(admin, 'PUT', '/security/policy', { ...strict, ...patch });
      expect([res.statusCode, res.json()]).toEqual([400, { code: 1, msg }]);
    }
    const unknown = await c.call(admin, 'PUT', '/security/policy', { ...strict, twoFactor: 'sometimes' });
    expect(unknown.statusCode).toBe(400);
    expect(await policyOf(admin)).toEqual(before);
    expect((await c.audit(admin, 'security.policy'))[0]?.outcome).toBe('failure');
  });

  it('tells every signed-in account its enterprise’s password rules', async () => {
    const rules = await t.app.inject({ url: '/web/portal/account/password-rules', headers: { authorization: staff } });
    expect(rules.json<{ data: unknown[] }>().data[0]).toEqual({
      passwordMinLength: 10,
      passwordClasses: ['lower', 'upper', 'digit', 'symbol'],
      passwordNoUsername: true,
      description: '10-18位，须包含小写字母、大写字母、数字、特殊字符，不能包含账号',
    });
    const platform = await t.app.inject({
      url: '/web/portal/account/password-rules',
      headers: { authorization: await tokenFor(t, 'sunhao') },
    });
    expect(platform.json<{ data: { description: string }[] }>().data[0]?.description).toBe('8-18位');
    expect((await t.app.inject({ url: '/web/portal/account/password-rules' })).statusCode).toBe(401);
  });

  it('belongs to holders of security:setting', async () => {
    expect((await c.call(staff, 'GET', '/security/policy')).statusCode).toBe(403);
    expect((await c.call(staff, 'PUT', '/security/policy', strict)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/web-api/console/v1/security/policy', headers: XHR })).statusCode).toBe(401);
  });

  it('重置二次验证: an account of the caller’s enterprise only, by org:account or security:setting, audited', async () => {
    const id = (await c.row(admin, 'staff'))?.id ?? -1;
    const res = await c.call(admin, 'POST', `/account/${id}/two-factor/reset`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().msg).toBe('二次验证已重置，该账号下次登录时需重新绑定');
    expect((await c.audit(admin, 'account.two-factor-reset'))[0]).toMatchObject({ target: 'staff 李娜', outcome: 'success' });
    // Another enterprise's account, or one that does not exist, is not found.
    const cross = await c.call(rcadmin, 'POST', `/account/${id}/two-factor/reset`);
    expect([cross.statusCode, cross.json().msg]).toEqual([404, '账号不存在']);
    expect((await c.call(admin, 'POST', '/account/999999/two-factor/reset')).statusCode).toBe(404);
    expect((await c.call(staff, 'POST', `/account/${id}/two-factor/reset`)).statusCode).toBe(403);
  });
});
