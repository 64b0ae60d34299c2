import { IdentifierStatsMessage, type IdentifierStats, STATS_EXPORT_TABLES } from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chinaDate } from '../../../platform/lib/china-time.js';
import { fakeUpstream } from '../../../testing/handle-upstream.js';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';

const FOUND = '88.118.8/EX-2024-000123';
const RUICHI_FOUND = '88.118.16/HP-2024-000101';
/** Known public addresses of Chinese networks: Guangdong Telecom's and Beijing Unicom's DNS servers. */
const GUANGDONG_IP = '202.96.128.86';
const BEIJING_IP = '202.106.0.20';

/** A CSV answer as rows of fields (the export quotes none of these). */
function csvRows(body: string): string[][] {
  expect(body.charCodeAt(0)).toBe(0xfeff);
  return body
    .slice(1)
    .split('\r\n')
    .filter((line) => line !== '')
    .map((line) => line.split(','));
}

describe.each(testDialects())('标识统计 on %s', (dialect) => {
  let t: TestApp;
  let upstream: Awaited<ReturnType<typeof fakeUpstream>>;
  let admin: string;
  let rcadmin: string;
  let operator: string;

  beforeAll(async () => {
    // The upstream resolver knows 88.200.1/KNOWN only.
    upstream = await fakeUpstream((req, res) => {
      const known = req.url === '/api/handles/88.200.1/KNOWN';
      res.writeHead(known ? 200 : 404, { 'content-type': 'application/json' }).end(
        JSON.stringify(
          known
            ? {
                responseCode: 1,
                handle: '88.200.1/KNOWN',
                values: [{ index: 2000, type: 'productName', data: { format: 'string', value: '泵' }, ttl: 60 }],
              }
            : { responseCode: 100, message: 'Handle Not Found' },
        ),
      );
    });
    // Behind one proxy (nginx): the client is the address it forwards.
    t = await createTestApp(dialect, { TRUST_PROXY: '1', HANDLE_UPSTREAM_URL: upstream.url });
    [admin, rcadmin, operator] = await Promise.all([tokenFor(t, 'admin'), tokenFor(t, 'rcadmin'), tokenFor(t, 'operator')]);
  });
  afterAll(async () => {
    await t?.close();
    await upstream?.close();
  });

  const lookup = (url: string, from = GUANGDONG_IP) => t.app.inject({ url, headers: { 'x-forwarded-for': from } });
  const query = (handle: string, extra = '', from?: string) =>
    lookup(`/web-api/portal/v1/identity/query?handle=${encodeURIComponent(handle)}${extra}`, from);
  const get = (token: string, url: string) => t.app.inject({ url, headers: { authorization: token } });
  const stats = async (token: string, params = 'days=7'): Promise<IdentifierStats> => {
    const res = await get(token, `/web-api/identity/v1/stats?${params}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    return res.json().data[0];
  };
  const exported = async (token: string, table: string, params = 'days=7') => {
    const res = await get(token, `/web-api/identity/v1/stats/export?table=${table}&${params}`);
    expect(res.statusCode, res.body).toBe(200);
    return res;
  };
  /** Lookups per first column of an exported table (handles, regions, …). */
  const counts = async (token: string, table: string, params?: string) =>
    new Map(
      (await csvRows((await exported(token, table, params)).body)).slice(1).map((row) => [row.slice(0, -1).join(','), Number(row.at(-1))]),
    );
  const todayOf = (s: IdentifierStats) => s.daily.find((d) => d.day === chinaDate(new Date()))!;

  it('counts every lookup by channel: 网页查询, 扫码 (src=qr), Handle API and 上游转发, whichever route the upstream answered on', async () => {
    const before = todayOf(await stats(operator));
    for (const res of [
      await query(FOUND),
      await query(FOUND, '&src=qr'),
      await query(FOUND, '&src=qr'),
      await lookup(`/api/handles/${FOUND}`),
      await query('88.200.1/KNOWN'),
      await lookup('/api/handles/88.200.1/KNOWN'),
      await query('88.200.1/UNKNOWN'),
    ]) {
      expect(res.statusCode).toBeLessThan(500);
    }
    // Written within the flush interval (a second in tests), once.
    await expect.poll(async () => todayOf(await stats(operator)).upstream, { timeout: 5000 }).toBe(before.upstream + 3);
    expect(todayOf(await stats(operator))).toEqual({
      day: chinaDate(new Date()),
      web: before.web + 1,
      qr: before.qr + 2,
      api: before.api + 1,
      upstream: before.upstream + 3,
    });
  });

  it('never counts the server renderer’s lookups', async () => {
    const before = await counts(operator, 'handles');
    await t.app.inject({
      url: `/web-api/portal/v1/identity/query?handle=${encodeURIComponent(FOUND)}`,
      headers: { 'x-portal-render': '1' },
    });
    await query(FOUND);
    await expect.poll(async () => (await counts(operator, 'handles')).get(FOUND), { timeout: 5000 }).toBe((before.get(FOUND) ?? 0) + 1);
  });

  it('counts the province of the client’s address, 内网 for the operator’s own network and 未知 for addresses outside China', async () => {
    const before = await counts(operator, 'regions');
    await query(FOUND, '', GUANGDONG_IP);
    await query(FOUND, '', BEIJING_IP);
    await query(FOUND, '', BEIJING_IP);
    await query(FOUND, '', '192.168.10.7');
    await lookup(`/api/handles/${FOUND}`, '8.8.8.8');
    // No proxy header: the socket's address (loopback).
    await t.app.inject({ url: `/api/handles/${FOUND}`, remoteAddress: '127.0.0.1' });
    const regions = ['广东', '北京', '内网', '未知'];
    const added = [1, 2, 2, 1];
    await expect
      .poll(
        async () => {
          const after = await counts(operator, 'regions');
          return regions.map((region) => (after.get(region) ?? 0) - (before.get(region) ?? 0));
        },
        { timeout: 5000 },
      )
      .toEqual(added);
    const ranking = (await stats(operator)).regions;
    expect(ranking.map((r) => r.lookups)).toEqual([...ranking.map((r) => r.lookups)].sort((a, b) => b - a));
    expect(ranking.every((r) => ['内网', '未知'].includes(r.region) || /^[\u4e00-\u9fa5]{2,3}$/.test(r.region))).toBe(true);
  });

  it('counts found, not found and malformed lookups for the prefix they name, and lists the handles people mistype', async () => {
    const before = await stats(admin);
    const missingBefore = await counts(admin, 'missing');
    await query('88.118.8/NO-SUCH-1');
    await query('88.118.8/NO-SUCH-1');
    await lookup('/api/handles/88.118.8/NO-SUCH-1');
    // Malformed, the prefix readable: an empty suffix.
    expect((await query('88.118.8/')).statusCode).toBe(400);
    // Malformed with no prefix to read: the node's, never an owner's.
    expect((await query('EX-2024-000123')).statusCode).toBe(400);
    expect((await lookup('/api/handles/88.118.8')).statusCode).toBe(400);
    await query(FOUND);

    await expect.poll(async () => (await stats(admin)).totals.lookups, { timeout: 5000 }).toBe(before.totals.lookups + 5);
    const after = await stats(admin);
    expect(after.totals).toMatchObject({
      found: before.totals.found + 1,
      notFound: before.totals.notFound + 3,
      malformed: before.totals.malformed + 1,
    });
    expect(after.totals.notFoundRate).toBeCloseTo((after.totals.notFound + after.totals.malformed) / after.totals.lookups, 10);
    const missing = await counts(admin, 'missing');
    expect(missing.get('88.118.8/NO-SUCH-1,未找到')).toBe((missingBefore.get('88.118.8/NO-SUCH-1,未找到') ?? 0) + 3);
    expect(missing.get('88.118.8/,格式错误')).toBe((missingBefore.get('88.118.8/,格式错误') ?? 0) + 1);
    expect([...missing.keys()].some((k) => k.startsWith('EX-2024-000123,'))).toBe(false);
    // The node sees the unparsable ones too.
    const node = await counts(operator, 'missing');
    expect(node.get('EX-2024-000123,格式错误')).toBeGreaterThanOrEqual(1);
    expect(node.get('88.118.8,格式错误')).toBeGreaterThanOrEqual(1);
    expect(after.topMissing.length).toBeGreaterThan(0);
    expect(after.topMissing.every((m) => m.handle.startsWith('88.118.8/') && m.outcome !== ('found' as string))).toBe(true);
  });

  it('keeps the most looked-up identifiers and the values of items marked 计入统计 (产品型号)', async () => {
    const handlesBefore = await counts(admin, 'handles');
    const valuesBefore = await counts(admin, 'values');
    const answer = (await query(FOUND)).json().data[0];
    const model = answer.identity.value.find((v: { type: string }) => v.type === 'productModel').data.value as string;
    for (let i = 0; i < 3; i++) await query(FOUND);
    await expect.poll(async () => (await counts(admin, 'handles')).get(FOUND), { timeout: 5000 }).toBe((handlesBefore.get(FOUND) ?? 0) + 4);
    const values = await counts(admin, 'values');
    expect(values.get(`产品型号,${model}`)).toBe((valuesBefore.get(`产品型号,${model}`) ?? 0) + 4);
    // Items not marked are not kept.
    expect([...values.keys()].every((k) => k.startsWith('产品型号,'))).toBe(true);
    const s = await stats(admin);
    expect(s.topHandles.length).toBeGreaterThan(0);
    expect(s.topHandles.length).toBeLessThanOrEqual(10);
    expect(s.topValues.every((v) => v.item === '产品型号')).toBe(true);
    expect(s.topHandles.map((h) => h.lookups)).toEqual([...s.topHandles.map((h) => h.lookups)].sort((a, b) => b - a));
  });

  it('shows an owner its own prefixes only; an operator the whole node', async () => {
    const ruichiBefore = await stats(rcadmin);
    const ruichiHandles = await counts(rcadmin, 'handles');
    await query(RUICHI_FOUND);
    await query('88.118.8/ONLY-HENGYUE-1');
    await query(FOUND);
    await expect.poll(async () => (await stats(rcadmin)).totals.lookups, { timeout: 5000 }).toBe(ruichiBefore.totals.lookups + 1);
    const ruichi = await stats(rcadmin);
    expect(ruichi.scope).toBe('owner');
    expect(ruichi.prefixes).toEqual(['88.118.16']);
    expect(ruichi.totals.found).toBe(ruichiBefore.totals.found + 1);
    const handles = await counts(rcadmin, 'handles');
    expect(handles.get(RUICHI_FOUND)).toBe((ruichiHandles.get(RUICHI_FOUND) ?? 0) + 1);
    for (const table of STATS_EXPORT_TABLES.filter((x) => x === 'handles' || x === 'missing')) {
      const keys = [...(await counts(rcadmin, table)).keys()];
      expect(keys.every((k) => k.startsWith('88.118.16/'))).toBe(true);
    }
    expect([...ruichi.topHandles, ...ruichi.topMissing].every((h) => h.handle.startsWith('88.118.16/'))).toBe(true);
    // Another enterprise's prefix is refused as if it did not exist.
    const other = await get(rcadmin, '/web-api/identity/v1/stats?days=7&prefix=88.118.8');
    expect(other.statusCode).toBe(400);
    expect(other.json()).toEqual({ code: 1, msg: IdentifierStatsMessage.badPrefix });
    const otherExport = await get(rcadmin, '/web-api/identity/v1/stats/export?table=handles&days=7&prefix=88.118.8');
    expect(otherExport.json()).toEqual({ code: 1, msg: IdentifierStatsMessage.badPrefix });

    const hengyue = await stats(admin);
    expect(hengyue.prefixes).toEqual(['88.118.8']);
    const node = await stats(operator);
    expect(node.scope).toBe('node');
    // Held prefixes and the ones looked up elsewhere; never the unparsable ''.
    expect(node.prefixes).toEqual(expect.arrayContaining(['88.118.16', '88.118.8', '88.200.1']));
    expect(node.prefixes).not.toContain('');
    expect(node.totals.lookups).toBeGreaterThan(hengyue.totals.lookups + ruichi.totals.lookups);
    // One prefix of the node.
    const narrowed = await stats(operator, 'days=7&prefix=88.118.16');
    expect(narrowed.totals).toEqual(ruichi.totals);
    expect(narrowed.daily).toEqual(ruichi.daily);
  });

  it('has every day of the range, zeros included, oldest first', async () => {
    for (const days of [7, 30, 90]) {
      const s = await stats(rcadmin, `days=${days}`);
      expect(s.daily).toHaveLength(days);
      expect(s.to).toBe(chinaDate(new Date()));
      expect(s.from).toBe(s.daily[0]!.day);
      expect(s.daily.map((d) => d.day)).toEqual([...s.daily.map((d) => d.day)].sort());
      expect(new Set(s.daily.map((d) => d.day)).size).toBe(days);
    }
  });

  it('exports each table as CSV with Chinese headers, a BOM and the range in its file name', async () => {
    const s = await stats(admin);
    const daily = await exported(admin, 'daily');
    expect(daily.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(daily.headers['content-disposition']).toBe(
      `attachment; filename=identifier-stats-daily-${s.from}-${s.to}.csv; filename*=UTF-8''${encodeURIComponent(`标识统计-daily-${s.from}-${s.to}.csv`)}`,
    );
    const rows = csvRows(daily.body);
    expect(rows[0]).toEqual(['日期', '网页查询', '扫码', 'Handle API', '上游转发', '合计']);
    expect(rows.slice(1)).toEqual(
      s.daily.map((d) => [
        d.day,
        String(d.web),
        String(d.qr),
        String(d.api),
        String(d.upstream),
        String(d.web + d.qr + d.api + d.upstream),
      ]),
    );
    expect(csvRows((await exported(admin, 'regions')).body)[0]).toEqual(['地区', '查询次数']);
    const handles = csvRows((await exported(admin, 'handles')).body);
    expect(handles[0]).toEqual(['标识', '查询次数']);
    expect(handles.slice(1, 11).map(([handle, n]) => ({ handle, lookups: Number(n) }))).toEqual(s.topHandles);
    expect(csvRows((await exported(admin, 'values')).body)[0]).toEqual(['数据项', '值', '查询次数']);
    const missing = csvRows((await exported(admin, 'missing')).body);
    expect(missing[0]).toEqual(['标识', '结果', '查询次数']);
    expect(missing.slice(1).every(([, outcome]) => outcome === '未找到' || outcome === '格式错误')).toBe(true);
  });

  it('answers 400 with the shared messages for an invalid range, prefix or table, on both routes', async () => {
    for (const params of ['', 'days=0', 'days=8', 'days=365', 'days=abc', 'days=7.5']) {
      for (const url of [`/web-api/identity/v1/stats?${params}`, `/web-api/identity/v1/stats/export?table=daily&${params}`]) {
        const res = await get(operator, url);
        expect(res.statusCode, url).toBe(400);
        expect(res.json(), url).toEqual({ code: 1, msg: IdentifierStatsMessage.badRange });
      }
    }
    for (const prefix of ['99.999.9', 'x'.repeat(300)]) {
      const res = await get(operator, `/web-api/identity/v1/stats?days=30&prefix=${prefix}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ code: 1, msg: IdentifierStatsMessage.badPrefix });
    }
    for (const table of ['', 'everything', 'DAILY']) {
      const res = await get(operator, `/web-api/identity/v1/stats/export?days=7&table=${table}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ code: 1, msg: IdentifierStatsMessage.badTable });
    }
    expect((await get(operator, '/web-api/identity/v1/stats/export?days=7')).json()).toEqual({
      code: 1,
      msg: IdentifierStatsMessage.badTable,
    });
  });

  it('is for holders of identifier:stats only', async () => {
    expect((await t.app.inject({ url: '/web-api/identity/v1/stats?days=7' })).statusCode).toBe(401);
    // 员工 of 恒岳 registers identifiers but sees no statistics.
    const staff = await get(await tokenFor(t, 'staff'), '/web-api/identity/v1/stats?days=7');
    expect(staff.statusCode).toBe(403);
  });
});
