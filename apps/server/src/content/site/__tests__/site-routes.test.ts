import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoData } from '../../../seed/index.js';
import { createTestApp, type TestApp, testDialects } from '../../../testing/test-app.js';

describe.each(testDialects())('site info on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it('answers the header menu and footer in the envelope', async () => {
    const res = await t.app.inject({ url: '/web-api/portal/v1/site' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.code).toBe(20200);
    expect(body.data).toHaveLength(1);
    const site = body.data[0];
    expect(site.nav.map((n: { key: string }) => n.key)).toEqual([
      'center',
      'product',
      'service',
      'mark',
      'news',
      'knowledge',
      'settled',
      'remote',
    ]);
    expect(site.nav[0]).toEqual({ key: 'center', title: '首页' });
    expect(site.address).toMatch(/江苏省/);
    const legal = site.linkGroups.find((g: { title: string }) => g.title === '法律声明');
    expect(legal.links[0]).toEqual({ title: '用户协议', url: '/agreement.html' });
  });

  it('lets shared caches keep the site info for a minute and answers 304 while the ETag matches', async () => {
    const first = await t.app.inject({ url: '/web-api/portal/v1/site' });
    expect(first.headers['cache-control']).toBe('public, max-age=0, s-maxage=60, stale-while-revalidate=600');
    expect(first.headers.etag).toMatch(/^W\/"[^"]+"$/);
    const again = await t.app.inject({ url: '/web-api/portal/v1/site', headers: { 'if-none-match': String(first.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('seeding again changes nothing (idempotent)', async () => {
    const before = await t.app.inject({ url: '/web-api/portal/v1/site' });
    expect(await seedDemoData(t.database.db, t.config)).toEqual([]);
    const after = await t.app.inject({ url: '/web-api/portal/v1/site' });
    expect(after.json()).toEqual(before.json());
  });
});
