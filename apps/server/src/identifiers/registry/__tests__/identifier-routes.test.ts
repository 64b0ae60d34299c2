import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';
import { queryPlan } from '../../../testing/query-plan.js';

const HANDLE = '88.118.8/EX-2024-000123';
const ISO_SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

interface HandleValue {
  index: number;
  type: string;
  data: { format: string; value: unknown };
  ttl: number;
  timestamp: string;
}

describe.each(testDialects())('identifier resolution on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const query = (handle: string) => t.app.inject({ url: `/web-api/portal/v1/identity/query?handle=${encodeURIComponent(handle)}` });
  const handleApi = (path: string) => t.app.inject({ url: `/api/handles/${path}` });

  describe('GET /web-api/portal/v1/identity/query', () => {
    it('answers the record joined with its template (spec section 3, "Identity record from lookup")', async () => {
      const res = await query(HANDLE);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body.code).toBe(20200);
      expect(body.data).toHaveLength(1);
      const [entry] = body.data;
      expect(entry.identity.handle).toBe(HANDLE);
      const byType = Object.fromEntries(entry.identity.value.map((v: { type: string; data: { value: string } }) => [v.type, v.data.value]));
      expect(byType).toMatchObject({
        productName: '中型履带式液压挖掘机',
        productModel: 'HY-E215',
        productionDate: '2024-11-19',
        manufacturer: '徐州恒岳重工机械有限公司',
        serviceHotline: '0516-87886000',
      });
      // Only item values (strings): HS_ADMIN and TEMPLATE belong to the Handle API.
      expect(
        entry.identity.value.every((v: { index: number; data: { format: string } }) => v.index >= 2000 && v.data.format === 'string'),
      ).toBe(true);
      expect(entry.template.name).toBe('工程机械整机');
      expect(entry.template.version).toBe(1);
      expect(entry.template.items.map((i: { name: string }) => i.name)).toEqual([
        '产品名称',
        '产品型号',
        '出厂编号',
        '生产日期',
        '生产厂家',
        '生产工厂',
        '主要参数',
        '发动机型号',
        '质保期',
        '售后电话',
        '服务网点',
      ]);
      expect(entry.template.items[0]).toEqual({ name: '产品名称', idType: 'productName', idIndex: 2000 });
    });

    it('answers an empty list for an identifier that does not exist, and for a prefix nobody holds (no upstream configured)', async () => {
      for (const handle of ['88.118.8/EX-2024-999999', '88.999.1/ANY-1']) {
        const res = await query(handle);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ code: 20200, msg: '未找到该标识', data: [] });
      }
    });

    it('trims the typed identifier', async () => {
      expect((await query(`  ${HANDLE} `)).json().data[0].identity.handle).toBe(HANDLE);
    });

    it('refuses malformed identifiers with code 1 and a Chinese message, never a 500', async () => {
      const cases: [string, string][] = [
        ['', '请输入标识'],
        ['   ', '请输入标识'],
        ['88.118.8EX-1', '标识格式不正确：应为“前缀/后缀”，如 88.118.8/EX-2024-000123'],
        ['88.118.8/', '标识后缀不能为空'],
        ['/EX-1', '标识前缀不能为空'],
        ['88.118.8/EX\u0000-1', '查询参数 handle 含有不允许的控制字符'],
        ['88.118.8/EX\u001b[31m', '查询参数 handle 含有不允许的控制字符'],
        ['88.118.8/EX\u0085', '标识不能包含控制字符'],
        [`88.118.8/${'A'.repeat(247)}`, '标识过长：最多 255 个字符'],
        ['88..118/EX-1', '标识前缀格式不正确：应为以点分隔的数字或字母，如 88.118.8'],
        ['88 118/EX-1', '标识前缀格式不正确：应为以点分隔的数字或字母，如 88.118.8'],
        ['88.118.8/../admin', '标识后缀格式不正确：不能含有“.”或“..”路径段'],
      ];
      for (const [handle, msg] of cases) {
        const res = await query(handle);
        expect(res.statusCode, handle).toBe(400);
        expect(res.json(), handle).toEqual({ code: 1, msg });
      }
      const missing = await t.app.inject({ url: '/web-api/portal/v1/identity/query' });
      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toEqual({ code: 1, msg: '缺少必填查询参数 handle' });
      const huge = await query(`88.1/${'x'.repeat(2000)}`);
      expect(huge.statusCode).toBe(400);
      expect(huge.json().code).toBe(1);
    });
  });

  describe('GET /api/handles/{handle} (Handle.net JSON API)', () => {
    it('answers HS_ADMIN at 100, TEMPLATE at 1001 and the items from 2000 with ttl and ISO timestamps', async () => {
      const res = await handleApi(HANDLE);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      const body = res.json();
      expect(body.responseCode).toBe(1);
      expect(body.handle).toBe(HANDLE);
      const values: HandleValue[] = body.values;
      expect(values[0]).toEqual({
        index: 100,
        type: 'HS_ADMIN',
        data: { format: 'admin', value: { handle: '0.NA/88.118.8', index: 200, permissions: '011111110011' } },
        ttl: 86400,
        timestamp: '2024-11-19T02:00:00Z',
      });
      expect(values[1]).toMatchObject({ index: 1001, type: 'TEMPLATE', data: { format: 'string', value: '工程机械整机 v1' } });
      expect(values[2]).toMatchObject({
        index: 2000,
        type: 'productName',
        data: { format: 'string', value: '中型履带式液压挖掘机' },
        ttl: 86400,
      });
      expect(values.map((v) => v.index)).toEqual([100, 1001, ...values.slice(2).map((_, i) => 2000 + i)]);
      for (const v of values) expect(v.timestamp).toMatch(ISO_SECONDS);
    });

    it('takes the slash raw or as %2F', async () => {
      const raw = (await handleApi(HANDLE)).json();
      const encoded = await handleApi(encodeURIComponent(HANDLE));
      expect(encoded.statusCode).toBe(200);
      expect(encoded.json()).toEqual(raw);
    });

    it('filters by type= and index=, repeatable and OR-ed; types ignore ASCII case', async () => {
      const types = (await handleApi(`${HANDLE}?type=productModel&type=SERVICEHOTLINE`)).json();
      expect(types.responseCode).toBe(1);
      expect(types.values.map((v: HandleValue) => v.type)).toEqual(['productModel', 'serviceHotline']);
      const indexes = (await handleApi(`${HANDLE}?index=100&index=1001`)).json();
      expect(indexes.values.map((v: HandleValue) => v.type)).toEqual(['HS_ADMIN', 'TEMPLATE']);
      const either = (await handleApi(`${HANDLE}?type=productModel&index=100`)).json();
      expect(either.values.map((v: HandleValue) => v.index)).toEqual([100, 2001]);
    });

    it('answers 200 "values not found" when no value matches the filters', async () => {
      const res = await handleApi(`${HANDLE}?type=URL`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ responseCode: 200, handle: HANDLE, values: [] });
    });

    it('answers 100 (404) for an unknown handle and 102 (400) for a malformed one', async () => {
      const missing = await handleApi('88.118.8/NOPE-1');
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ responseCode: 100, handle: '88.118.8/NOPE-1', message: '标识不存在' });
      for (const [path, message] of [
        ['88.118.8', '标识格式不正确：应为“前缀/后缀”，如 88.118.8/EX-2024-000123'],
        ['88.118.8%2F', '标识后缀不能为空'],
        ['88.118.8/A%00B', '请求地址含有不允许的控制字符'],
        [`88.118.8/${'B'.repeat(250)}`, '标识过长：最多 255 个字符'],
      ]) {
        const res = await handleApi(path!);
        expect(res.statusCode, path).toBe(400);
        expect(res.json().responseCode, path).toBe(102);
        expect(res.json().message, path).toBe(message);
      }
      const empty = await handleApi('');
      expect(empty.statusCode).toBe(400);
      expect(empty.json()).toMatchObject({ responseCode: 102, message: '请输入标识' });
    });

    it("answers a malformed %-escape in Handle form (the portal's other paths in the envelope)", async () => {
      const res = await handleApi('88.118.8/EX%E4%B8');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ responseCode: 102, message: '标识含有无法解码的 % 编码' });
      const other = await t.app.inject({ url: '/open-api/cms/v1/article/%E4%B8/detail' });
      expect(other.statusCode).toBe(400);
      expect(other.json()).toEqual({ code: 1, msg: '请求地址格式不正确' });
    });

    it('answers a bad index filter in Handle form, not a 500', async () => {
      const res = await handleApi(`${HANDLE}?index=abc`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ responseCode: 2, message: '查询参数 index 须为非负整数' });
    });
  });

  describe('HTTP caching', () => {
    // Browsers only: a lookup a shared cache answered would never reach the node's 标识统计.
    const KEEP_TTL = 'private, max-age=86400';
    const KEEP_NOT_FOUND = 'private, max-age=60';

    it("lets clients, never shared caches, keep a found identifier for its values' ttl, and 'not found' for a minute", async () => {
      for (const url of [
        `/web-api/portal/v1/identity/query?handle=${HANDLE}`,
        `/api/handles/${HANDLE}`,
        `/api/handles/${HANDLE}?type=URL`,
      ]) {
        const res = await t.app.inject({ url });
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['cache-control'], url).toBe(KEEP_TTL);
      }
      expect((await query('88.118.8/EX-2024-999999')).headers['cache-control']).toBe(KEEP_NOT_FOUND);
      const missing = await handleApi('88.118.8/NOPE-1');
      expect(missing.statusCode).toBe(404);
      expect(missing.headers['cache-control']).toBe(KEEP_NOT_FOUND);
    });

    it('never keeps malformed identifiers or errors', async () => {
      for (const res of [
        await query('88.118.8EX-1'),
        await t.app.inject({ url: '/web-api/portal/v1/identity/query' }),
        await handleApi('88.118.8'),
        await handleApi(`${HANDLE}?index=abc`),
        await handleApi('88.118.8/EX%E4%B8'),
      ]) {
        expect(res.statusCode).toBe(400);
        expect(res.headers['cache-control']).toBe('private, no-store');
      }
    });

    it('answers 304 to a matching If-None-Match on both routes', async () => {
      for (const url of [`/web-api/portal/v1/identity/query?handle=${HANDLE}`, `/api/handles/${HANDLE}`, '/api/handles/88.118.8/NOPE-1']) {
        const first = await t.app.inject({ url });
        const etag = first.headers.etag;
        expect(etag, url).toMatch(/^(W\/)?".+"$/);
        const again = await t.app.inject({ url, headers: { 'if-none-match': String(etag) } });
        expect(again.statusCode, url).toBe(304);
        expect(again.body, url).toBe('');
        const changed = await t.app.inject({ url, headers: { 'if-none-match': '"another"' } });
        expect(changed.statusCode, url).toBe(first.statusCode);
        expect(changed.body, url).toBe(first.body);
      }
    });
  });

  describe('a record written with INSERT … RETURNING resolves in the same turn as the write answers', () => {
    let staff: string;
    let machinery: number;
    const values = (n: string) => ({
      productName: '小型履带式液压挖掘机',
      productModel: 'HY-E60',
      serialNumber: `SN-${n}`,
      productionDate: '2025-03-18',
      manufacturer: '徐州恒岳重工机械有限公司',
      warrantyPeriod: '36个月',
      serviceHotline: '0516-87886000',
    });
    beforeAll(async () => {
      staff = await tokenFor(t, 'staff');
      const templates = (await t.app.inject({ url: '/web-api/identity/v1/template/list', headers: { authorization: staff } })).json().data;
      machinery = templates.find((x: { name: string }) => x.name === '工程机械整机').id;
    });

    /** Both lookups of `handle`, started as soon as `write` answers, with nothing awaited in between. */
    const resolvedAtOnce = async (handle: string, write: Promise<{ statusCode: number; body: string }>) => {
      // Lookups running while the write does may see either state; they keep the read path busy.
      const during = Promise.all(Array.from({ length: 10 }, () => query(handle)));
      const [portal, handleAnswer] = await write.then((res) => {
        expect(res.statusCode, res.body).toBe(200);
        return Promise.all([query(handle), handleApi(handle)]);
      });
      await during;
      expect(portal.json().data[0]?.identity.handle).toBe(handle);
      expect(handleAnswer.statusCode).toBe(200);
      expect(handleAnswer.json().handle).toBe(handle);
    };

    it('after a record is created in the console', async () => {
      const write = t.app.inject({
        method: 'POST',
        url: '/web-api/identity/v1/record',
        headers: { 'x-requested-with': 'XMLHttpRequest', authorization: staff },
        payload: { prefix: '88.118.8', suffix: 'TURN-0001', templateId: machinery, values: values('0001') },
      });
      await resolvedAtOnce('88.118.8/TURN-0001', write);
    });

    it('after a CSV import', async () => {
      // Importing is for administrators (identifier:record:manage).
      const admin = await tokenFor(t, 'admin');
      const boundary = '----same-turn';
      const csv = [
        '标识后缀,产品名称,产品型号,出厂编号,生产日期,生产厂家,质保期,售后电话',
        'TURN-0002,挖掘机,HY-E60,SN-2,2025-03-18,恒岳,36个月,0516',
      ].join('\r\n');
      const write = t.app.inject({
        method: 'POST',
        url: `/web-api/identity/v1/record/import?templateId=${machinery}`,
        headers: {
          'x-requested-with': 'XMLHttpRequest',
          authorization: admin,
          'content-type': `multipart/form-data; boundary=${boundary}`,
        },
        payload: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="r.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`,
      });
      await resolvedAtOnce('88.118.8/TURN-0002', write);
    });
  });

  it('finds a handle through the unique index, never a scan of the records', async () => {
    const db = t.database.db;
    const compiled = db.selectFrom('idf_record').select(['item_values']).where('handle', '=', HANDLE).compile();
    const plan = await queryPlan(db, dialect, compiled);
    if (dialect === 'sqlite') expect(plan).toMatch(/SEARCH idf_record USING INDEX sqlite_autoindex_idf_record_\d+ \(handle=\?\)/);
    else expect(plan).toMatch(/Index Scan using idf_record_handle_key on idf_record/);
    expect(plan).not.toMatch(/SCAN idf_record\b|Seq Scan/);
  });
});
