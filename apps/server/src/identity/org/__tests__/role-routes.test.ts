import { TenantMessage } from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';

interface RoleRow {
  id: number;
  code: string;
  name: string;
  description: string;
  system: boolean;
  authorities: string[];
  accountCount: number;
}

describe.each(testDialects())('角色管理 API on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let staff: string;
  let rcadmin: string;
  const ids = new Map<string, number>();
  const roleIds = new Map<string, number>();
  beforeAll(async () => {
    t = await createTestApp(dialect);
    [admin, staff, rcadmin] = await Promise.all([tokenFor(t, 'admin'), tokenFor(t, 'staff'), tokenFor(t, 'rcadmin')]);
    for (const a of await t.database.db.selectFrom('account').select(['id', 'username']).execute()) ids.set(a.username, a.id);
    for (const r of await t.database.db.selectFrom('role').select(['id', 'code']).execute()) roleIds.set(r.code, r.id);
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token?: string, payload?: object) =>
    t.app.inject({
      method,
      url: `/web-api/console/v1${url}`,
      headers: { 'x-requested-with': 'XMLHttpRequest', ...(token ? { authorization: token } : {}) },
      ...(payload ? { payload } : {}),
    });
  const roles = async (token: string) => {
    const res = await call('GET', '/role/list', token);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as RoleRow[];
  };
  const role = async (token: string, code: string) => (await roles(token)).find((r) => r.code === code);
  const audit = (action: string) =>
    t.database.db.selectFrom('audit_log').select(['username', 'target', 'detail', 'outcome']).where('action', '=', action).execute();

  it('is closed to visitors (20300) and to accounts without org:role (403)', async () => {
    expect((await call('GET', '/role/list')).json().code).toBe(20300);
    expect((await call('GET', '/role/list', staff)).statusCode).toBe(403);
    expect((await call('POST', '/role', staff, { code: 'ROLE_X', name: 'x', authorities: [] })).statusCode).toBe(403);
  });

  it('lists the tenant system roles (read-only) first, then the custom roles, with authorities and holders', async () => {
    const list = await roles(admin);
    expect(list.map((r) => [r.code, r.name, r.system, r.accountCount])).toEqual([
      ['ROLE_ENTERPRISE_ADMIN', '企业管理员', true, 1],
      // staff, wangfang, liuyang, zhoujie and the disabled chenming.
      ['ROLE_ENTERPRISE_STAFF', '普通员工', true, 5],
      ['ROLE_SERVICE_CUSTOMER_EMPLOYEE', '客户员工', true, 0],
      // Held through 质量部 (wangfang, zhoujie).
      ['ROLE_QUALITY', '质检员', false, 2],
    ]);
    expect(list[0]?.authorities).toEqual(expect.arrayContaining(['org:account', 'org:group', 'org:role', 'identifier:record:manage']));
    expect(list[0]?.authorities).not.toContain('tenant');
    expect(list[3]?.authorities).toEqual(['dashboard', 'identifier', 'identifier:record']);
    // Another enterprise: its own holders, none of 恒岳's roles.
    expect((await roles(rcadmin)).map((r) => [r.code, r.accountCount])).toEqual([
      ['ROLE_ENTERPRISE_ADMIN', 1],
      ['ROLE_ENTERPRISE_STAFF', 0],
      ['ROLE_SERVICE_CUSTOMER_EMPLOYEE', 1],
    ]);
  });

  it('creates custom roles: codes and names by the shared rules, unique in the enterprise; only grantable authorities', async () => {
    for (const [body, status, msg] of [
      [{ code: '', name: '仓管员', authorities: [] }, 400, TenantMessage.roleCodeRequired],
      [{ code: 'WAREHOUSE', name: '仓管员', authorities: [] }, 400, TenantMessage.roleCodeInvalid],
      [{ code: 'ROLE_warehouse', name: '仓管员', authorities: [] }, 400, TenantMessage.roleCodeInvalid],
      [{ code: 'ROLE_WAREHOUSE', name: ' ', authorities: [] }, 400, TenantMessage.roleNameRequired],
      [{ code: 'ROLE_WAREHOUSE', name: '角'.repeat(33), authorities: [] }, 400, TenantMessage.roleNameTooLong],
      [{ code: 'ROLE_WAREHOUSE', name: '仓管员', description: '述'.repeat(201), authorities: [] }, 400, TenantMessage.descriptionTooLong],
      // Platform codes are never a tenant's to grant.
      [{ code: 'ROLE_WAREHOUSE', name: '仓管员', authorities: ['content'] }, 400, TenantMessage.authorityUnknown],
      [{ code: 'ROLE_WAREHOUSE', name: '仓管员', authorities: ['audit:all-enterprises'] }, 400, TenantMessage.authorityUnknown],
      [{ code: 'ROLE_WAREHOUSE', name: '仓管员', authorities: ['tenant'] }, 400, TenantMessage.authorityUnknown],
      [{ code: 'ROLE_WAREHOUSE', name: '仓管员', authorities: ['identifier:all-enterprises'] }, 400, TenantMessage.authorityUnknown],
      [{ code: 'ROLE_QUALITY', name: '仓管员', authorities: [] }, 409, TenantMessage.roleCodeTaken],
      // A system role's code, the platform's included.
      [{ code: 'ROLE_ENTERPRISE_ADMIN', name: '仓管员', authorities: [] }, 409, TenantMessage.roleCodeTaken],
      [{ code: 'ROLE_PLATFORM_OPERATOR', name: '仓管员', authorities: [] }, 409, TenantMessage.roleCodeTaken],
      [{ code: 'ROLE_WAREHOUSE', name: '质检员', authorities: [] }, 409, TenantMessage.roleNameTaken],
      [{ code: 'ROLE_WAREHOUSE', name: '企业管理员', authorities: [] }, 409, TenantMessage.roleNameTaken],
    ] as const) {
      const res = await call('POST', '/role', admin, body);
      expect([body, res.statusCode, res.json()]).toEqual([body, status, { code: 1, msg }]);
    }
    expect((await roles(admin)).map((r) => r.code)).not.toContain('ROLE_WAREHOUSE');

    const created = await call('POST', '/role', admin, {
      code: 'ROLE_WAREHOUSE',
      name: ' 仓管员 ',
      description: '维护库存标识',
      authorities: ['identifier:record', 'org:account', 'identifier:record'],
    });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().msg).toBe('角色已创建');
    // Each picked page comes with its parent, whose menu holds it.
    expect(await role(admin, 'ROLE_WAREHOUSE')).toEqual({
      id: created.json().data[0].id,
      code: 'ROLE_WAREHOUSE',
      name: '仓管员',
      description: '维护库存标识',
      system: false,
      authorities: ['identifier', 'identifier:record', 'org', 'org:account'],
      accountCount: 0,
    });
    // Codes are unique per enterprise: 瑞驰 may have its own ROLE_QUALITY.
    const ruichi = await call('POST', '/role', rcadmin, { code: 'ROLE_QUALITY', name: '质检员', authorities: ['dashboard'] });
    expect(ruichi.statusCode, ruichi.body).toBe(200);
    expect((await roles(rcadmin)).map((r) => r.code)).toContain('ROLE_QUALITY');
    expect(await audit('role.create')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ username: 'admin', target: 'ROLE_WAREHOUSE 仓管员', outcome: 'success' }),
        expect.objectContaining({ username: 'admin', outcome: 'failure', detail: TenantMessage.roleCodeTaken }),
      ]),
    );
  });

  it('edits a custom role (the code stays); system roles are read-only', async () => {
    const warehouse = (await role(admin, 'ROLE_WAREHOUSE'))!;
    const saved = await call('PUT', `/role/${warehouse.id}`, admin, {
      code: 'ROLE_OTHER',
      name: '库管员',
      description: '',
      authorities: ['dashboard'],
    });
    expect(saved.json()).toEqual({ code: 20200, msg: '角色已保存', data: [] });
    expect(await role(admin, 'ROLE_WAREHOUSE')).toMatchObject({ name: '库管员', description: '', authorities: ['dashboard'] });
    const taken = await call('PUT', `/role/${warehouse.id}`, admin, { name: '质检员', authorities: [] });
    expect([taken.statusCode, taken.json().msg]).toEqual([409, TenantMessage.roleNameTaken]);
    const unknown = await call('PUT', `/role/${warehouse.id}`, admin, { name: '库管员', authorities: ['content:article'] });
    expect([unknown.statusCode, unknown.json().msg]).toEqual([400, TenantMessage.authorityUnknown]);

    for (const code of ['ROLE_ENTERPRISE_ADMIN', 'ROLE_ENTERPRISE_STAFF', 'ROLE_SERVICE_CUSTOMER_EMPLOYEE']) {
      const put = await call('PUT', `/role/${roleIds.get(code)}`, admin, { name: '改名', authorities: [] });
      expect([code, put.statusCode, put.json()]).toEqual([code, 400, { code: 1, msg: '系统角色不可修改' }]);
      const del = await call('DELETE', `/role/${roleIds.get(code)}`, admin);
      expect([code, del.statusCode, del.json()]).toEqual([code, 400, { code: 1, msg: '系统角色不可修改' }]);
    }
    expect((await role(admin, 'ROLE_ENTERPRISE_ADMIN'))?.name).toBe('企业管理员');
  });

  it("changes a holder's authorities at the next call, directly or through a group", async () => {
    const warehouse = (await role(admin, 'ROLE_WAREHOUSE'))!;
    await t.database.db
      .insertInto('account_role')
      .values({ account_id: ids.get('staff')!, role_id: warehouse.id })
      .execute();
    expect((await call('GET', '/audit/page/list', staff)).statusCode).toBe(403);
    await call('PUT', `/role/${warehouse.id}`, admin, { name: '库管员', authorities: ['audit'] });
    expect((await call('GET', '/audit/page/list', staff)).statusCode).toBe(200);
    // accountCount: staff directly, and wangfang through 质量部 once the group grants it too.
    const quality = await t.database.db.selectFrom('account_group').select('id').where('name', '=', '质量部').executeTakeFirstOrThrow();
    await call('PUT', `/account-group/${quality.id}`, admin, { name: '质量部', roleIds: [roleIds.get('ROLE_QUALITY'), warehouse.id] });
    expect((await role(admin, 'ROLE_WAREHOUSE'))?.accountCount).toBe(3);
  });

  it("answers 404 for another enterprise's role on every route and changes nothing", async () => {
    const quality = (await role(admin, 'ROLE_QUALITY'))!;
    const put = await call('PUT', `/role/${quality.id}`, rcadmin, { name: '篡改', authorities: [] });
    expect([put.statusCode, put.json()]).toEqual([404, { code: 1, msg: '角色不存在' }]);
    const del = await call('DELETE', `/role/${quality.id}`, rcadmin);
    expect([del.statusCode, del.json()]).toEqual([404, { code: 1, msg: '角色不存在' }]);
    // The platform's own role is not one of theirs either.
    expect((await call('DELETE', `/role/${roleIds.get('ROLE_PLATFORM_OPERATOR')}`, rcadmin)).statusCode).toBe(404);
    expect((await call('PUT', `/role/999999`, rcadmin, { name: '无', authorities: [] })).statusCode).toBe(404);
    expect(await role(admin, 'ROLE_QUALITY')).toEqual(quality);
  });

  it('keeps an administrator: a role giving the last one org:account cannot lose it or be deleted', async () => {
    // 瑞驰's only administrator holds org:account through a custom role only.
    const boss = await call('POST', '/role', rcadmin, { code: 'ROLE_BOSS', name: '总经理', authorities: ['org:account', 'org:role'] });
    const id = boss.json().data[0].id as number;
    await t.database.db.deleteFrom('account_role').where('account_id', '=', ids.get('rcadmin')!).execute();
    await t.database.db
      .insertInto('account_role')
      .values({ account_id: ids.get('rcadmin')!, role_id: id })
      .execute();

    const demote = await call('PUT', `/role/${id}`, rcadmin, { name: '总经理', authorities: ['org:role'] });
    expect([demote.statusCode, demote.json()]).toEqual([409, { code: 1, msg: '企业至少需要保留一名启用的管理员' }]);
    const del = await call('DELETE', `/role/${id}`, rcadmin);
    expect([del.statusCode, del.json()]).toEqual([409, { code: 1, msg: '企业至少需要保留一名启用的管理员' }]);
    expect(await role(rcadmin, 'ROLE_BOSS')).toMatchObject({ authorities: ['org', 'org:account', 'org:role'], accountCount: 1 });

    // With another administrator the enterprise keeps one, but rcadmin may not demote themself.
    await t.database.db
      .insertInto('account_role')
      .values({ account_id: ids.get('service')!, role_id: roleIds.get('ROLE_ENTERPRISE_ADMIN')! })
      .execute();
    const self = await call('DELETE', `/role/${id}`, rcadmin);
    expect([self.statusCode, self.json()]).toEqual([400, { code: 1, msg: '不能停用、删除或降级自己的账号' }]);
  });

  it('deletes a custom role: its holders and groups no longer hold it', async () => {
    const warehouse = (await role(admin, 'ROLE_WAREHOUSE'))!;
    expect((await call('DELETE', `/role/${warehouse.id}`, admin)).json()).toEqual({ code: 20200, msg: '角色已删除', data: [] });
    expect(await role(admin, 'ROLE_WAREHOUSE')).toBeUndefined();
    expect((await call('GET', '/audit/page/list', staff)).statusCode).toBe(403);
    const groups = (await call('GET', '/account-group/page/list?keyword=质量部', admin)).json().data[0].rows;
    expect(groups[0].roles.map((r: { code: string }) => r.code)).toEqual(['ROLE_QUALITY']);
    expect(await audit('role.delete')).toEqual(
      expect.arrayContaining([expect.objectContaining({ username: 'admin', target: 'ROLE_WAREHOUSE 库管员', outcome: 'success' })]),
    );
  });

  it('does not delete a role an application authorization names', async () => {
    const quality = (await role(admin, 'ROLE_QUALITY'))!;
    const app = await t.database.db
      .selectFrom('sso_application')
      .select('id')
      .where('name', '=', '恒岳设备运维平台')
      .executeTakeFirstOrThrow();
    const granted = await call('PUT', `/sso-app/${app.id}/grants`, admin, {
      allMembers: false,
      groupIds: [],
      roleIds: [quality.id],
      accountIds: [],
    });
    expect(granted.statusCode, granted.body).toBe(200);
    const refused = await call('DELETE', `/role/${quality.id}`, admin);
    expect([refused.statusCode, refused.json().msg]).toEqual([409, '该角色已用于应用授权（恒岳设备运维平台），请先在“应用授权”中移除']);
    expect(await role(admin, 'ROLE_QUALITY')).toBeDefined();
  });
});
