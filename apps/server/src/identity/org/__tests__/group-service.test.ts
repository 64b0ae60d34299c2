import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerFor, createTestApp, type TestApp, testDialects } from '../../../testing/test-app.js';

// 账号组's rules called as a service, without HTTP: the caller decides the enterprise and is named in the audit row.
describe.each(testDialects())('账号组 service on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const auditRows = (target: string) =>
    t.database.db.selectFrom('audit_log').select(['username', 'ip', 'action', 'enterprise_id']).where('target', '=', target).execute();

  it('creates a group in the caller’s enterprise and audits it under the caller and their address', async () => {
    const admin = await callerFor(t, 'admin', '198.51.100.7');
    const id = await t.app.groupService.create(admin, { name: '  设备点检组 ', description: '班组长', roleIds: [] });
    const page = await t.app.groupService.page(admin, '设备点检', 0, 10);
    expect(page.rows.map((g) => [g.id, g.name])).toEqual([[id, '设备点检组']]);
    expect(await auditRows('设备点检组')).toEqual([
      { username: 'admin', ip: '198.51.100.7', action: 'group.create', enterprise_id: admin.enterpriseId },
    ]);
  });

  it('another enterprise’s caller finds no such group, and its refused write leaves nothing behind', async () => {
    const admin = await callerFor(t, 'admin');
    const id = await t.app.groupService.create(admin, { name: '焊接工艺组', roleIds: [] });
    const other = await callerFor(t, 'rcadmin');
    await expect(t.app.groupService.update(other, id, { name: '改名', roleIds: [] })).rejects.toMatchObject({ statusCode: 404 });
    await expect(t.app.groupService.remove(other, id)).rejects.toMatchObject({ statusCode: 404 });
    expect((await t.app.groupService.page(admin, '焊接工艺', 0, 10)).rows.map((g) => g.name)).toEqual(['焊接工艺组']);
    expect(await auditRows('改名')).toEqual([]);
  });
});
