import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';

const BASE = '/web-api/console/v1/application';

interface AdminApp {
  applicationUuid: string;
  name: string;
  recommended: boolean;
  status: string;
  sort: number;
  content: string;
}

describe.each(testDialects())('推荐应用 management API on %s', (dialect) => {
  let t: TestApp;
  let operator: string;
  let admin: string;
  let staff: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    [operator, admin, staff] = await Promise.all([tokenFor(t, 'operator'), tokenFor(t, 'admin'), tokenFor(t, 'staff')]);
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string | undefined, payload?: object) =>
    t.app.inject({
      method,
      url,
      headers: { 'x-requested-with': 'XMLHttpRequest', ...(token ? { authorization: token } : {}) },
      ...(payload ? { payload } : {}),
    });
  const list = async () => (await call('GET', `${BASE}/list`, operator)).json().data as AdminApp[];
  const count = async () =>
    Number(
      (
        await t.database.db
          .selectFrom('app_application')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const input = {
    name: '碳排放核算',
    applicationDescription: '按产线与设备统计能耗，发现异常用能。',
    imagePath: '/uploads/2026/05/0c6d4f1e-1111-4222-8333-944455556666.png',
    category: '数据分析',
    provider: '平台运营中心',
    content: '<p>能耗<strong>看板</strong></p><script>alert(1)</script>',
    recommended: true,
    status: 'published',
  };
  const publicRecommended = async () =>
    ((await t.app.inject({ url: '/web-api/iip-operate/recommendCenter/list' })).json().data as { applicationUuid: string }[]).map(
      (a) => a.applicationUuid,
    );

  it('answers 403 to accounts without content:recommend, whatever the body, and writes nothing', async () => {
    const before = await count();
    for (const token of [admin, staff]) {
      for (const [method, url, body] of [
        ['GET', `${BASE}/list`, undefined],
        ['POST', BASE, input],
        ['POST', BASE, { nonsense: true }],
        ['PUT', `${BASE}/order`, { uuids: ['x'] }],
        ['DELETE', `${BASE}/whatever`, undefined],
      ] as const) {
        const res = await call(method, url, token, body);
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json()).toEqual({ code: 1, msg: '当前账号无权限' });
      }
    }
    expect((await call('GET', `${BASE}/list`, undefined)).json().code).toBe(20300);
    expect(await count()).toBe(before);
    // Refused writes of a logged-in user are audited as failures.
    const refused = await t.database.db
      .selectFrom('audit_log')
      .select(['action', 'outcome', 'detail'])
      .where('username', '=', 'staff')
      .where('action', '=', 'content.application.create')
      .execute();
    expect(refused.length).toBeGreaterThanOrEqual(2);
    expect(refused[0]).toEqual({ action: 'content.application.create', outcome: 'failure', detail: '当前账号无权限' });
  });

  it('lists every application, recommended or not, in display order', async () => {
    const apps = await list();
    expect(apps.length).toBe(10);
    expect(apps.filter((a) => a.recommended)).toHaveLength(8);
    expect(apps.map((a) => a.sort)).toEqual([...apps.map((a) => a.sort)].sort((a, b) => a - b));
    expect(apps[0]).toMatchObject({ name: '设备看板', status: 'published', recommended: true });
  });

  it('creates at the end, sanitises the detail, shows it publicly at once, updates keeping the uuid, audits', async () => {
    const created = await call('POST', BASE, operator, input);
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().msg).toBe('应用已创建');
    const app = created.json().data[0] as AdminApp;
    expect(app.applicationUuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(app.content).toContain('<strong>看板</strong>');
    expect(app.content).not.toContain('script');
    const apps = await list();
    expect(apps.at(-1)?.applicationUuid).toBe(app.applicationUuid);
    expect(await publicRecommended()).toContain(app.applicationUuid);
    const detail = await t.app.inject({ url: `/open-api/app/v1/dtl?appId=${app.applicationUuid}` });
    expect(detail.json().data[0]).toMatchObject({ name: '碳排放核算', imagePath: input.imagePath });

    const updated = await call('PUT', `${BASE}/${app.applicationUuid}`, operator, {
      ...input,
      name: '碳排放核算与报告',
      recommended: false,
      status: 'offline',
    });
    expect(updated.json().data[0]).toMatchObject({ applicationUuid: app.applicationUuid, name: '碳排放核算与报告', recommended: false });
    expect(await publicRecommended()).not.toContain(app.applicationUuid);
    expect((await t.app.inject({ url: `/open-api/app/v1/dtl?appId=${app.applicationUuid}` })).statusCode).toBe(404);
    const all = (await t.app.inject({ url: '/open-api/app/v1/list' })).json().data as { applicationUuid: string }[];
    expect(all.map((a) => a.applicationUuid)).not.toContain(app.applicationUuid);

    const actions = await t.database.db
      .selectFrom('audit_log')
      .select(['action', 'target', 'outcome'])
      .where('username', '=', 'operator')
      .where('action', 'like', 'content.application.%')
      .execute();
    expect(actions).toEqual(
      expect.arrayContaining([
        { action: 'content.application.create', target: '碳排放核算', outcome: 'success' },
        { action: 'content.application.update', target: '碳排放核算与报告', outcome: 'success' },
      ]),
    );
  });

  it('reorders with the full list; the public list follows; a stale or partial list is refused', async () => {
    const apps = await list();
    const reversed = apps.map((a) => a.applicationUuid).reverse();
    const res = await call('PUT', `${BASE}/order`, operator, { uuids: reversed });
    expect(res.json().msg, res.body).toBe('顺序已保存');
    expect((await list()).map((a) => a.applicationUuid)).toEqual(reversed);
    const recommendedInOrder = reversed.filter((u) => apps.find((a) => a.applicationUuid === u)?.recommended);
    expect(await publicRecommended()).toEqual(recommendedInOrder);

    const partial = await call('PUT', `${BASE}/order`, operator, { uuids: reversed.slice(1) });
    expect(partial.statusCode).toBe(409);
    expect(partial.json()).toEqual({ code: 1, msg: '应用列表已变化，请刷新后重试' });
    const duplicated = await call('PUT', `${BASE}/order`, operator, { uuids: [reversed[0], ...reversed.slice(0, -1)] });
    expect(duplicated.json()).toEqual({ code: 1, msg: '排序列表中有重复的应用' });
    expect((await list()).map((a) => a.applicationUuid)).toEqual(reversed);
  });

  it('refuses deleting a listed application; deletes it once offline', async () => {
    const apps = await list();
    const listed = apps.find((a) => a.status === 'published');
    const offline = apps.find((a) => a.status === 'offline');
    if (!listed || !offline) throw new Error('fixture missing');
    const refused = await call('DELETE', `${BASE}/${listed.applicationUuid}`, operator);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ code: 1, msg: '应用已上架，请先下架再删除' });
    expect((await list()).length).toBe(apps.length);
    const deleted = await call('DELETE', `${BASE}/${offline.applicationUuid}`, operator);
    expect(deleted.json().msg).toBe('应用已删除');
    expect((await list()).map((a) => a.applicationUuid)).not.toContain(offline.applicationUuid);
    expect((await call('DELETE', `${BASE}/${offline.applicationUuid}`, operator)).statusCode).toBe(404);
  });

  it.each([
    [{ name: '  ' }, '请输入应用名称'],
    [{ applicationDescription: '' }, '请输入应用简介'],
    [{ imagePath: '' }, '请上传应用图片'],
    [{ imagePath: 'javascript:alert(1)' }, '应用图片地址格式不正确'],
    [{ imagePath: '/uploads/../../etc/passwd' }, '应用图片地址格式不正确'],
    [{ iconPath: 'data:image/png;base64,AAAA' }, '应用图标地址格式不正确'],
    [{ category: ' ' }, '请输入应用分类'],
    [{ provider: '' }, '请输入提供方'],
    [{ name: '设备看板' }, '应用名称已存在'],
    [{ name: '长'.repeat(65) }, '请求体 name 长度不正确'],
    [{ status: 'deleted' }, '请求体 status 取值不正确'],
    [{ recommended: 'yes' }, '请求体 recommended 类型不正确'],
  ])('refuses %o with a Chinese message and writes nothing', async (patch, msg) => {
    const before = await count();
    const res = await call('POST', BASE, operator, { ...input, name: '新应用', ...patch });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(res.json()).toEqual({ code: 1, msg });
    expect(await count()).toBe(before);
  });
});
