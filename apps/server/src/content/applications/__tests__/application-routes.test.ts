import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects } from '../../../testing/test-app.js';

describe.each(testDialects())('applications on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it('lists the recommended applications with the fields the carousel uses', async () => {
    const res = await t.app.inject({ url: '/web-api/iip-operate/recommendCenter/list' });
    const body = res.json();
    expect(body.code).toBe(20200);
    expect(body.data).toHaveLength(8);
    expect(body.data[0]).toEqual({
      applicationUuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: '设备看板',
      applicationDescription: expect.stringContaining('设备运行状态'),
      imagePath: '/demo/app-1.svg',
      iconPath: '/demo/icon-app.svg',
      category: '数据可视化',
      provider: 'Engineering e+ 平台',
    });
  });

  it('lists every published application and answers one by uuid', async () => {
    const all = (await t.app.inject({ url: '/open-api/app/v1/list' })).json().data;
    expect(all.length).toBeGreaterThanOrEqual(10);
    const res = await t.app.inject({ url: `/open-api/app/v1/dtl?appId=${all[1].applicationUuid}` });
    expect(res.json().data[0]).toMatchObject({ name: '智能运维', content: expect.stringContaining('<p>') });
  });

  it('lets shared caches keep the public reads for seconds and answers 304 while the ETag matches', async () => {
    const [first] = (await t.app.inject({ url: '/open-api/app/v1/list' })).json().data;
    for (const url of [
      '/web-api/iip-operate/recommendCenter/list',
      '/open-api/app/v1/list',
      `/open-api/app/v1/dtl?appId=${first.applicationUuid}`,
    ]) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('public, max-age=0, s-maxage=10, stale-while-revalidate=60');
      expect(res.headers.etag, url).toMatch(/^W\/"[^"]+"$/);
      const again = await t.app.inject({ url, headers: { 'if-none-match': String(res.headers.etag) } });
      expect(again.statusCode, url).toBe(304);
      expect(again.body, url).toBe('');
    }
    // A missing application is shared like one (a proxy drops the copy of one taken down).
    expect((await t.app.inject({ url: '/open-api/app/v1/dtl?appId=nope' })).headers['cache-control']).toMatch(
      /^public, max-age=0, s-maxage=\d+/,
    );
  });

  it('refuses an unknown or missing appId', async () => {
    const unknown = await t.app.inject({ url: '/open-api/app/v1/dtl?appId=nope' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ code: 1, msg: '应用不存在或已下架' });
    const missing = await t.app.inject({ url: '/open-api/app/v1/dtl' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ code: 1, msg: '缺少必填查询参数 appId' });
  });
});
