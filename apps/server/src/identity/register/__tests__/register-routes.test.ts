import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects } from '../../../testing/test-app.js';
import { listen, TestBrowser } from '../../../testing/test-browser.js';
import { normalisePhone, validateRegistration } from '../register-routes.js';

const XHR = { 'x-requested-with': 'XMLHttpRequest' };

describe('registration rules (spec section 5), shared with the dialog', () => {
  const valid = { username: 'zhaolei', email: '', enterpriseName: '', password: 'Secret#1', phone: '13912345678', smsCode: '123456' };
  const message = (patch: Record<string, string>) => {
    try {
      validateRegistration({ ...valid, ...patch });
      return 'ok';
    } catch (err) {
      return (err as Error).message;
    }
  };
  it('answers each rule with its message, in the table order', () => {
    expect(message({})).toBe('ok');
    expect(message({ username: ' ' })).toBe('请输入用户名');
    expect(message({ email: 'not-an-email' })).toBe('请输入正确的邮箱地址');
    expect(message({ email: 'li@hengyue-hi.cn' })).toBe('ok');
    expect(message({ password: '' })).toBe('请输入密码');
    expect(message({ password: '12345' })).toBe('请输入至少6位密码');
    expect(message({ password: '123456' })).toBe('ok');
    expect(message({ password: 'a'.repeat(18) })).toBe('ok');
    expect(message({ password: 'a'.repeat(19) })).toBe('密码最多18个字符');
    expect(message({ phone: '' })).toBe('请输入手机号');
    // Registration is stricter than the SMS button: 1, then 3/4/5/7/8/9, then 9 digits.
    expect(message({ phone: '16912345678' })).toBe('请输入正确的手机号');
    expect(message({ phone: '1391234567' })).toBe('请输入正确的手机号');
    expect(message({ phone: '+86 139-1234-5678' })).toBe('ok');
    expect(message({ smsCode: '' })).toBe('请输入验证码');
  });
  it('normalises mainland numbers', () => {
    expect(normalisePhone('+86 139 1234 5678')).toBe('13912345678');
    expect(normalisePhone('0086-13912345678')).toBe('13912345678');
  });
});

describe.each(testDialects())('SMS codes and registration on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp(dialect, { SMS_OUTBOX: '1', SMS_IP_DAILY_LIMIT: '1000', LOGIN_ATTEMPTS_PER_MINUTE: '1000' });
    base = await listen(t.app);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.database.db.deleteFrom('sms_code').execute();
  });

  const db = () => t.database.db;
  const sendSms = (phone: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: `/web-api/register/v1/sms?phone=${encodeURIComponent(phone)}`, headers: { ...XHR, ...headers } });
  const outboxCode = async (phone: string) => {
    const res = await t.app.inject({ url: `/dev/sms-outbox?phone=${phone}` });
    return (res.json() as { data: { params: { code: string } }[] }).data[0]?.params.code ?? '';
  };
  const register = (body: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: '/web-api/register/v1/user', headers: XHR, payload: body });
  /** Moves every code of a phone back in time, as if `ms` had passed. */
  const age = async (phone: string, ms: number) => {
    const rows = await db().selectFrom('sms_code').select(['id', 'created_at', 'expires_at']).where('phone', '=', phone).execute();
    for (const r of rows) {
      await db()
        .updateTable('sms_code')
        .set({
          created_at: new Date(new Date(r.created_at).getTime() - ms).toISOString(),
          expires_at: new Date(new Date(r.expires_at).getTime() - ms).toISOString(),
        })
        .where('id', '=', r.id)
        .execute();
    }
  };

  it('sends a 6-digit code, stored only as an HMAC, valid 5 minutes', async () => {
    const res = await sendSms('13912340001');
    expect(res.json()).toEqual({ code: 20200, msg: '验证码已发送，请注意查收', data: [] });
    const code = await outboxCode('13912340001');
    expect(code).toMatch(/^\d{6}$/);
    const row = await db().selectFrom('sms_code').selectAll().where('phone', '=', '13912340001').executeTakeFirstOrThrow();
    expect(row.code_hash).toMatch(/^[a-f0-9]{64}$/);
    expect(row.code_hash).not.toContain(code);
    expect(new Date(row.expires_at).getTime() - new Date(row.created_at).getTime()).toBe(5 * 60_000);
  });

  it('refuses a bad phone with a Chinese message and stores nothing', async () => {
    for (const [phone, msg] of [
      ['', '请输入手机号'],
      ['12345', '请输入正确的手机号'],
      ['12912345678', '请输入正确的手机号'],
    ] as const) {
      const res = await sendSms(phone);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ code: 1, msg });
    }
    expect(await db().selectFrom('sms_code').selectAll().execute()).toEqual([]);
  });

  it('one send a minute per phone: 429 saying how many seconds to wait', async () => {
    await sendSms('13912340002');
    const again = await sendSms('13912340002');
    expect(again.statusCode).toBe(429);
    expect(again.json().code).toBe(1);
    expect(again.json().msg).toMatch(/^验证码发送过于频繁，请 (60|59) 秒后再试$/);
    await age('13912340002', 61_000);
    expect((await sendSms('13912340002')).statusCode).toBe(200);
  });

  it('5 an hour and 10 a day per phone', async () => {
    const phone = '13912340003';
    for (let i = 0; i < 5; i++) {
      expect((await sendSms(phone)).statusCode).toBe(200);
      await age(phone, 61_000);
    }
    const hourly = await sendSms(phone);
    expect(hourly.statusCode).toBe(429);
    expect(hourly.json().msg).toMatch(/^该手机号 1 小时内最多获取 5 次验证码，请 \d+ 分钟后再试$/);
    await age(phone, 3_600_000);
    for (let i = 0; i < 5; i++) {
      expect((await sendSms(phone)).statusCode).toBe(200);
      await age(phone, 61_000 * 13);
    }
    const daily = await sendSms(phone);
    expect(daily.statusCode).toBe(429);
    expect(daily.json().msg).toMatch(/^该手机号 24 小时内最多获取 10 次验证码，请于 \d+月\d+日 \d\d:\d\d 后再试$/);
  });

  it('a daily cap per client IP', async () => {
    const capped = await createTestApp(dialect, { SMS_OUTBOX: '1', SMS_IP_DAILY_LIMIT: '2' });
    try {
      const send = (phone: string) => capped.app.inject({ method: 'POST', url: `/web-api/register/v1/sms?phone=${phone}`, headers: XHR });
      expect((await send('13912340011')).statusCode).toBe(200);
      expect((await send('13912340012')).statusCode).toBe(200);
      const third = await send('13912340013');
      expect(third.statusCode).toBe(429);
      expect(third.json().msg).toMatch(/^当前网络获取验证码次数过多，请于 .+ 后再试$/);
    } finally {
      await capped.close();
    }
  });

  it('registers with the code once; the account can log in at the CAS', async () => {
    await sendSms('13912340004');
    const smsCode = await outboxCode('13912340004');
    const body = {
      username: 'zhaolei',
      email: 'zhaolei@tianyu-hi.cn',
      enterpriseName: '苏州天宇智能装备有限公司',
      password: 'Tianyu#2026',
      phone: '13912340004',
      smsCode,
    };
    const res = await register(body);
    expect(res.json()).toEqual({ code: 20200, msg: '注册成功，请使用账号和密码登录', data: [{ username: 'zhaolei' }] });
    const account = await db()
      .selectFrom('account')
      .innerJoin('enterprise', 'enterprise.id', 'account.enterprise_id')
      .select(['account.password_hash', 'enterprise.certification_status', 'account.email'])
      .where('username', '=', 'zhaolei')
      .executeTakeFirstOrThrow();
    expect(account.password_hash).toMatch(/^\$argon2id\$/);
    expect(account.certification_status).toBe('none');
    // Single use: the same code does not register again.
    const replay = await register({ ...body, username: 'zhaolei2', enterpriseName: '' });
    expect(replay.json()).toEqual({ code: 1, msg: '验证码已失效，请重新获取' });

    const browser = new TestBrowser(base);
    const hops = await browser.portalLogin('zhaolei', 'Tianyu#2026', '/');
    expect(hops[0]?.status).toBe(303);
    const menus = await browser.json<{ data: { user: { enterpriseName: string }; authorities: string[] }[] }>('/web/portal/menu/list');
    expect(menus.body.data[0]?.user.enterpriseName).toBe('苏州天宇智能装备有限公司');
    expect(menus.body.data[0]?.authorities).toContain('ROLE_ENTERPRISE_ADMIN');
    const audit = await db().selectFrom('audit_log').select('action').where('username', '=', 'zhaolei').execute();
    expect(audit.map((a) => a.action)).toContain('register');
  });

  it('wrong codes count down to a void code; an expired code is refused; nothing is written', async () => {
    const phone = '13912340005';
    await sendSms(phone);
    const code = await outboxCode(phone);
    const wrong = code === '000000' ? '111111' : '000000';
    const body = { username: 'qianwei', email: '', enterpriseName: '', password: 'Qianwei#1', phone, smsCode: wrong };
    expect((await register(body)).json().msg).toBe('验证码错误，还可尝试 4 次');
    for (let i = 0; i < 3; i++) await register(body);
    expect((await register(body)).json().msg).toBe('验证码错误次数过多，请重新获取');
    expect((await register({ ...body, smsCode: code })).json().msg).toBe('验证码已失效，请重新获取');
    await age(phone, 61_000);
    await sendSms(phone);
    const fresh = await outboxCode(phone);
    await age(phone, 5 * 60_000 + 1000);
    expect((await register({ ...body, smsCode: fresh })).json().msg).toBe('验证码已失效，请重新获取');
    expect(await db().selectFrom('account').select('id').where('username', '=', 'qianwei').executeTakeFirst()).toBeUndefined();
  });

  it('refuses a taken username or phone; the code still registers after a refusal or two', async () => {
    const phone = '13912340006';
    await sendSms(phone);
    const smsCode = await outboxCode(phone);
    const base = { email: '', enterpriseName: '', password: 'Sunli#2026', smsCode };
    const takenName = await register({ ...base, username: 'admin', phone });
    expect(takenName.statusCode).toBe(409);
    expect(takenName.json()).toEqual({ code: 1, msg: '用户名已存在' });
    expect((await register({ ...base, username: 'operator', phone })).json()).toEqual({ code: 1, msg: '用户名已存在' });
    expect((await register({ ...base, username: 'sunli', phone })).json().code).toBe(20200);

    await sendSms('13800000001');
    const adminCode = await outboxCode('13800000001');
    const takenPhone = await register({ ...base, smsCode: adminCode, username: 'zhouwu', phone: '13800000001' });
    expect(takenPhone.json()).toEqual({ code: 1, msg: '该手机号已注册，请直接登录' });
  });

  it("each refused registration spends one of the code's 5 tries: one code cannot probe names without limit", async () => {
    const phone = '13912340009';
    await sendSms(phone);
    const smsCode = await outboxCode(phone);
    const body = { email: '', enterpriseName: '', password: 'Probe#2026', phone, smsCode };
    for (const username of ['admin', 'operator', 'rcadmin', 'staff', 'wangfang']) {
      const res = await register({ ...body, username });
      expect([username, res.statusCode]).toEqual([username, 409]);
    }
    const sixth = await register({ ...body, username: 'service' });
    expect(sixth.statusCode).toBe(400);
    expect(sixth.json()).toEqual({ code: 1, msg: '验证码已失效，请重新获取' });
    // Spent: not even a free name registers with it.
    expect((await register({ ...body, username: 'freshname' })).json()).toEqual({ code: 1, msg: '验证码已失效，请重新获取' });
    expect(await db().selectFrom('account').select('id').where('username', '=', 'freshname').executeTakeFirst()).toBeUndefined();
    // Wrong codes and refusals draw on the same tries.
    await age(phone, 61_000);
    await sendSms(phone);
    const fresh = await outboxCode(phone);
    const wrong = fresh === '000000' ? '111111' : '000000';
    expect((await register({ ...body, smsCode: wrong, username: 'freshname' })).json().msg).toBe('验证码错误，还可尝试 4 次');
    expect((await register({ ...body, smsCode: fresh, username: 'admin' })).statusCode).toBe(409);
    expect((await register({ ...body, smsCode: wrong, username: 'freshname' })).json().msg).toBe('验证码错误，还可尝试 2 次');
  });

  it('a registration whose audit row cannot be written is not committed', async () => {
    const phone = '13912340010';
    await sendSms(phone);
    const smsCode = await outboxCode(phone);
    const body = { username: 'audited', email: '', enterpriseName: '苏州审计测试有限公司', password: 'Audit#2026', phone, smsCode };
    await sql`alter table audit_log rename to audit_log_away`.execute(db());
    try {
      const res = await register(body);
      expect(res.statusCode).toBe(500);
      expect(res.json().code).toBe(1);
    } finally {
      await sql`alter table audit_log_away rename to audit_log`.execute(db());
    }
    // Nothing was written: the names are free and the code (not consumed) still registers.
    expect((await register(body)).json()).toEqual({ code: 20200, msg: '注册成功，请使用账号和密码登录', data: [{ username: 'audited' }] });
    const audit = await db().selectFrom('audit_log').select('action').where('username', '=', 'audited').execute();
    expect(audit.map((a) => a.action)).toEqual(['register']);
  });

  it('validates the body on the server with the dialog messages', async () => {
    const res = await register({ username: '', email: '', enterpriseName: '', password: '', phone: '', smsCode: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 1, msg: '请输入用户名' });
    const badEmail = await register({
      username: 'wangfang',
      email: 'x@',
      enterpriseName: '',
      password: 'abcdef',
      phone: '13912340007',
      smsCode: '123456',
    });
    expect(badEmail.json().msg).toBe('请输入正确的邮箱地址');
  });

  it('two concurrent registrations of the same phone create one account', async () => {
    const phone = '13912340008';
    await sendSms(phone);
    const smsCode = await outboxCode(phone);
    const results = await Promise.all(
      ['wuqiang', 'wuqiang2', 'wuqiang3'].map((username) =>
        register({ username, email: '', enterpriseName: '', password: 'Wuqiang#1', phone, smsCode }),
      ),
    );
    expect(results.filter((r) => r.json().code === 20200)).toHaveLength(1);
    for (const r of results.filter((x) => x.json().code !== 20200)) expect(r.statusCode).toBeGreaterThanOrEqual(400);
    expect(await db().selectFrom('account').select('id').where('phone', '=', phone).execute()).toHaveLength(1);
  });
});
