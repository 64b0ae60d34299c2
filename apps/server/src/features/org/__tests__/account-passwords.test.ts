import { creditCodeCheckChar } from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../../db/seed/accounts-seed.js';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';
import { verifyPassword } from '../../accounts/passwords.js';
import { randomPassword } from '../account-passwords.js';
import { consoleClient, outbox } from './account-test-client.js';

describe('random passwords (随机密码并短信通知)', () => {
  it('are 10 letters and digits with both cases and a digit, no look-alikes, and never repeat', () => {
    const passwords = Array.from({ length: 2000 }, randomPassword);
    for (const p of passwords) {
      expect(p).toMatch(/^[A-HJ-NP-Za-km-np-z2-9]{10}$/);
      expect(p).toMatch(/[A-Z]/);
      expect(p).toMatch(/[a-z]/);
      expect(p).toMatch(/\d/);
    }
    expect(new Set(passwords).size).toBe(passwords.length);
  });
});

const staffRole = async (c: ReturnType<typeof consoleClient>, token: string) =>
  (await c.options(token)).roles.find((r) => r.code === 'ROLE_ENTERPRISE_STAFF')?.id ?? -1;

describe.each(testDialects())('passwords by SMS on %s', (dialect) => {
  let t: TestApp;
  let c: ReturnType<typeof consoleClient>;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp(dialect, { SMS_OUTBOX: '1' });
    c = consoleClient(t);
    admin = await tokenFor(t, 'admin');
  });
  afterAll(() => t.close());

  it('新增 with 随机密码并短信通知 sends the password to the new account’s phone', async () => {
    const res = await c.call(admin, 'POST', '/account', {
      username: 'smsuser',
      name: '短信用户',
      phone: '13900000201',
      groupIds: [],
      roleIds: [await staffRole(c, admin)],
      passwordMode: 'sms',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().msg).toBe('账号已创建，初始密码已通过短信发送');
    const [sms] = await outbox(t, '13900000201');
    expect(sms?.templateKey).toBe('password');
    expect(Object.keys(sms?.params ?? {})).toEqual(['password']);
    const account = await t.app.accountRepository.findForLogin('smsuser');
    expect(account?.mustChangePassword).toBe(true);
    expect(await verifyPassword(account?.password_hash, sms?.params.password ?? '')).toBe(true);
    expect((await c.audit(admin, 'account.create'))[0]?.detail).toBe('随机密码已短信发送');
  });

  it('重置密码 by SMS sends a new one to the account’s phone', async () => {
    const id = (await c.row(admin, 'wangfang'))?.id;
    const res = await c.call(admin, 'POST', `/account/${id}/password`, { passwordMode: 'sms' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().msg).toBe('密码已重置，新密码已通过短信发送');
    const [sms] = await outbox(t, '13800000011');
    expect(sms?.templateKey).toBe('password');
    const account = await t.app.accountRepository.findForLogin('wangfang');
    expect(await verifyPassword(account?.password_hash, sms?.params.password ?? '')).toBe(true);
    expect(account?.mustChangePassword).toBe(true);
  });
});

describe.each(testDialects())('passwords by SMS without the template on %s', (dialect) => {
  let t: TestApp;
  let c: ReturnType<typeof consoleClient>;
  let admin: string;
  beforeAll(async () => {
    // A real provider whose notification template is not configured: nothing reaches it.
    t = await createTestApp(dialect, {
      SMS_PROVIDER: 'aliyun',
      ALIYUN_SMS_ACCESS_KEY_ID: 'test-id',
      ALIYUN_SMS_ACCESS_KEY_SECRET: 'test-secret',
      ALIYUN_SMS_SIGN_NAME: '工程e+',
      ALIYUN_SMS_TEMPLATE_REGISTER: 'SMS_1',
    });
    c = consoleClient(t);
    admin = await tokenFor(t, 'admin');
  });
  afterAll(() => t.close());

  const MESSAGE = '短信发送失败：未配置“账号密码通知”短信模板，请联系平台管理员';

  it('新增 answers 503 and writes nothing', async () => {
    const body = { username: 'nosms', name: '无短信', phone: '13900000301', groupIds: [], roleIds: [await staffRole(c, admin)] };
    const res = await c.call(admin, 'POST', '/account', { ...body, passwordMode: 'sms' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ code: 1, msg: MESSAGE });
    expect(await c.row(admin, 'nosms')).toBeUndefined();
    // The username and phone are still free: the same account with a typed password goes through.
    const manual = await c.call(admin, 'POST', '/account', { ...body, passwordMode: 'manual', password: await c.encoded('Init@2026') });
    expect(manual.statusCode, manual.body).toBe(200);
    expect((await c.audit(admin, 'account.create')).map((e) => e.outcome)).toEqual(['success', 'failure']);
  });

  it('重置密码 answers 503 and changes nothing: the old password and the sessions stay', async () => {
    const token = await tokenFor(t, 'liuyang');
    const res = await c.call(admin, 'POST', `/account/${(await c.row(admin, 'liuyang'))?.id}/password`, { passwordMode: 'sms' });
    expect(res.statusCode).toBe(503);
    expect(res.json().msg).toBe(MESSAGE);
    const account = await t.app.accountRepository.findForLogin('liuyang');
    expect(await verifyPassword(account?.password_hash, DEMO_PASSWORD)).toBe(true);
    expect(account?.mustChangePassword).toBe(false);
    expect((await t.app.inject({ url: '/web-api/identity/v1/prefix/list', headers: { authorization: token } })).statusCode).toBe(200);
  });

  it('新建企业 in 租户管理 answers 503 and writes neither the enterprise nor its administrator', async () => {
    const operator = await tokenFor(t, 'operator');
    const body = {
      name: '无短信新建有限公司',
      creditCode: `91320200MA1NXMTP1${creditCodeCheckChar('91320200MA1NXMTP1')}`,
      adminName: '孙无信',
      adminUsername: 'nosmsadmin',
      adminPhone: '13900000302',
    };
    const res = await c.call(operator, 'POST', '/tenant', body);
    expect([res.statusCode, res.json()]).toEqual([503, { code: 1, msg: MESSAGE }]);
    expect(await t.database.db.selectFrom('enterprise').select('id').where('name', '=', body.name).execute()).toEqual([]);
    expect(await t.database.db.selectFrom('account').select('id').where('username', '=', body.adminUsername).execute()).toEqual([]);
  });
});
