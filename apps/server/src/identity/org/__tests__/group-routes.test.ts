import { TenantMessage } from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';

interface GroupRow {
  id: number;
  name: string;
  description: string;
  memberCount: number;
  roles: { id: number; name: string; code: string }[];
  createdAt: string;
}
interface MemberRow {
  id: number;
  username: string;
  name: string;
  phone: string;
  state: string;
}

describe.each(testDialects())('账号组 API on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let staff: string;
  let rcadmin: string;
  const ids = new Map<string, number>();
  const roleIds = new Map<string, number>();
  let ruichi: number;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    [admin, staff, rcadmin] = await Promise.all([tokenFor(t, 'admin'), tokenFor(t, 'staff'), tokenFor(t, 'rcadmin')]);
    for (const a of await t.database.db.selectFrom('account').select(['id', 'username']).execute()) ids.set(a.username, a.id);
    for (const r of await t.database.db.selectFrom('role').select(['id', 'code']).execute()) roleIds.set(r.code, r.id);
    ruichi = (
      await t.database.db.selectFrom('enterprise').select('id').where('name', '=', '常州瑞驰液压科技有限公司').executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token?: string, payload?: object) =>
    t.app.inject({
      method,
      url: `/web-api/console/v1${url}`,
      headers: { 'x-requested-with': 'XMLHttpRequest', ...(token ? { authorization: token } : {}) },
      ...(payload ? { payload } : {}),
    });
  const list = async (token: string, query = '') => {
    const res = await call('GET', `/account-group/page/list${query}`, token);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data[0] as { total: number; rows: GroupRow[] };
  };
  const groupId = async (name: string) =>
    (await t.database.db.selectFrom('account_group').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
  const members = async (token: string, id: number, query = '') => {
    const res = await call('GET', `/account-group/${id}/members${query}`, token);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data[0] as { total: number; rows: MemberRow[] };
  };
  const audit = (action: string) =>
    t.database.db
      .selectFrom('audit_log')
      .select(['username', 'target', 'detail', 'outcome', 'enterprise_id'])
      .where('action', '=', action)
      .execute();

  it('is closed to visitors (20300) and to accounts without org:group (403)', async () => {
    expect((await call('GET', '/account-group/page/list')).json().code).toBe(20300);
    const denied = await call('GET', '/account-group/page/list', staff);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ code: 1, msg: '当前账号无权限' });
    expect((await call('POST', '/account-group', staff, { name: '越权', roleIds: [] })).statusCode).toBe(403);
  });

  it("lists the enterprise's own groups with members and roles, searched by name", async () => {
    const page = await list(admin);
    expect(page.total).toBe(3);
    expect(page.rows.map((g) => [g.name, g.memberCount, g.roles.map((r) => r.code)])).toEqual([
      ['质量部', 2, ['ROLE_QUALITY']],
      ['生产部', 2, []],
      ['信息中心', 1, []],
    ]);
    expect(page.rows[0]?.createdAt).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect((await list(admin, '?keyword=质量')).rows.map((g) => g.name)).toEqual(['质量部']);
    expect((await list(admin, '?keyword=%25')).total).toBe(0);
    expect((await list(admin, '?limit=1&offset=1')).rows.map((g) => g.name)).toEqual(['生产部']);
    // Another enterprise sees none of them.
    expect(await list(rcadmin)).toEqual({ total: 0, rows: [] });
  });

  it('creates a group with roles it may grant; names follow the shared rules and are unique in the enterprise', async () => {
    for (const [body, status, msg] of [
      [{ name: ' ', roleIds: [] }, 400, TenantMessage.groupNameRequired],
      [{ name: '组'.repeat(33), roleIds: [] }, 400, TenantMessage.groupNameTooLong],
      [{ name: '描述过长', description: '字'.repeat(201), roleIds: [] }, 400, TenantMessage.descriptionTooLong],
      [{ name: '质量部', roleIds: [] }, 409, TenantMessage.groupNameTaken],
      // The platform's own role is no tenant's to grant.
      [{ name: '运营组', roleIds: [roleIds.get('ROLE_PLATFORM_OPERATOR')] }, 404, '角色不存在'],
      [{ name: '不存在的角色', roleIds: [999_999] }, 404, '角色不存在'],
    ] as const) {
      const res = await call('POST', '/account-group', admin, body);
      expect([res.statusCode, res.json()]).toEqual([status, { code: 1, msg }]);
    }
    const created = await call('POST', '/account-group', admin, {
      name: ' 销售部 ',
      description: '华东区销售',
      roleIds: [roleIds.get('ROLE_QUALITY'), roleIds.get('ROLE_ENTERPRISE_STAFF'), roleIds.get('ROLE_QUALITY')],
    });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().msg).toBe('账号组已创建');
    const { id } = created.json().data[0];
    const row = (await list(admin, '?keyword=销售')).rows[0];
    expect(row).toMatchObject({ id, name: '销售部', description: '华东区销售', memberCount: 0 });
    expect(row?.roles.map((r) => r.code).sort()).toEqual(['ROLE_ENTERPRISE_STAFF', 'ROLE_QUALITY']);
    // The same name in another enterprise is another group.
    expect((await call('POST', '/account-group', rcadmin, { name: '销售部', roleIds: [] })).statusCode).toBe(200);
    expect(await audit('group.create')).toEqual(
      expect.arrayContaining([expect.objectContaining({ username: 'admin', target: '销售部', outcome: 'success' })]),
    );
    // A refused write is audited as a failure.
    expect(await audit('group.create')).toEqual(
      expect.arrayContaining([expect.objectContaining({ username: 'admin', outcome: 'failure', detail: TenantMessage.groupNameTaken })]),
    );
  });

  it('edits name, description and roles; a taken name answers 409 and changes nothing', async () => {
    const id = await groupId('销售部');
    const taken = await call('PUT', `/account-group/${id}`, admin, { name: '生产部', roleIds: [] });
    expect([taken.statusCode, taken.json().msg]).toEqual([409, TenantMessage.groupNameTaken]);
    const saved = await call('PUT', `/account-group/${id}`, admin, { name: '市场部', description: '', roleIds: [] });
    expect(saved.json()).toEqual({ code: 20200, msg: '账号组已保存', data: [] });
    expect((await list(admin, '?keyword=市场')).rows[0]).toMatchObject({ id, name: '市场部', description: '', roles: [] });
    expect(await audit('group.update')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ target: '销售部 → 市场部', outcome: 'success' }),
        expect.objectContaining({ outcome: 'failure', detail: TenantMessage.groupNameTaken }),
      ]),
    );
  });

  it('lists members with their state and searches them; candidates are the other accounts of the enterprise', async () => {
    const quality = await groupId('质量部');
    const page = await members(admin, quality);
    expect(page.rows.map((m) => [m.username, m.name, m.state])).toEqual([
      ['wangfang', '王芳', 'active'],
      ['zhoujie', '周杰', 'active'],
    ]);
    expect((await members(admin, quality, '?keyword=13800000013')).rows.map((m) => m.username)).toEqual(['zhoujie']);
    expect((await members(admin, quality, '?keyword=王')).rows.map((m) => m.username)).toEqual(['wangfang']);

    const candidates = await call('GET', `/account-group/${quality}/candidates`, admin);
    expect(candidates.statusCode, candidates.body).toBe(200);
    const rows = candidates.json().data as MemberRow[];
    expect(rows.map((m) => m.username)).toEqual(['admin', 'chenming', 'liuyang', 'staff']);
    expect(rows.find((m) => m.username === 'chenming')?.state).toBe('disabled');
    const searched = await call('GET', `/account-group/${quality}/candidates?keyword=LIU&limit=5`, admin);
    expect(searched.json().data.map((m: MemberRow) => m.username)).toEqual(['liuyang']);
  });

  it('adds and removes members; a locked member shows 锁定', async () => {
    const quality = await groupId('质量部');
    const added = await call('POST', `/account-group/${quality}/members`, admin, {
      accountIds: [ids.get('liuyang'), ids.get('wangfang'), ids.get('liuyang')],
    });
    expect(added.json()).toEqual({ code: 20200, msg: '成员已添加', data: [] });
    // Locked by wrong passwords (the CAS login guard's counter).
    await t.database.db
      .insertInto('login_failure')
      .values({
        username: `account:${ids.get('liuyang')}`,
        failures: 5,
        last_failed_at: new Date().toISOString(),
        locked_until: new Date(Date.now() + 600_000).toISOString(),
      })
      .execute();
    expect((await members(admin, quality)).rows.map((m) => [m.username, m.state])).toEqual([
      ['liuyang', 'locked'],
      ['wangfang', 'active'],
      ['zhoujie', 'active'],
    ]);
    // Another enterprise's account is no account of this one: 404, nothing added.
    const foreign = await call('POST', `/account-group/${quality}/members`, admin, {
      accountIds: [ids.get('zhoujie'), ids.get('rcadmin')],
    });
    expect([foreign.statusCode, foreign.json().msg]).toEqual([404, '账号不存在']);
    expect((await members(admin, quality)).total).toBe(3);

    const removed = await call('DELETE', `/account-group/${quality}/members/${ids.get('liuyang')}`, admin);
    expect(removed.json()).toEqual({ code: 20200, msg: '成员已移除', data: [] });
    const again = await call('DELETE', `/account-group/${quality}/members/${ids.get('liuyang')}`, admin);
    expect([again.statusCode, again.json().msg]).toEqual([404, '该账号不在账号组中']);
    expect(await audit('group.member-add')).toEqual(
      expect.arrayContaining([expect.objectContaining({ target: '质量部', detail: 'liuyang,wangfang', outcome: 'success' })]),
    );
    expect(await audit('group.member-remove')).toEqual(
      expect.arrayContaining([expect.objectContaining({ target: '质量部', detail: 'liuyang', outcome: 'success' })]),
    );
  });

  it("grants its roles to its members: a member's authorities follow at the next call", async () => {
    const production = await groupId('生产部');
    expect((await call('GET', '/role/list', staff)).statusCode).toBe(403);
    const granted = await call('PUT', `/account-group/${production}`, admin, {
      name: '生产部',
      description: '装配车间与生产计划',
      roleIds: [roleIds.get('ROLE_ENTERPRISE_ADMIN')],
    });
    expect(granted.statusCode, granted.body).toBe(200);
    // staff is in 生产部: the same token now reaches 角色管理.
    expect((await call('GET', '/role/list', staff)).statusCode).toBe(200);
    expect((await call('DELETE', `/account-group/${production}/members/${ids.get('staff')}`, admin)).statusCode).toBe(200);
    expect((await call('GET', '/role/list', staff)).statusCode).toBe(403);
  });

  it("answers 404 on every route for another enterprise's group and changes nothing", async () => {
    const quality = await groupId('质量部');
    const before = await members(admin, quality);
    const groupsBefore = await list(admin);
    for (const [method, url, body] of [
      ['PUT', `/account-group/${quality}`, { name: '改名', roleIds: [] }],
      ['DELETE', `/account-group/${quality}`, undefined],
      ['GET', `/account-group/${quality}/members`, undefined],
      ['GET', `/account-group/${quality}/candidates`, undefined],
      ['POST', `/account-group/${quality}/members`, { accountIds: [ids.get('rcadmin')] }],
      ['DELETE', `/account-group/${quality}/members/${ids.get('wangfang')}`, undefined],
    ] as const) {
      const res = await call(method, url, rcadmin, body);
      expect([method, url, res.statusCode, res.json()]).toEqual([method, url, 404, { code: 1, msg: '账号组不存在' }]);
    }
    // Nor may its own group take another enterprise's role or account.
    const ruichiGroup = await groupId('销售部');
    const foreignRole = await call('PUT', `/account-group/${ruichiGroup}`, rcadmin, {
      name: '销售部',
      roleIds: [roleIds.get('ROLE_QUALITY')],
    });
    expect([foreignRole.statusCode, foreignRole.json().msg]).toEqual([404, '角色不存在']);
    const foreignMember = await call('POST', `/account-group/${ruichiGroup}/members`, rcadmin, { accountIds: [ids.get('admin')] });
    expect([foreignMember.statusCode, foreignMember.json().msg]).toEqual([404, '账号不存在']);
    expect(await members(admin, quality)).toEqual(before);
    expect(await list(admin)).toEqual(groupsBefore);
  });

  it('keeps an administrator: the last one cannot lose org:account through a group, nor may an administrator demote themself', async () => {
    const db = t.database.db;
    // 瑞驰's only administrator holds the role through a group, not directly.
    const created = await call('POST', '/account-group', rcadmin, { name: '管理组', roleIds: [roleIds.get('ROLE_ENTERPRISE_ADMIN')] });
    const id = created.json().data[0].id as number;
    expect((await call('POST', `/account-group/${id}/members`, rcadmin, { accountIds: [ids.get('rcadmin')] })).statusCode).toBe(200);
    await db.deleteFrom('account_role').where('account_id', '=', ids.get('rcadmin')!).execute();

    const last = { code: 1, msg: '企业至少需要保留一名启用的管理员' };
    for (const [method, url, body] of [
      ['DELETE', `/account-group/${id}/members/${ids.get('rcadmin')}`, undefined],
      ['DELETE', `/account-group/${id}`, undefined],
      ['PUT', `/account-group/${id}`, { name: '管理组', roleIds: [] }],
    ] as const) {
      const res = await call(method, url, rcadmin, body);
      expect([method, url, res.statusCode, res.json()]).toEqual([method, url, 409, last]);
    }
    // Rolled back: the group and its role are still there.
    expect((await list(rcadmin, '?keyword=管理组')).rows[0]).toMatchObject({
      memberCount: 1,
      roles: [expect.objectContaining({ code: 'ROLE_ENTERPRISE_ADMIN' })],
    });

    // With a second administrator the enterprise keeps one, but nobody demotes themself.
    expect((await call('POST', `/account-group/${id}/members`, rcadmin, { accountIds: [ids.get('service')] })).statusCode).toBe(200);
    const self = await call('DELETE', `/account-group/${id}/members/${ids.get('rcadmin')}`, rcadmin);
    expect([self.statusCode, self.json()]).toEqual([400, { code: 1, msg: '不能停用、删除或降级自己的账号' }]);
    expect((await call('DELETE', `/account-group/${id}/members/${ids.get('service')}`, rcadmin)).statusCode).toBe(200);
    expect(await audit('group.member-remove')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ username: 'rcadmin', outcome: 'failure', detail: '企业至少需要保留一名启用的管理员' }),
      ]),
    );
  });

  it('lets a group manager without org:account change groups, but never leave the enterprise without an administrator', async () => {
    const db = t.database.db;
    // 瑞驰: a custom role with 账号组 only, held by service; rcadmin administers through 管理组.
    const { id: roleId } = await db
      .insertInto('role')
      .values({ enterprise_id: ruichi, code: 'ROLE_GROUPS', name: '组管理员' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('role_authority')
      .values([
        { role_id: roleId, authority: 'org' },
        { role_id: roleId, authority: 'org:group' },
      ])
      .execute();
    await db
      .insertInto('account_role')
      .values({ account_id: ids.get('service')!, role_id: roleId })
      .execute();
    const service = await tokenFor(t, 'service');
    const id = await groupId('管理组');
    const edited = await call('PUT', `/account-group/${id}`, service, {
      name: '管理组',
      description: '组管理员修改',
      roleIds: [roleIds.get('ROLE_ENTERPRISE_ADMIN')],
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const removed = await call('DELETE', `/account-group/${id}/members/${ids.get('rcadmin')}`, service);
    expect([removed.statusCode, removed.json().msg]).toEqual([409, '企业至少需要保留一名启用的管理员']);
  });

  it('deletes a group, not while an application authorization names it: its members lose its roles', async () => {
    const quality = await groupId('质量部');
    // The demo application 恒岳质量追溯系统 is granted to 质量部.
    const refused = await call('DELETE', `/account-group/${quality}`, admin);
    expect([refused.statusCode, refused.json().msg]).toEqual([409, '该账号组已用于应用授权（恒岳质量追溯系统），请先在“应用授权”中移除']);
    expect((await list(admin)).rows.map((g) => g.name)).toContain('质量部');
    const app = await t.database.db
      .selectFrom('sso_application')
      .select('id')
      .where('name', '=', '恒岳质量追溯系统')
      .executeTakeFirstOrThrow();
    const ungranted = await call('PUT', `/sso-app/${app.id}/grants`, admin, {
      allMembers: false,
      groupIds: [],
      roleIds: [],
      accountIds: [],
    });
    expect(ungranted.statusCode, ungranted.body).toBe(200);
    const deleted = await call('DELETE', `/account-group/${quality}`, admin);
    expect(deleted.json()).toEqual({ code: 20200, msg: '账号组已删除', data: [] });
    expect((await list(admin)).rows.map((g) => g.name)).not.toContain('质量部');
    expect((await call('GET', `/account-group/${quality}/members`, admin)).statusCode).toBe(404);
    const roles = (await call('GET', '/role/list', admin)).json().data as { code: string; accountCount: number }[];
    expect(roles.find((r) => r.code === 'ROLE_QUALITY')?.accountCount).toBe(0);
    expect(await audit('group.delete')).toEqual(
      expect.arrayContaining([expect.objectContaining({ username: 'admin', target: '质量部', outcome: 'success' })]),
    );
  });
});
