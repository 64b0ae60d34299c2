import { TenantMessage } from '@portal/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../../seed/accounts-seed.js';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';
import { listen, TestBrowser } from '../../../testing/test-browser.js';

const XHR = { 'x-requested-with': 'XMLHttpRequest' };
const HENGYUE = '徐州恒岳重工机械有限公司';
const RUICHI = '常州瑞驰液压科技有限公司';

interface JoinRow {
  id: number;
  username: string;
  phone: string;
  email: string;
  status: string;
  createdAt: string;
}
interface Outbox {
  phone: string;
  templateKey: string;
  params: Record<string, string>;
}
interface MenuEntry {
  user: { enterpriseName: string; enterpriseId: number | null };
  authorities: string[];
}

describe.each(testDialects())('加入申请 and 邀请成员 on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  let admin: string;
  let staff: string;
  let rcadmin: string;
  beforeAll(async () => {
    t = await createTestApp(dialect, { SMS_OUTBOX: '1', SMS_IP_DAILY_LIMIT: '1000', LOGIN_ATTEMPTS_PER_MINUTE: '1000' });
    base = await listen(t.app);
    [admin, staff, rcadmin] = await Promise.all([tokenFor(t, 'admin'), tokenFor(t, 'staff'), tokenFor(t, 'rcadmin')]);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.database.db.deleteFrom('sms_code').execute();
  });

  const call = (method: 'GET' | 'POST', url: string, token?: string, payload?: object) =>
    t.app.inject({
      method,
      url: `/web-api/console/v1${url}`,
      headers: { ...XHR, ...(token ? { authorization: token } : {}) },
      ...(payload ? { payload } : {}),
    });
  const outbox = async (phone: string) => {
    const res = await t.app.inject({ url: `/dev/sms-outbox?phone=${phone}` });
    return res.statusCode === 200 ? (res.json().data as Outbox[]) : [];
  };
  const smsCode = async (phone: string) => {
    await t.app.inject({ method: 'POST', url: `/web-api/register/v1/sms?phone=${phone}`, headers: XHR });
    return (await outbox(phone)).find((m) => m.templateKey === 'register')?.params.code ?? '';
  };
  const register = (body: { username: string; phone: string; smsCode: string; enterpriseName: string }) =>
    t.app.inject({
      method: 'POST',
      url: '/web-api/register/v1/user',
      headers: XHR,
      payload: { email: `${body.username}@example.cn`, password: 'Join#2026', ...body },
    });
  const requests = async (token: string, query = '') => {
    const res = await call('GET', `/join-request/page/list${query}`, token);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data[0] as { total: number; rows: JoinRow[] };
  };
  const menuOf = async (username: string, password = 'Join#2026') => {
    const browser = new TestBrowser(base);
    const hops = await browser.portalLogin(username, password);
    expect(hops[0]?.status).toBe(303);
    return (await browser.json<{ data: MenuEntry[] }>('/web/portal/menu/list')).body.data[0];
  };
  const account = (username: string) =>
    t.database.db.selectFrom('account').select(['id', 'enterprise_id']).where('username', '=', username).executeTakeFirstOrThrow();

  it('registration naming an existing enterprise becomes a pending 加入申请; the applicant has no enterprise yet', async () => {
    const code = await smsCode('13912345001');
    const res = await register({ username: 'zhaomin', phone: '13912345001', smsCode: code, enterpriseName: HENGYUE });
    expect(res.json()).toEqual({
      code: 20200,
      msg: '注册成功，已向该企业提交加入申请，请等待企业管理员审批',
      data: [{ username: 'zhaomin' }],
    });
    expect((await account('zhaomin')).enterprise_id).toBeNull();
    const menu = await menuOf('zhaomin');
    expect(menu?.user).toMatchObject({ enterpriseName: '', enterpriseId: null });
    const audit = await t.database.db
      .selectFrom('audit_log')
      .innerJoin('enterprise', 'enterprise.id', 'audit_log.enterprise_id')
      .select(['audit_log.action', 'enterprise.name', 'audit_log.target'])
      .where('audit_log.username', '=', 'zhaomin')
      .where('audit_log.action', '=', 'join.request')
      .execute();
    expect(audit).toEqual([{ action: 'join.request', name: HENGYUE, target: HENGYUE }]);
  });

  it("lists the enterprise's requests (newest first, filtered by state) to org:account only", async () => {
    expect((await call('GET', '/join-request/page/list')).json().code).toBe(20300);
    expect((await call('GET', '/join-request/page/list', staff)).statusCode).toBe(403);
    const page = await requests(admin);
    expect(page.rows.map((r) => [r.username, r.phone, r.status])).toEqual([
      ['zhaomin', '13912345001', 'pending'],
      ['sunhao', '13800000015', 'pending'],
    ]);
    expect(page.rows[0]).toMatchObject({
      email: 'zhaomin@example.cn',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
    });
    expect((await requests(admin, '?status=approved')).total).toBe(0);
    expect((await requests(admin, '?status=pending&limit=1&offset=1')).rows.map((r) => r.username)).toEqual(['sunhao']);
    expect(await requests(rcadmin)).toEqual({ total: 0, rows: [] });
  });

  it("answers 404 to another enterprise's administrator on every route and decides nothing", async () => {
    const [pending] = (await requests(admin)).rows;
    for (const action of ['approve', 'reject']) {
      const res = await call('POST', `/join-request/${pending?.id}/${action}`, rcadmin);
      expect([action, res.statusCode, res.json()]).toEqual([action, 404, { code: 1, msg: '加入申请不存在' }]);
    }
    expect((await call('POST', `/join-request/${pending?.id}/approve`, staff)).statusCode).toBe(403);
    expect((await requests(admin, '?status=pending')).total).toBe(2);
    expect((await account('zhaomin')).enterprise_id).toBeNull();
  });

  it('通过: the applicant joins as staff, is told by SMS, and logs in belonging to the enterprise', async () => {
    const id = (await requests(admin)).rows.find((r) => r.username === 'zhaomin')!.id;
    const approved = await call('POST', `/join-request/${id}/approve`, admin);
    expect(approved.json()).toEqual({ code: 20200, msg: '已通过，已短信通知申请人', data: [] });
    expect((await outbox('13912345001')).find((m) => m.templateKey === 'join-result')?.params).toEqual({
      enterprise: HENGYUE,
      result: '已通过',
    });
    const menu = await menuOf('zhaomin');
    expect(menu?.user.enterpriseName).toBe(HENGYUE);
    expect(menu?.authorities).toContain('ROLE_ENTERPRISE_STAFF');
    // Decided once.
    const again = await call('POST', `/join-request/${id}/reject`, admin);
    expect([again.statusCode, again.json().msg]).toEqual([409, '该申请已处理']);
    expect((await requests(admin, '?status=approved')).rows.map((r) => r.username)).toEqual(['zhaomin']);
    // The new colleague is one of the enterprise's people now.
    const roles = (await call('GET', '/role/list', admin)).json().data as { code: string; accountCount: number }[];
    expect(roles.find((r) => r.code === 'ROLE_ENTERPRISE_STAFF')?.accountCount).toBe(6);
  });

  it('拒绝: the applicant stays without an enterprise and is told by SMS', async () => {
    const id = (await requests(admin)).rows.find((r) => r.username === 'sunhao')!.id;
    const rejected = await call('POST', `/join-request/${id}/reject`, admin);
    expect(rejected.json()).toEqual({ code: 20200, msg: '已拒绝，已短信通知申请人', data: [] });
    expect((await outbox('13800000015')).find((m) => m.templateKey === 'join-result')?.params).toEqual({
      enterprise: HENGYUE,
      result: '未通过',
    });
    expect((await account('sunhao')).enterprise_id).toBeNull();
    expect((await menuOf('sunhao', DEMO_PASSWORD))?.user.enterpriseName).toBe('');
    const audit = await t.database.db
      .selectFrom('audit_log')
      .select(['action', 'username', 'target', 'outcome'])
      .where('action', 'in', ['join.approve', 'join.reject'])
      .orderBy('id')
      .execute();
    expect(audit).toEqual(
      expect.arrayContaining([
        { action: 'join.approve', username: 'admin', target: 'zhaomin', outcome: 'success' },
        { action: 'join.reject', username: 'admin', target: 'sunhao', outcome: 'success' },
        { action: 'join.approve', username: 'rcadmin', target: expect.any(String), outcome: 'failure' },
      ]),
    );
  });

  it('邀请成员 sends a one-time code; registering with it and the enterprise name joins at once, without a request', async () => {
    expect((await call('POST', '/invitation', staff, { phone: '13912345002' })).statusCode).toBe(403);
    for (const [phone, status, msg] of [
      ['', 400, TenantMessage.phoneRequired],
      ['12345', 400, TenantMessage.phoneInvalid],
      // A number the registration form refuses (1, then 3/4/5/7/8/9) could never use the invitation.
      ['16612345678', 400, TenantMessage.phoneInvalid],
      // Registered already (any enterprise): no one to invite.
      ['13800000021', 409, TenantMessage.phoneTaken],
    ] as const) {
      const res = await call('POST', '/invitation', admin, { phone });
      expect([phone, res.statusCode, res.json()]).toEqual([phone, status, { code: 1, msg }]);
    }
    const sent = await call('POST', '/invitation', admin, { phone: '13912345002' });
    expect(sent.json()).toEqual({ code: 20200, msg: '邀请短信已发送', data: [] });
    const [message] = await outbox('13912345002');
    expect(message).toMatchObject({ templateKey: 'invite', params: { enterprise: HENGYUE, code: expect.stringMatching(/^\d{6}$/) } });
    const code = message!.params.code!;
    const stored = await t.database.db
      .selectFrom('enterprise_invitation')
      .selectAll()
      .where('phone', '=', '13912345002')
      .executeTakeFirstOrThrow();
    expect(stored.code_hash).toMatch(/^[a-f0-9]{64}$/);
    expect(stored.code_hash).not.toContain(code);
    expect(new Date(stored.expires_at).getTime() - new Date(stored.created_at).getTime()).toBe(7 * 86_400_000);
    const again = await call('POST', '/invitation', admin, { phone: '13912345002' });
    expect(again.statusCode).toBe(429);
    expect(again.json().msg).toMatch(/^邀请发送过于频繁，请 \d+ 秒后再试$/);

    // The code is no code for another enterprise's name, nor a registration SMS code.
    const otherName = await register({ username: 'qianfeng', phone: '13912345002', smsCode: code, enterpriseName: RUICHI });
    expect(otherName.json()).toEqual({ code: 1, msg: '验证码已失效，请重新获取' });
    const wrong = code === '000000' ? '111111' : '000000';
    const mistyped = await register({ username: 'qianfeng', phone: '13912345002', smsCode: wrong, enterpriseName: HENGYUE });
    expect(mistyped.json()).toEqual({ code: 1, msg: '验证码错误，还可尝试 4 次' });

    const joined = await register({ username: 'qianfeng', phone: '13912345002', smsCode: code, enterpriseName: HENGYUE });
    expect(joined.json()).toEqual({ code: 20200, msg: '注册成功，已加入该企业，请使用账号和密码登录', data: [{ username: 'qianfeng' }] });
    const menu = await menuOf('qianfeng');
    expect(menu?.user.enterpriseName).toBe(HENGYUE);
    expect(menu?.authorities).toContain('ROLE_ENTERPRISE_STAFF');
    expect(menu?.authorities).not.toContain('ROLE_ENTERPRISE_ADMIN');
    expect((await requests(admin)).rows.map((r) => r.username)).not.toContain('qianfeng');
    // Spent: it registers nobody else.
    const replay = await register({ username: 'qianfeng2', phone: '13912345002', smsCode: code, enterpriseName: HENGYUE });
    expect(replay.statusCode).toBe(400);
    const audit = await t.database.db
      .selectFrom('audit_log')
      .select(['action', 'username', 'target', 'outcome'])
      .where('action', '=', 'invitation.send')
      .where('outcome', '=', 'success')
      .execute();
    expect(audit).toEqual([{ action: 'invitation.send', username: 'admin', target: '13912345002', outcome: 'success' }]);
  });

  it('an invitation takes 5 tries and lasts 7 days', async () => {
    const db = t.database.db;
    expect((await call('POST', '/invitation', rcadmin, { phone: '13912345003' })).statusCode).toBe(200);
    const code = (await outbox('13912345003'))[0]!.params.code!;
    const wrong = code === '000000' ? '111111' : '000000';
    const body = { username: 'lufei', phone: '13912345003', enterpriseName: RUICHI };
    for (const left of [4, 3, 2, 1]) {
      expect((await register({ ...body, smsCode: wrong })).json().msg).toBe(`验证码错误，还可尝试 ${left} 次`);
    }
    expect((await register({ ...body, smsCode: wrong })).json().msg).toBe('验证码错误次数过多，请联系企业管理员重新邀请');
    expect((await register({ ...body, smsCode: code })).json().msg).toBe('验证码已失效，请重新获取');

    // A new invitation (a minute later) replaces it; after 7 days it is void.
    await db
      .updateTable('enterprise_invitation')
      .set({ created_at: new Date(Date.now() - 120_000).toISOString() })
      .where('phone', '=', '13912345003')
      .execute();
    expect((await call('POST', '/invitation', rcadmin, { phone: '13912345003' })).statusCode).toBe(200);
    const fresh = (await outbox('13912345003'))[0]!.params.code!;
    await db
      .updateTable('enterprise_invitation')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('phone', '=', '13912345003')
      .where('consumed_at', 'is', null)
      .execute();
    expect((await register({ ...body, smsCode: fresh })).json().msg).toBe('验证码已失效，请重新获取');
    expect(await db.selectFrom('account').select('id').where('username', '=', 'lufei').executeTakeFirst()).toBeUndefined();
  });

  it('a phone receives at most 5 invitations a day', async () => {
    const db = t.database.db;
    for (let i = 0; i < 5; i++) {
      expect((await call('POST', '/invitation', i % 2 ? admin : rcadmin, { phone: '13912345004' })).statusCode).toBe(200);
      // Each one older than the minute between two invitations of one enterprise.
      const rows = await db.selectFrom('enterprise_invitation').select(['id', 'created_at']).where('phone', '=', '13912345004').execute();
      for (const r of rows) {
        await db
          .updateTable('enterprise_invitation')
          .set({ created_at: new Date(new Date(r.created_at).getTime() - 61_000).toISOString() })
          .where('id', '=', r.id)
          .execute();
      }
    }
    const sixth = await call('POST', '/invitation', admin, { phone: '13912345004' });
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().msg).toMatch(/^该手机号 24 小时内最多接收 5 条邀请，请于 .+ 后再试$/);
  });
});

describe.each(testDialects())('邀请成员 without an invitation template on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, {
      SMS_PROVIDER: 'aliyun',
      ALIYUN_SMS_ACCESS_KEY_ID: 'test-id',
      ALIYUN_SMS_ACCESS_KEY_SECRET: 'test-secret',
      ALIYUN_SMS_SIGN_NAME: '测试签名',
      ALIYUN_SMS_TEMPLATE_REGISTER: 'SMS_000000001',
    });
  });
  afterAll(() => t.close());

  it('refuses with 503 naming the template; the invitation is withdrawn and the refusal audited', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/web-api/console/v1/invitation',
      headers: { ...XHR, authorization: await tokenFor(t, 'admin') },
      payload: { phone: '13912345009' },
    });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ code: 1, msg: '短信发送失败：未配置“邀请成员”短信模板，请联系平台管理员' });
    expect(await t.database.db.selectFrom('enterprise_invitation').select('id').execute()).toEqual([]);
    const audit = await t.database.db
      .selectFrom('audit_log')
      .select(['outcome', 'detail'])
      .where('action', '=', 'invitation.send')
      .execute();
    expect(audit).toEqual([{ outcome: 'failure', detail: '短信发送失败：未配置“邀请成员”短信模板，请联系平台管理员' }]);
  });
});
