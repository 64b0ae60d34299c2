import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects } from '../../../testing/test-app.js';

describe.each(testDialects())('home blocks on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it('answers banners, quick links, awards and KPI tiles', async () => {
    const res = await t.app.inject({ url: '/web-api/portal/v1/home' });
    const home = res.json().data[0];
    expect(home.banners).toHaveLength(3);
    expect(home.banners[0]).toEqual({
      title: '工业互联网平台 赋能智能制造',
      subtitle: expect.any(String),
      icon: '/demo/banner-1.svg',
      linkUrl: '/settled',
      openUrlFlag: 0,
    });
    expect(home.kpis[0]).toEqual({ image: '/demo/icon-device.svg', kpi: '130', uom: '万台', name: '接入设备' });
    expect(home.awards).toHaveLength(4);
    expect(home.links).toHaveLength(4);
  });

  it('lets shared caches keep the home blocks for a minute and answers 304 while the ETag matches', async () => {
    const first = await t.app.inject({ url: '/web-api/portal/v1/home' });
    expect(first.headers['cache-control']).toBe('public, max-age=0, s-maxage=60, stale-while-revalidate=600');
    expect(first.headers.etag).toMatch(/^W\/"[^"]+"$/);
    const again = await t.app.inject({ url: '/web-api/portal/v1/home', headers: { 'if-none-match': String(first.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('serves the demo images under /files/ and keeps files from running script', async () => {
    const res = await t.app.inject({ url: '/files/demo/banner-1.svg' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(res.headers['content-security-policy']).toContain('sandbox');
    expect((await t.app.inject({ url: '/files/demo/none.svg' })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/files/../package.json' })).statusCode).toBe(404);
  });
});
