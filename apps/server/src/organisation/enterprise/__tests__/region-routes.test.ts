import type { RegionOption } from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../testing/test-app.js';

// The options come from a package, not from the database: one dialect is enough.
describe('所在地区 options (GET /web-api/portal/v1/regions)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(() => t.close());

  it('answers provinces with their cities to visitors, six-digit codes, cached a day', async () => {
    const res = await t.app.inject({ url: '/web-api/portal/v1/regions' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=86400, s-maxage=86400, stale-while-revalidate=86400');
    const { code, data } = res.json() as { code: number; data: Required<RegionOption>[] };
    expect(code).toBe(20200);
    // 34 provincial divisions, 江苏省 with its 13 cities in code order.
    expect(data).toHaveLength(34);
    const jiangsu = data.find((p) => p.code === '320000');
    expect(jiangsu?.name).toBe('江苏省');
    expect(jiangsu?.children.map((c) => c.name)).toEqual([
      '南京市',
      '无锡市',
      '徐州市',
      '常州市',
      '苏州市',
      '南通市',
      '连云港市',
      '淮安市',
      '盐城市',
      '扬州市',
      '镇江市',
      '泰州市',
      '宿迁市',
    ]);
    expect(jiangsu?.children[2]).toEqual({ code: '320300', name: '徐州市' });
    for (const province of data) {
      expect(province.code, province.name).toMatch(/^\d{2}0000$/);
      expect(province.children.length, province.name).toBeGreaterThan(0);
      for (const city of province.children) {
        expect(city.code.slice(0, 2), city.name).toBe(province.code.slice(0, 2));
        expect(city.code, city.name).toMatch(/^\d{6}$/);
        expect(city.code.endsWith('0000'), city.name).toBe(false);
      }
    }
    const codes = data.flatMap((p) => p.children.map((c) => c.code));
    expect(new Set(codes).size).toBe(codes.length);
    // A 直辖市 has one city: itself, on its districts' parent code.
    for (const [province, city] of [
      ['北京市', '110100'],
      ['天津市', '120100'],
      ['上海市', '310100'],
      ['重庆市', '500100'],
    ]) {
      expect(data.find((p) => p.name === province)?.children, province).toEqual([{ code: city, name: province }]);
    }

    const again = await t.app.inject({ url: '/web-api/portal/v1/regions', headers: { 'if-none-match': String(res.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect(again.headers['cache-control']).toBe(res.headers['cache-control']);
  });
});
