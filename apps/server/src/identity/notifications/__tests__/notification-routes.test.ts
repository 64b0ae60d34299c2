import type { NotificationRow } from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';

const BASE = '/web-api/console/v1/notification';
const XHR = { 'x-requested-with': 'XMLHttpRequest' };

/** 消息中心: each account reads and marks its own messages. */
describe.each(testDialects())('消息中心 on %s', (dialect) => {
  let t: TestApp;
  let staff: string;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    [staff, admin] = await Promise.all([tokenFor(t, 'staff'), tokenFor(t, 'admin')]);
    const idOf = async (username: string) =>
      (await t.database.db.selectFrom('account').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;
    const [staffId, adminId] = await Promise.all([idOf('staff'), idOf('admin')]);
    // Messages as the producers write them, oldest first.
    const db = t.database.db;
    await t.app.notificationRepository.notify(db, [staffId], { kind: 'security', title: '密码已修改', content: '第一条' });
    await t.app.notificationRepository.notify(db, [staffId, adminId], {
      kind: 'join',
      title: '新的加入申请',
      content: '第二条',
      link: '/console/org/account',
    });
    await t.app.notificationRepository.notify(db, [staffId], { kind: 'security', title: '新设备登录提醒', content: '第三条' });
  });
  afterAll(() => t.close());

  const call = (token: string | undefined, method: 'GET' | 'PUT', url: string) =>
    t.app.inject({ method, url: `${BASE}${url}`, headers: { ...XHR, ...(token ? { authorization: token } : {}) } });
  const unread = async (token: string) => {
    const res = await call(token, 'GET', '/unread-count');
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().data[0] as { count: number }).count;
  };
  const list = async (token: string, query = '') => {
    const res = await call(token, 'GET', `/page/list${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data[0] as { total: number; rows: NotificationRow[] };
  };

  it('lists the caller’s own messages, newest first, privately, with filters', async () => {
    expect(await unread(staff)).toBe(3);
    const res = await call(staff, 'GET', '/page/list');
    expect(res.headers['cache-control']).toBe('private, no-store');
    const page = res.json().data[0] as { total: number; rows: NotificationRow[] };
    expect(page.total).toBe(3);
    expect(page.rows.map((r) => r.content)).toEqual(['第三条', '第二条', '第一条']);
    expect(page.rows[1]).toMatchObject({ kind: 'join', title: '新的加入申请', link: '/console/org/account', read: false });
    expect(page.rows[0]?.link).toBe('');
    expect(page.rows[0]?.createdAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

    expect((await list(staff, '?kind=join')).rows.map((r) => r.content)).toEqual(['第二条']);
    expect((await list(staff, '?kind=security&limit=1')).rows.map((r) => r.content)).toEqual(['第三条']);
    expect((await list(staff, '?kind=security&limit=1')).total).toBe(2);
    expect((await list(staff, '?offset=2')).rows.map((r) => r.content)).toEqual(['第一条']);
    expect((await list(admin)).rows.map((r) => r.content)).toEqual(['第二条']);
    expect(await unread(admin)).toBe(1);
  });

  it('marks one message read; another account’s message answers 404 and stays unread', async () => {
    const [newest, join] = (await list(staff)).rows;
    const own = await call(staff, 'PUT', `/${newest?.id}/read`);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toMatchObject({ code: 20200, data: [] });
    expect(await unread(staff)).toBe(2);
    expect((await list(staff, '?unread=1')).rows.map((r) => r.content)).toEqual(['第二条', '第一条']);
    expect((await list(staff, '?unread=0')).rows.find((r) => r.id === newest?.id)?.read).toBe(true);
    // Marking it again changes nothing.
    expect((await call(staff, 'PUT', `/${newest?.id}/read`)).statusCode).toBe(200);
    expect(await unread(staff)).toBe(2);

    const foreign = await call(admin, 'PUT', `/${join?.id}/read`);
    expect([foreign.statusCode, foreign.json()]).toEqual([404, { code: 1, msg: '消息不存在' }]);
    expect((await call(admin, 'PUT', '/999999/read')).statusCode).toBe(404);
    expect((await list(staff)).rows.find((r) => r.id === join?.id)?.read).toBe(false);
    expect(await unread(staff)).toBe(2);
  });

  it('全部已读 marks only the caller’s messages', async () => {
    const res = await call(staff, 'PUT', '/read-all');
    expect(res.statusCode, res.body).toBe(200);
    expect(await unread(staff)).toBe(0);
    expect((await list(staff, '?unread=1')).total).toBe(0);
    expect((await list(staff)).rows.every((r) => r.read)).toBe(true);
    expect(await unread(admin)).toBe(1);
  });

  it('needs a signed-in account and refuses bad input in Chinese', async () => {
    for (const url of ['/unread-count', '/page/list']) expect((await call(undefined, 'GET', url)).statusCode).toBe(401);
    expect((await call(undefined, 'PUT', '/read-all')).statusCode).toBe(401);
    for (const query of ['?kind=other', '?unread=2', '?limit=0']) {
      const res = await call(staff, 'GET', `/page/list${query}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().msg).toMatch(/[\u4e00-\u9fa5]/);
    }
    const bad = await call(staff, 'PUT', '/abc/read');
    expect(bad.statusCode).toBe(400);
  });
});
