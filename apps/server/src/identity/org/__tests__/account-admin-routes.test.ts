import { TenantMessage } from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../../seed/accounts-seed.js';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';
import { verifyPassword } from '../../accounts/passwords.js';
import { consoleClient } from './account-test-client.js';

const HENGYUE = '徐州恒岳重工机械有限公司';
const CHINA_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const SELF_REFUSED = '不能停用、删除或降级自己的账号';

describe.each(testDialects())('账号管理 on %s', (dialect) => {
  let t: TestApp;
  let c: ReturnType<typeof consoleClient>;
  /** 恒岳's administrator 张伟, 瑞驰's administrator 孙丽, 恒岳's staff 李娜 (no org:account). */
  let admin: string;
  let rcadmin: string;
  let staff: string;
  let groups: Record<string, number>;
  /** The tenant system roles' ids. */
  let roles: { ROLE_ENTERPRISE_ADMIN: number; ROLE_ENTERPRISE_STAFF: number; ROLE_SERVICE_CUSTOMER_EMPLOYEE: number };

  beforeAll(async () => {
    t = await createTestApp(dialect, { SMS_OUTBOX: '1' });
    c = consoleClient(t);
    admin = await tokenFor(t, 'admin');
    rcadmin = await tokenFor(t, 'rcadmin');
    staff = await tokenFor(t, 'staff');
    const options = await c.options(admin);
    groups = Object.fromEntries(options.groups.map((g) => [g.name, g.id]));
    const roleId = (code: string) => options.roles.find((r) => r.code === code)?.id ?? -1;
    roles = {
      ROLE_ENTERPRISE_ADMIN: roleId('ROLE_ENTERPRISE_ADMIN'),
      ROLE_ENTERPRISE_STAFF: roleId('ROLE_ENTERPRISE_STAFF'),
      ROLE_SERVICE_CUSTOMER_EMPLOYEE: roleId('ROLE_SERVICE_CUSTOMER_EMPLOYEE'),
    };
  });
  afterAll(() => t.close());

  /** The id of one of 恒岳's accounts, as its administrator's list shows it. */
  const idOf = async (username: string) => {
    const row = await c.row(admin, username);
    if (!row) throw new Error(`${username} is not listed`);
    return row.id;
  };
  /** Whether a token still opens its session (a staff-level read). */
  const tokenWorks = async (token: string) =>
    (await t.app.inject({ url: '/web-api/identity/v1/prefix/list', headers: { authorization: token } })).statusCode === 200;
  const login = (username: string) => t.app.accountRepository.findForLogin(username);
  const create = async (token: string, body: Record<string, unknown>) =>
    c.call(token, 'POST', '/account', {
      email: '',
      groupIds: [],
      roleIds: [roles.ROLE_ENTERPRISE_STAFF],
      passwordMode: 'manual',
      password: await c.encoded('Init@2026'),
      ...body,
    });

  it('lists the enterprise’s own accounts, newest first, with groups, roles, state and China times', async () => {
    const list = await c.page(admin);
    expect(list.rows.map((r) => r.username).sort()).toEqual(['admin', 'chenming', 'liuyang', 'staff', 'wangfang', 'zhoujie']);
    expect(list.total).toBe(6);
    const me = list.rows.find((r) => r.username === 'admin');
    expect(me).toMatchObject({
      name: '张伟',
      phone: '13800000001',
      email: 'zhangwei@hengyue-hi.cn',
      groups: [{ id: groups['信息中心'], name: '信息中心' }],
      roles: [{ id: roles.ROLE_ENTERPRISE_ADMIN, name: '企业管理员', code: 'ROLE_ENTERPRISE_ADMIN' }],
      state: 'active',
      lastLoginAt: '',
      self: true,
    });
    expect(me?.createdAt).toMatch(CHINA_TIME);
    expect(list.rows.find((r) => r.username === 'chenming')).toMatchObject({ state: 'disabled', self: false });
    // 瑞驰's administrator sees 瑞驰's accounts only.
    expect((await c.page(rcadmin)).rows.map((r) => r.username).sort()).toEqual(['rcadmin', 'service']);
    // Newest first.
    await create(admin, { username: 'newest', name: '最新', phone: '13900000099' });
    expect((await c.page(admin)).rows[0]?.username).toBe('newest');
  });

  it('shows the last login in China time', async () => {
    await t.database.db
      .updateTable('account')
      .set({ last_login_at: '2026-03-01T02:03:04.000Z' })
      .where('username', '=', 'wangfang')
      .execute();
    expect((await c.row(admin, 'wangfang'))?.lastLoginAt).toBe('2026-03-01 10:03:04');
  });

  it('filters by keyword (username, name, phone), state, group and role (own or through a group), and pages', async () => {
    const names = async (query: string) => (await c.page(admin, query)).rows.map((r) => r.username).sort();
    expect(await names('keyword=WANG')).toEqual(['wangfang']);
    expect(await names(`keyword=${encodeURIComponent('王芳')}`)).toEqual(['wangfang']);
    expect(await names('keyword=0000013')).toEqual(['zhoujie']);
    // LIKE wildcards are plain characters.
    expect(await names('keyword=%25')).toEqual([]);
    expect(await names('keyword=_')).toEqual([]);
    expect(await names('state=disabled')).toEqual(['chenming']);
    expect(await names(`groupId=${groups['质量部']}`)).toEqual(['wangfang', 'zhoujie']);
    // 质检员 is granted to 质量部: its members hold it.
    const quality = (await c.options(admin)).roles.find((r) => r.code === 'ROLE_QUALITY')?.id;
    expect(await names(`roleId=${quality}`)).toEqual(['wangfang', 'zhoujie']);
    expect(await names(`roleId=${roles.ROLE_ENTERPRISE_ADMIN}`)).toEqual(['admin']);
    const paged = await c.data<{ total: number; rows: unknown[] }>(c.call(admin, 'GET', '/account/page/list?offset=2&limit=2'));
    expect(paged.rows).toHaveLength(2);
    expect(paged.total).toBe(7);
    const bad = await c.call(admin, 'GET', '/account/page/list?state=deleted');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe(1);
  });

  it('offers the enterprise’s groups and the roles it grants', async () => {
    const options = await c.options(admin);
    expect(options.groups.map((g) => g.name)).toEqual(['质量部', '生产部', '信息中心']);
    expect(options.roles.map((r) => r.name)).toEqual(['企业管理员', '普通员工', '客户员工', '质检员']);
    // Another enterprise sees its own (no groups, no custom roles), never 恒岳's.
    const other = await c.options(rcadmin);
    expect(other.groups).toEqual([]);
    expect(other.roles.map((r) => r.code)).toEqual(['ROLE_ENTERPRISE_ADMIN', 'ROLE_ENTERPRISE_STAFF', 'ROLE_SERVICE_CUSTOMER_EMPLOYEE']);
  });

  it('新增 with an initial password: listed with its groups and roles, must change the password at its first login, audited', async () => {
    const res = await create(admin, {
      username: 'zhaolei',
      name: '赵磊',
      phone: '13900000001',
      email: 'zhaolei@hengyue-hi.cn',
      groupIds: [groups['质量部'], groups['生产部']],
      roleIds: [roles.ROLE_ENTERPRISE_STAFF],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ code: 20200, msg: '账号已创建', data: [{ id: expect.any(Number) }] });
    const row = await c.row(admin, 'zhaolei');
    expect(row).toMatchObject({
      id: res.json<{ data: { id: number }[] }>().data[0]?.id,
      name: '赵磊',
      phone: '13900000001',
      email: 'zhaolei@hengyue-hi.cn',
      groups: [
        { id: groups['质量部'], name: '质量部' },
        { id: groups['生产部'], name: '生产部' },
      ],
      roles: [{ name: '普通员工', code: 'ROLE_ENTERPRISE_STAFF' }],
      state: 'active',
      self: false,
    });
    const account = await login('zhaolei');
    expect(account?.mustChangePassword).toBe(true);
    expect(account?.usable).toBe(true);
    expect(await verifyPassword(account?.password_hash, 'Init@2026')).toBe(true);
    // Login by phone finds it too.
    expect((await login('13900000001'))?.username).toBe('zhaolei');
    const [entry] = await c.audit(admin, 'account.create');
    expect(entry).toMatchObject({ username: 'admin', target: 'zhaolei 赵磊', outcome: 'success', enterpriseName: HENGYUE });
  });

  it('新增 checks every field with the shared rules', async () => {
    const refused = async (body: Record<string, unknown>) => {
      const res = await create(admin, { username: 'fieldcheck', name: '校验', phone: '13900000002', ...body });
      expect(res.statusCode, res.body).toBe(400);
      return res.json().msg;
    };
    expect(await refused({ username: '' })).toBe(TenantMessage.usernameRequired);
    expect(await refused({ username: '1abc' })).toBe(TenantMessage.usernameInvalid);
    expect(await refused({ username: 'ab' })).toBe(TenantMessage.usernameInvalid);
    expect(await refused({ name: '  ' })).toBe(TenantMessage.nameRequired);
    expect(await refused({ name: '名'.repeat(33) })).toBe(TenantMessage.nameTooLong);
    expect(await refused({ phone: '' })).toBe(TenantMessage.phoneRequired);
    expect(await refused({ phone: '12900000002' })).toBe(TenantMessage.phoneInvalid);
    expect(await refused({ email: 'not-an-email' })).toBe(TenantMessage.emailInvalid);
    expect(await refused({ password: undefined })).toBe(TenantMessage.passwordRequired);
    expect(await refused({ password: await c.encoded('12345') })).toBe(TenantMessage.passwordTooShort);
    expect(await refused({ password: await c.encoded('a'.repeat(19)) })).toBe(TenantMessage.passwordTooLong);
    expect(await refused({ password: 'Init@2026' })).toBe('密码数据无法解密，请刷新页面后重试');
    expect(await refused({ passwordMode: 'plain' })).toMatch(/passwordMode/);
    // Groups and roles must be the enterprise's own (another's answer as unknown ones), never a platform role.
    const platformRole = await t.database.db
      .selectFrom('role')
      .select('id')
      .where('code', '=', 'ROLE_PLATFORM_OPERATOR')
      .executeTakeFirstOrThrow();
    for (const body of [
      { groupIds: [groups['质量部']] },
      { roleIds: [roles.ROLE_ENTERPRISE_ADMIN, 999_999] },
      { roleIds: [platformRole.id] },
    ]) {
      const res = await create(rcadmin, { username: 'fieldcheck', name: '校验', phone: '13900000002', ...body });
      expect(res.statusCode, res.body).toBe(404);
    }
    expect(await c.row(admin, 'fieldcheck')).toBeUndefined();
    expect(await c.row(rcadmin, 'fieldcheck')).toBeUndefined();
  });

  it('usernames and phones are unique across the platform: 409 naming the field', async () => {
    // 瑞驰's administrator cannot take 恒岳's (or a platform account's) username or phone.
    const username = await create(rcadmin, { username: 'staff', name: '重名', phone: '13900000003' });
    expect(username.statusCode).toBe(409);
    expect(username.json()).toEqual({ code: 1, msg: TenantMessage.usernameTaken });
    const phone = await create(rcadmin, { username: 'rcnew', name: '重号', phone: '13800000004' });
    expect(phone.statusCode).toBe(409);
    expect(phone.json()).toEqual({ code: 1, msg: TenantMessage.phoneTaken });
    // Editing onto another account's phone too.
    const edit = await c.call(admin, 'PUT', `/account/${await idOf('liuyang')}`, {
      name: '刘洋',
      phone: '13800000002',
      groupIds: [],
      roleIds: [roles.ROLE_ENTERPRISE_STAFF],
    });
    expect(edit.statusCode).toBe(409);
    expect(edit.json().msg).toBe(TenantMessage.phoneTaken);
    expect((await c.row(admin, 'liuyang'))?.phone).toBe('13800000012');
  });

  it('编辑 changes name, phone, email, groups and roles; the username stays', async () => {
    const id = await idOf('liuyang');
    const res = await c.call(admin, 'PUT', `/account/${id}`, {
      username: 'renamed',
      name: '刘洋（质检）',
      phone: '13900000004',
      email: 'liuyang@hengyue.cn',
      groupIds: [groups['质量部']],
      roleIds: [roles.ROLE_ENTERPRISE_STAFF, roles.ROLE_SERVICE_CUSTOMER_EMPLOYEE],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().msg).toBe('账号已保存');
    expect(await c.row(admin, 'liuyang')).toMatchObject({
      id,
      name: '刘洋（质检）',
      phone: '13900000004',
      email: 'liuyang@hengyue.cn',
      groups: [{ name: '质量部' }],
      roles: [{ code: 'ROLE_ENTERPRISE_STAFF' }, { code: 'ROLE_SERVICE_CUSTOMER_EMPLOYEE' }],
    });
    // The new phone logs in; the old one is free again.
    expect((await login('13900000004'))?.username).toBe('liuyang');
    expect(await login('13800000012')).toBeUndefined();
    expect((await c.audit(admin, 'account.update'))[0]).toMatchObject({ target: 'liuyang 刘洋（质检）', outcome: 'success' });
  });

  it('编辑 keeps a role the enterprise cannot grant (an operator editing themself keeps 平台运营)', async () => {
    const operator = await tokenFor(t, 'operator');
    const self = (await c.page(operator)).rows.find((r) => r.username === 'operator');
    expect(self?.roles.map((r) => r.code)).toEqual(['ROLE_PLATFORM_OPERATOR']);
    const res = await c.call(operator, 'PUT', `/account/${self?.id}`, {
      name: '陈静',
      phone: '13800000004',
      email: '',
      groupIds: [],
      roleIds: [],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await c.row(operator, 'operator'))?.roles.map((r) => r.code)).toEqual(['ROLE_PLATFORM_OPERATOR']);
  });

  it('an administrator edits themself but cannot demote themself; an enterprise keeps one administrator', async () => {
    const me = await idOf('admin');
    const edit = (token: string, id: number, roleIds: number[], name = '张伟') =>
      c.call(token, 'PUT', `/account/${id}`, { name, phone: '13800000001', email: 'zhangwei@hengyue-hi.cn', groupIds: [], roleIds });
    expect((await edit(admin, me, [roles.ROLE_ENTERPRISE_ADMIN], '张伟（管理员）')).statusCode).toBe(200);
    expect((await c.row(admin, 'admin'))?.name).toBe('张伟（管理员）');
    // 张伟 is 恒岳's only administrator: removing his own role would leave none.
    const last = await edit(admin, me, [roles.ROLE_ENTERPRISE_STAFF]);
    expect(last.statusCode).toBe(409);
    expect(last.json().msg).toBe('企业至少需要保留一名启用的管理员');
    // With a second administrator, it is refused as a self-demotion.
    expect(
      (await create(admin, { username: 'hyadmin', name: '第二管理员', phone: '13900000005', roleIds: [roles.ROLE_ENTERPRISE_ADMIN] }))
        .statusCode,
    ).toBe(200);
    const demote = await edit(admin, me, [roles.ROLE_ENTERPRISE_STAFF]);
    expect(demote.statusCode).toBe(400);
    expect(demote.json().msg).toBe(SELF_REFUSED);
    expect((await c.row(admin, 'admin'))?.roles.map((r) => r.code)).toEqual(['ROLE_ENTERPRISE_ADMIN']);
    // 瑞驰's only administrator is in the same position.
    const rcId = (await c.row(rcadmin, 'rcadmin'))?.id ?? 0;
    const rc = await c.call(rcadmin, 'PUT', `/account/${rcId}`, { name: '孙丽', phone: '13800000021', groupIds: [], roleIds: [] });
    expect(rc.statusCode).toBe(409);
    // The other administrator can be disabled and deleted: 张伟 remains.
    const other = await idOf('hyadmin');
    expect((await c.call(admin, 'PUT', `/account/${other}/status`, { status: 'disabled' })).statusCode).toBe(200);
    expect((await c.call(admin, 'DELETE', `/account/${other}`)).statusCode).toBe(200);
    // A failed guard rail is audited as a refusal.
    expect((await c.audit(admin, 'account.update')).some((e) => e.outcome === 'failure' && e.detail === SELF_REFUSED)).toBe(true);
  });

  it('停用 ends the account’s sessions and it cannot log in; 启用 lets it in again; nobody disables themself', async () => {
    const id = await idOf('zhoujie');
    const token = await tokenFor(t, 'zhoujie');
    expect(await tokenWorks(token)).toBe(true);
    const off = await c.call(admin, 'PUT', `/account/${id}/status`, { status: 'disabled' });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().msg).toBe('账号已停用');
    expect(await tokenWorks(token)).toBe(false);
    expect((await login('zhoujie'))?.usable).toBe(false);
    expect((await c.row(admin, 'zhoujie'))?.state).toBe('disabled');
    const on = await c.call(admin, 'PUT', `/account/${id}/status`, { status: 'active' });
    expect(on.json().msg).toBe('账号已启用');
    expect((await login('zhoujie'))?.usable).toBe(true);
    expect(await tokenWorks(await tokenFor(t, 'zhoujie'))).toBe(true);
    const self = await c.call(admin, 'PUT', `/account/${await idOf('admin')}/status`, { status: 'disabled' });
    expect(self.statusCode).toBe(400);
    expect(self.json().msg).toBe(SELF_REFUSED);
    expect(await tokenWorks(admin)).toBe(true);
    // A refusal names the account as the call did (its id).
    expect((await c.audit(admin, 'account.disable')).map((e) => [e.target, e.outcome])).toEqual([
      [String(await idOf('admin')), 'failure'],
      ['zhoujie 周杰', 'success'],
      ['hyadmin 第二管理员', 'success'],
    ]);
    expect((await c.audit(admin, 'account.enable'))[0]?.target).toBe('zhoujie 周杰');
  });

  it('解锁 ends a lock; nobody unlocks themself', async () => {
    const id = await idOf('zhoujie');
    for (let i = 0; i < 5; i++) await t.app.loginGuardService.attempt({ accountId: id }, t.app.config.securityDefaults);
    expect((await c.row(admin, 'zhoujie'))?.state).toBe('locked');
    expect((await c.page(admin, 'state=locked')).rows.map((r) => r.username)).toEqual(['zhoujie']);
    expect((await c.page(admin, 'state=active')).rows.map((r) => r.username)).not.toContain('zhoujie');
    const res = await c.call(admin, 'POST', `/account/${id}/unlock`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().msg).toBe('账号已解锁');
    expect((await c.row(admin, 'zhoujie'))?.state).toBe('active');
    expect(await t.app.loginGuardService.attempt({ accountId: id }, t.app.config.securityDefaults)).toEqual({ locked: false, left: 4 });
    const self = await c.call(admin, 'POST', `/account/${await idOf('admin')}/unlock`);
    expect(self.statusCode).toBe(400);
    expect((await c.audit(admin, 'account.unlock')).map((e) => e.outcome)).toEqual(['failure', 'success']);
  });

  it('重置密码 sets a password to change at the next login, ends the sessions and lifts a lock; not one’s own', async () => {
    const id = await idOf('wangfang');
    const token = await tokenFor(t, 'wangfang');
    for (let i = 0; i < 5; i++) await t.app.loginGuardService.attempt({ accountId: id }, t.app.config.securityDefaults);
    const bad = await c.call(admin, 'POST', `/account/${id}/password`, { passwordMode: 'manual', password: await c.encoded('123') });
    expect(bad.json().msg).toBe(TenantMessage.passwordTooShort);
    expect(await tokenWorks(token)).toBe(true);
    const res = await c.call(admin, 'POST', `/account/${id}/password`, { passwordMode: 'manual', password: await c.encoded('Reset#2026') });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().msg).toBe('密码已重置');
    expect(await tokenWorks(token)).toBe(false);
    const account = await login('wangfang');
    expect(account?.mustChangePassword).toBe(true);
    expect(await verifyPassword(account?.password_hash, 'Reset#2026')).toBe(true);
    expect(await verifyPassword(account?.password_hash, DEMO_PASSWORD)).toBe(false);
    expect((await c.row(admin, 'wangfang'))?.state).toBe('active');
    const self = await c.call(admin, 'POST', `/account/${await idOf('admin')}/password`, { passwordMode: 'sms' });
    expect(self.statusCode).toBe(400);
    expect(await tokenWorks(admin)).toBe(true);
    expect((await c.audit(admin, 'account.reset-password')).map((e) => e.outcome)).toEqual(['failure', 'success', 'failure']);
  });

  it('删除 is soft: gone from the list, its sessions end, its groups and roles go, its username and phone stay taken', async () => {
    const id = await idOf('chenming');
    await t.database.db.updateTable('account').set({ status: 'active' }).where('id', '=', id).execute();
    const token = await tokenFor(t, 'chenming');
    const res = await c.call(admin, 'DELETE', `/account/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().msg).toBe('账号已删除');
    expect(await c.row(admin, 'chenming')).toBeUndefined();
    expect(await tokenWorks(token)).toBe(false);
    expect(await login('chenming')).toBeUndefined();
    // Memberships and grants are gone (no other route shows a deleted account's).
    expect(await t.database.db.selectFrom('account_role').select('role_id').where('account_id', '=', id).execute()).toEqual([]);
    expect(await t.database.db.selectFrom('account_group_member').select('group_id').where('account_id', '=', id).execute()).toEqual([]);
    expect((await create(rcadmin, { username: 'chenming', name: '陈明', phone: '13900000006' })).json().msg).toBe(
      TenantMessage.usernameTaken,
    );
    expect((await create(rcadmin, { username: 'chenming2', name: '陈明', phone: '13800000014' })).json().msg).toBe(
      TenantMessage.phoneTaken,
    );
    // A deleted account is not found by any route.
    for (const [method, url, payload] of [
      ['DELETE', `/account/${id}`],
      ['PUT', `/account/${id}/status`, { status: 'active' }],
      ['POST', `/account/${id}/unlock`],
    ] as const) {
      expect((await c.call(admin, method, url, payload)).statusCode).toBe(404);
    }
    const self = await c.call(admin, 'DELETE', `/account/${await idOf('admin')}`);
    expect(self.statusCode).toBe(400);
    expect(self.json().msg).toBe(SELF_REFUSED);
    // The audit row keeps the deleted account's name.
    expect((await c.audit(admin, 'account.delete')).filter((e) => e.outcome === 'success').map((e) => e.target)).toEqual([
      'chenming 陈明',
      'hyadmin 第二管理员',
    ]);
  });

  it('every account route answers 404 for another enterprise’s account, and changes nothing', async () => {
    const id = await idOf('staff');
    const before = await c.row(admin, 'staff');
    const staffToken = await tokenFor(t, 'staff');
    const attempts = [
      c.call(rcadmin, 'PUT', `/account/${id}`, { name: '改名', phone: '13900000007', groupIds: [], roleIds: [] }),
      c.call(rcadmin, 'PUT', `/account/${id}/status`, { status: 'disabled' }),
      c.call(rcadmin, 'POST', `/account/${id}/unlock`),
      c.call(rcadmin, 'POST', `/account/${id}/password`, { passwordMode: 'manual', password: await c.encoded('Taken#2026') }),
      c.call(rcadmin, 'POST', `/account/${id}/password`, { passwordMode: 'sms' }),
      c.call(rcadmin, 'DELETE', `/account/${id}`),
      c.call(rcadmin, 'PUT', '/account/999999', { name: '改名', phone: '13900000007', groupIds: [], roleIds: [] }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json()).toEqual({ code: 1, msg: '账号不存在' });
    }
    expect(await c.row(admin, 'staff')).toEqual(before);
    expect(await tokenWorks(staffToken)).toBe(true);
    expect(await verifyPassword((await login('staff'))?.password_hash, DEMO_PASSWORD)).toBe(true);
    // 恒岳's accounts never show in 瑞驰's list, by any filter.
    expect((await c.page(rcadmin, 'keyword=staff')).rows.map((r) => r.username)).toEqual([]);
    expect((await c.page(rcadmin, `groupId=${groups['质量部']}`)).total).toBe(0);
    const exported = await c.call(rcadmin, 'GET', '/account/export');
    expect(exported.body).not.toContain('13800000002');
  });

  it('an account without org:account gets 403 on every route', async () => {
    const id = await idOf('liuyang');
    const calls = [
      c.call(staff, 'GET', '/account/page/list'),
      c.call(staff, 'GET', '/org/options'),
      c.call(staff, 'POST', '/account', { username: 'x', name: 'x', phone: '13900000008', groupIds: [], roleIds: [], passwordMode: 'sms' }),
      c.call(staff, 'PUT', `/account/${id}`, { name: 'x', phone: '13900000008', groupIds: [], roleIds: [] }),
      c.call(staff, 'PUT', `/account/${id}/status`, { status: 'disabled' }),
      c.call(staff, 'POST', `/account/${id}/unlock`),
      c.call(staff, 'POST', `/account/${id}/password`, { passwordMode: 'sms' }),
      c.call(staff, 'DELETE', `/account/${id}`),
      c.call(staff, 'GET', '/account/import/template?format=csv'),
      c.upload(staff, 'a.csv', '账号,姓名,手机号,初始密码\r\nnobody,某人,13900000008,Init@2026\r\n'),
      c.call(staff, 'GET', '/account/export'),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toEqual({ code: 1, msg: '当前账号无权限' });
    }
    expect((await c.row(admin, 'liuyang'))?.state).toBe('active');
    // Without a token: 401.
    expect((await t.app.inject({ url: '/web-api/console/v1/account/page/list' })).statusCode).toBe(401);
  });

  it('account writes land in the enterprise’s own audit log only', async () => {
    const mine = await c.data<{ rows: { action: string }[] }>(c.call(admin, 'GET', '/audit/page/list?limit=100'));
    const actions = new Set(mine.rows.map((r) => r.action));
    for (const action of [
      'account.create',
      'account.update',
      'account.disable',
      'account.enable',
      'account.unlock',
      'account.reset-password',
      'account.delete',
    ]) {
      expect(actions).toContain(action);
    }
    const theirs = await c.data<{ rows: { action: string; target: string; username: string }[] }>(
      c.call(rcadmin, 'GET', '/audit/page/list?limit=100'),
    );
    expect(theirs.rows.every((r) => r.username === 'rcadmin')).toBe(true);
  });
});
