import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';

const ITEMS = [
  { name: '产品名称', idType: 'productName', required: true, metadata: { type: 'string', minLength: 1, maxLength: 20 } },
  { name: '出厂编号', idType: 'serialNumber', required: true, metadata: { type: 'string', minLength: 4, maxLength: 12 } },
  { name: '颜色', idType: 'color', required: false, metadata: { type: 'string', minLength: 1, maxLength: 8 } },
];

describe.each(testDialects())('identifier management API on %s', (dialect) => {
  let t: TestApp;
  let operator: string;
  let admin: string;
  let staff: string;
  let service: string;
  let hengyue: number;
  let ruichi: number;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    operator = await tokenFor(t, 'operator');
    admin = await tokenFor(t, 'admin');
    staff = await tokenFor(t, 'staff');
    service = await tokenFor(t, 'service');
    const enterprises = await t.database.db.selectFrom('enterprise').select(['id', 'name']).execute();
    hengyue = enterprises.find((e) => e.name === '徐州恒岳重工机械有限公司')!.id;
    ruichi = enterprises.find((e) => e.name === '常州瑞驰液压科技有限公司')!.id;
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token?: string, payload?: object) =>
    t.app.inject({
      method,
      url,
      headers: { 'x-requested-with': 'XMLHttpRequest', ...(token ? { authorization: token } : {}) },
      ...(payload ? { payload } : {}),
    });
  const count = async (table: 'idf_prefix' | 'idf_template' | 'idf_template_version' | 'idf_record') =>
    Number(
      (
        await t.database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const snapshot = async () => Promise.all((['idf_prefix', 'idf_template', 'idf_template_version', 'idf_record'] as const).map(count));
  const lookup = async (handle: string) =>
    (await t.app.inject({ url: `/web-api/portal/v1/identity/query?handle=${encodeURIComponent(handle)}` })).json().data;

  it('is closed to visitors (20300) and to accounts without an identifier authority (403)', async () => {
    expect((await call('GET', '/web-api/identity/v1/prefix/list')).json().code).toBe(20300);
    for (const url of ['/web-api/identity/v1/prefix/list', '/web-api/identity/v1/record/page/list', '/web-api/identity/v1/template/list']) {
      const denied = await call('GET', url, service);
      expect(denied.statusCode).toBe(403);
      expect(denied.json()).toEqual({ code: 1, msg: '当前账号无权限' });
    }
    // Staff manage records, not templates; only operators assign prefixes.
    expect((await call('POST', '/web-api/identity/v1/template', staff, { prefix: '88.118.8', name: 'x', items: ITEMS })).statusCode).toBe(
      403,
    );
    expect(
      (await call('POST', '/web-api/identity/v1/prefix', admin, { prefix: '88.118.9', name: 'x', enterpriseId: hengyue })).statusCode,
    ).toBe(403);
    expect((await call('GET', '/web-api/identity/v1/template/list', staff)).statusCode).toBe(200);
    // The authority is checked before the body: a malformed write from an account without it is a 403 too.
    expect((await call('POST', '/web-api/identity/v1/record', service, { nonsense: true })).statusCode).toBe(403);
    expect((await call('POST', '/web-api/identity/v1/template', staff, { items: 'not a list' })).statusCode).toBe(403);
  });

  describe('prefixes', () => {
    it('operators see every enterprise; enterprise users only their own', async () => {
      const all = (await call('GET', '/web-api/identity/v1/prefix/list', operator)).json().data;
      expect(all.map((p: { prefix: string }) => p.prefix)).toEqual(['88.118.16', '88.118.8']);
      const own = (await call('GET', '/web-api/identity/v1/prefix/list', staff)).json().data;
      expect(own).toHaveLength(1);
      expect(own[0]).toMatchObject({
        prefix: '88.118.8',
        enterpriseId: hengyue,
        enterpriseName: '徐州恒岳重工机械有限公司',
        templateCount: 1,
        recordCount: 280,
      });
      expect(own[0].createdAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      expect((await call('GET', `/web-api/identity/v1/prefix/list?enterpriseId=${ruichi}`, operator)).json().data).toHaveLength(1);
    });

    it('lists the enterprises a prefix can be assigned to, for operators only', async () => {
      const list = await call('GET', '/web-api/identity/v1/enterprise/list', operator);
      expect(list.statusCode).toBe(200);
      expect(list.json().data).toEqual(
        expect.arrayContaining([
          { id: hengyue, name: '徐州恒岳重工机械有限公司', certificationStatus: 'certified' },
          { id: ruichi, name: '常州瑞驰液压科技有限公司', certificationStatus: 'certified' },
        ]),
      );
      for (const token of [admin, staff]) {
        const denied = await call('GET', '/web-api/identity/v1/enterprise/list', token);
        expect(denied.statusCode).toBe(403);
        expect(denied.json()).toEqual({ code: 1, msg: '当前账号无权限' });
      }
    });

    it('operators assign, rename, move and delete prefixes; bad ones are refused and nothing is written', async () => {
      const before = await snapshot();
      for (const [body, status, msg] of [
        [{ prefix: '88.118', name: 'x', enterpriseId: ruichi }, 409, '标识前缀 88.118 已存在'],
        [{ prefix: 'abc', name: 'x', enterpriseId: ruichi }, 400, '标识前缀格式不正确：应为以点分隔的数字，如 88.118.8'],
        [{ prefix: '88.118.8/x', name: 'x', enterpriseId: ruichi }, 400, '标识前缀格式不正确：应为以点分隔的数字，如 88.118.8'],
        [{ prefix: '88.300.1', name: ' ', enterpriseId: ruichi }, 400, '请输入前缀名称'],
        [{ prefix: '88.300.1', name: 'x', enterpriseId: 99999 }, 400, '企业不存在'],
      ] as const) {
        if (status === 409) {
          const first = await call('POST', '/web-api/identity/v1/prefix', operator, body);
          expect(first.statusCode, first.body).toBe(200);
          before[0] = (before[0] ?? 0) + 1;
        }
        const res = await call('POST', '/web-api/identity/v1/prefix', operator, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(status);
        expect(res.json()).toEqual({ code: 1, msg });
      }
      expect(await snapshot()).toEqual(before);

      const moved = await call('PUT', '/web-api/identity/v1/prefix/88.118', operator, { name: '测试前缀', enterpriseId: hengyue });
      expect(moved.json().data[0]).toMatchObject({ prefix: '88.118', name: '测试前缀', enterpriseId: hengyue });
      expect((await call('GET', '/web-api/identity/v1/prefix/list', admin)).json().data.map((p: { prefix: string }) => p.prefix)).toContain(
        '88.118',
      );
      expect((await call('DELETE', '/web-api/identity/v1/prefix/88.118.8', operator)).json()).toEqual({
        code: 1,
        msg: '该前缀下还有标识，不能删除',
      });
      expect((await call('DELETE', '/web-api/identity/v1/prefix/88.118', operator)).json().msg).toBe('标识前缀已删除');
      expect((await call('DELETE', '/web-api/identity/v1/prefix/88.118', operator)).statusCode).toBe(404);
    });
  });

  describe('templates', () => {
    let templateId: number;

    it('creates version 1 with indexes from 2000; refuses bad items with a clear message and writes nothing', async () => {
      const before = await snapshot();
      const bad: [object, string][] = [
        [{ items: [] }, '模板至少需要一个数据项'],
        [{ items: [{ ...ITEMS[0], name: '  ' }] }, '第 1 个数据项：请输入名称'],
        [{ items: [ITEMS[0], { ...ITEMS[1], name: '产品名称' }] }, '数据项名称“产品名称”重复'],
        [{ items: [ITEMS[0], { ...ITEMS[1], idType: 'ProductName' }] }, '类型标识“ProductName”重复'],
        [{ items: [{ ...ITEMS[0], idType: 'HS_ADMIN' }] }, '类型标识“HS_ADMIN”为 Handle 系统保留，请换一个'],
        [{ items: [{ ...ITEMS[0], idType: '产品' }] }, '数据项“产品名称”的类型标识只能包含字母、数字和下划线，以字母开头，最长 64 个字符'],
        [{ items: [{ ...ITEMS[0], idIndex: 100 }] }, '数据项“产品名称”的索引须为不小于 2000 的整数'],
        [
          { items: [{ ...ITEMS[0], metadata: { type: 'string', minLength: 9, maxLength: 3 } }] },
          '数据项“产品名称”的最小长度不能大于最大长度',
        ],
        [{ name: '' }, '请输入模板名称'],
        [{ prefix: '88.999.9' }, '标识前缀 88.999.9 不存在'],
      ];
      for (const [patch, msg] of bad) {
        const res = await call('POST', '/web-api/identity/v1/template', admin, {
          prefix: '88.118.8',
          name: '测试模板',
          items: ITEMS,
          ...patch,
        });
        expect(res.statusCode, msg).toBe(400);
        expect(res.json()).toEqual({ code: 1, msg });
      }
      // Another enterprise's prefix: 403, nothing written.
      const foreign = await call('POST', '/web-api/identity/v1/template', admin, { prefix: '88.118.16', name: '越权模板', items: ITEMS });
      expect(foreign.statusCode).toBe(403);
      expect(foreign.json()).toEqual({ code: 1, msg: '标识前缀 88.118.16 属于其他企业，无权操作' });
      expect(await snapshot()).toEqual(before);

      const created = await call('POST', '/web-api/identity/v1/template', admin, { prefix: '88.118.8', name: '测试模板', items: ITEMS });
      expect(created.statusCode, created.body).toBe(200);
      const template = created.json().data[0];
      templateId = template.id;
      expect(template).toMatchObject({ prefix: '88.118.8', name: '测试模板', version: 1, recordCount: 0 });
      expect(template.items.map((i: { idIndex: number; state: number }) => [i.idIndex, i.state])).toEqual([
        [2000, 1],
        [2001, 1],
        [2002, 1],
      ]);
      const duplicate = await call('POST', '/web-api/identity/v1/template', admin, { prefix: '88.118.8', name: '测试模板', items: ITEMS });
      expect(duplicate.statusCode).toBe(409);
    });

    it('saves an edit as a new version; a record keeps the version it was written with until it is edited', async () => {
      const record = await call('POST', '/web-api/identity/v1/record', staff, {
        prefix: '88.118.8',
        suffix: 'TV-0001',
        templateId,
        values: { productName: '版本一产品', serialNumber: 'SN0001', color: '黄色' },
      });
      expect(record.statusCode, record.body).toBe(200);
      expect(record.json().data[0].templateVersion).toBe(1);

      // v2: color retired, weight added, serialNumber moved to the end (keeps its index 2001).
      const edited = await call('PUT', `/web-api/identity/v1/template/${templateId}`, admin, {
        name: '测试模板',
        items: [
          ITEMS[0],
          { ...ITEMS[2], state: 0 },
          { name: '整机重量', idType: 'weight', required: false, metadata: { type: 'string', minLength: 1, maxLength: 10 } },
          ITEMS[1],
        ],
      });
      expect(edited.statusCode, edited.body).toBe(200);
      expect(edited.json().msg).toBe('模板已保存为版本 2');
      const v2 = edited.json().data[0];
      expect(v2.version).toBe(2);
      expect(v2.items.map((i: { idType: string; idIndex: number }) => [i.idType, i.idIndex])).toEqual([
        ['productName', 2000],
        ['color', 2002],
        ['weight', 2003],
        ['serialNumber', 2001],
      ]);
      const same = await call('PUT', `/web-api/identity/v1/template/${templateId}`, admin, { name: '测试模板', items: v2.items });
      expect(same.json().msg).toBe('模板没有变化');
      expect(same.json().data[0].version).toBe(2);

      // The old record still shows version 1's items.
      const [old] = await lookup('88.118.8/TV-0001');
      expect(old.template.version).toBe(1);
      expect(old.template.items.map((i: { name: string }) => i.name)).toEqual(['产品名称', '出厂编号', '颜色']);
      // Editing the record moves it to version 2; the retired item is refused.
      const id = record.json().data[0].id;
      const refused = await call('PUT', `/web-api/identity/v1/record/${id}`, staff, {
        values: { productName: '版本二产品', serialNumber: 'SN0001', color: '红色' },
      });
      expect(refused.json()).toEqual({ code: 1, msg: '数据项“颜色”已停用，不能再填写' });
      const updated = await call('PUT', `/web-api/identity/v1/record/${id}`, staff, {
        values: { productName: '版本二产品', serialNumber: 'SN0001', weight: '6.2 t' },
      });
      expect(updated.statusCode, updated.body).toBe(200);
      expect(updated.json().data[0]).toMatchObject({
        templateVersion: 2,
        values: { productName: '版本二产品', serialNumber: 'SN0001', weight: '6.2 t' },
      });
      const [now] = await lookup('88.118.8/TV-0001');
      expect(now.template.items.map((i: { name: string }) => i.name)).toEqual(['产品名称', '整机重量', '出厂编号']);
      const handle = (await t.app.inject({ url: '/api/handles/88.118.8/TV-0001?index=1001' })).json();
      expect(handle.values[0].data.value).toBe('测试模板 v2');

      const versions = (await call('GET', `/web-api/identity/v1/template/${templateId}/version/list`, staff)).json().data;
      expect(versions.map((v: { version: number; createdBy: string }) => [v.version, v.createdBy])).toEqual([
        [2, 'admin'],
        [1, 'admin'],
      ]);
      expect((await call('DELETE', `/web-api/identity/v1/template/${templateId}`, admin)).json()).toEqual({
        code: 1,
        msg: '该模板下还有标识，不能删除',
      });
      expect((await call('DELETE', `/web-api/identity/v1/record/${id}`, admin)).json().msg).toBe('标识已删除');
      expect((await call('DELETE', `/web-api/identity/v1/template/${templateId}`, admin)).json().msg).toBe('模板已删除');
      expect((await call('GET', `/web-api/identity/v1/template/${templateId}`, admin)).statusCode).toBe(404);
    });
  });

  describe('records', () => {
    let machinery: number;
    let hydraulic: number;
    const values = {
      productName: '小型履带式液压挖掘机',
      productModel: 'HY-E60',
      serialNumber: 'HYE6025000001',
      productionDate: '2025-03-18',
      manufacturer: '徐州恒岳重工机械有限公司',
      warrantyPeriod: '36个月或5000小时',
      serviceHotline: '0516-87886000',
    };
    beforeAll(async () => {
      const templates = (await call('GET', '/web-api/identity/v1/template/list', operator)).json().data;
      machinery = templates.find((x: { name: string }) => x.name === '工程机械整机').id;
      hydraulic = templates.find((x: { name: string }) => x.name === '液压元件').id;
    });

    it('creates a record checked against its template, resolvable at once, and audited', async () => {
      const created = await call('POST', '/web-api/identity/v1/record', staff, {
        prefix: '88.118.8',
        suffix: 'EX-2025-000001',
        templateId: machinery,
        values,
      });
      expect(created.statusCode, created.body).toBe(200);
      expect(created.json().data[0]).toMatchObject({
        handle: '88.118.8/EX-2025-000001',
        suffix: 'EX-2025-000001',
        templateName: '工程机械整机',
        templateVersion: 1,
        values,
      });
      expect((await lookup('88.118.8/EX-2025-000001'))[0].identity.value[0].data.value).toBe('小型履带式液压挖掘机');
      const again = await call('POST', '/web-api/identity/v1/record', staff, {
        prefix: '88.118.8',
        suffix: 'EX-2025-000001',
        templateId: machinery,
        values,
      });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({ code: 1, msg: '标识 88.118.8/EX-2025-000001 已存在' });
    });

    it('refuses bad values, suffixes and templates with a clear message and writes nothing', async () => {
      const before = await snapshot();
      const { productName: _omit, ...withoutName } = values;
      const bad: [object, string][] = [
        [{ values: withoutName }, '“产品名称”为必填项'],
        [{ values: { ...values, productName: '   ' } }, '“产品名称”为必填项'],
        [{ values: { ...values, productionDate: '2025-3-18' } }, '“生产日期”应为有效日期，格式 YYYY-MM-DD，如 2025-04-01'],
        [{ values: { ...values, productModel: 'M'.repeat(33) } }, '“产品型号”最长 32 个字符'],
        [{ values: { ...values, color: '黄色' } }, '模板中没有类型为“color”的数据项'],
        [{ values: { ...values, constructor: 'x' } }, '模板中没有类型为“constructor”的数据项'],
        [{ values: { ...values, productName: '挖掘机\u0007' } }, '请求体 values.productName 含有不允许的控制字符'],
        [{ suffix: '' }, '标识后缀不能为空'],
        [{ suffix: 'EX 2025' }, '标识后缀只能包含字母、数字和 - _ . : / ( )，以字母或数字开头，最长 128 个字符'],
        [{ suffix: 'EX/../x' }, '标识后缀格式不正确：不能含有“.”或“..”路径段'],
        [{ suffix: 'X'.repeat(129) }, '标识后缀只能包含字母、数字和 - _ . : / ( )，以字母或数字开头，最长 128 个字符'],
        [{ prefix: '88.404.1' }, '标识前缀 88.404.1 不存在'],
        [{ templateId: 999999 }, '模板不存在'],
      ];
      for (const [patch, msg] of bad) {
        const res = await call('POST', '/web-api/identity/v1/record', staff, {
          prefix: '88.118.8',
          suffix: 'EX-2025-000002',
          templateId: machinery,
          values,
          ...patch,
        });
        expect(res.statusCode, msg).toBe(400);
        expect(res.json()).toEqual({ code: 1, msg });
      }
      // Another enterprise's prefix, or its template under our prefix.
      const foreign = await call('POST', '/web-api/identity/v1/record', staff, {
        prefix: '88.118.16',
        suffix: 'HP-X',
        templateId: hydraulic,
        values,
      });
      expect(foreign.statusCode).toBe(403);
      expect(foreign.json()).toEqual({ code: 1, msg: '标识前缀 88.118.16 属于其他企业，无权操作' });
      const crossTemplate = await call('POST', '/web-api/identity/v1/record', operator, {
        prefix: '88.118.8',
        suffix: 'X-1',
        templateId: hydraulic,
        values,
      });
      expect(crossTemplate.json()).toEqual({ code: 1, msg: '模板不属于该标识前缀' });
      const schema = await call('POST', '/web-api/identity/v1/record', staff, {
        prefix: '88.118.8',
        suffix: 'EX-3',
        templateId: machinery,
        values: { productName: 5 },
      });
      expect(schema.statusCode).toBe(400);
      expect(schema.json().code).toBe(1);
      expect(await snapshot()).toEqual(before);
    });

    it('pages newest first, filters by prefix and template, searches the start of a handle or suffix, within the enterprise', async () => {
      const page = (await call('GET', '/web-api/identity/v1/record/page/list?offset=0&limit=5', staff)).json().data[0];
      expect(page.total).toBe(281);
      expect(page.rows).toHaveLength(5);
      expect(page.rows[0].handle).toBe('88.118.8/EX-2025-000001');
      expect(page.rows.every((r: { prefix: string }) => r.prefix === '88.118.8')).toBe(true);
      const all = (await call('GET', '/web-api/identity/v1/record/page/list?limit=1', operator)).json().data[0];
      expect(all.total).toBe(381);
      const bySuffix = (await call('GET', '/web-api/identity/v1/record/page/list?searchKey=CR-2023-0001', staff)).json().data[0];
      expect(bySuffix.total).toBe(20);
      const byHandle = (
        await call('GET', `/web-api/identity/v1/record/page/list?searchKey=${encodeURIComponent('88.118.8/LD-2024-00011')}`, staff)
      ).json().data[0];
      expect(byHandle.rows.map((r: { suffix: string }) => r.suffix).sort()).toEqual(
        Array.from({ length: 10 }, (_, i) => `LD-2024-00011${i}`),
      );
      // The other enterprise's records never show, whatever the key.
      expect(
        (await call('GET', `/web-api/identity/v1/record/page/list?searchKey=${encodeURIComponent('88.118.16/HP')}`, staff)).json().data[0]
          .total,
      ).toBe(0);
      expect((await call('GET', '/web-api/identity/v1/record/page/list?prefix=88.118.16', staff)).statusCode).toBe(403);
      const ruichiOnly = (await call('GET', '/web-api/identity/v1/record/page/list?prefix=88.118.16&searchKey=HV', operator)).json()
        .data[0];
      expect(ruichiOnly.total).toBe(30);
      expect(
        (await call('GET', `/web-api/identity/v1/record/page/list?templateId=${hydraulic}&limit=1`, operator)).json().data[0].total,
      ).toBe(100);
    });

    it("keeps other enterprises' records out of reach: read, edit and delete are 403 and change nothing", async () => {
      const foreign = await t.database.db
        .selectFrom('idf_record')
        .select(['id', 'item_values'])
        .where('handle', '=', '88.118.16/HP-2024-000101')
        .executeTakeFirstOrThrow();
      expect((await call('GET', `/web-api/identity/v1/record/${foreign.id}`, staff)).statusCode).toBe(403);
      const edit = await call('PUT', `/web-api/identity/v1/record/${foreign.id}`, admin, { values: { productName: 'x' } });
      expect(edit.statusCode).toBe(403);
      expect(edit.json().code).toBe(1);
      expect((await call('DELETE', `/web-api/identity/v1/record/${foreign.id}`, admin)).statusCode).toBe(403);
      const after = await t.database.db
        .selectFrom('idf_record')
        .select('item_values')
        .where('id', '=', foreign.id)
        .executeTakeFirstOrThrow();
      expect(after.item_values).toBe(foreign.item_values);
      expect((await call('GET', `/web-api/identity/v1/record/${foreign.id}`, operator)).statusCode).toBe(200);
      expect((await call('PUT', `/web-api/identity/v1/template/${hydraulic}`, admin, { name: '改名', items: ITEMS })).statusCode).toBe(403);
    });

    it('edits and deletes a record of its own enterprise; every write lands in the audit log', async () => {
      const created = (await call('GET', `/web-api/identity/v1/record/page/list?searchKey=EX-2025-000001`, staff)).json().data[0].rows[0];
      const edited = await call('PUT', `/web-api/identity/v1/record/${created.id}`, staff, {
        values: { ...values, serviceCenter: '江苏徐州服务中心' },
      });
      expect(edited.json().data[0].values.serviceCenter).toBe('江苏徐州服务中心');
      // Staff view, add and edit; deleting is for administrators (identifier:record:manage).
      const refused = await call('DELETE', `/web-api/identity/v1/record/${created.id}`, staff);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ code: 1, msg: '当前账号无权限' });
      expect(await lookup('88.118.8/EX-2025-000001')).toHaveLength(1);
      expect((await call('DELETE', `/web-api/identity/v1/record/${created.id}`, admin)).json().msg).toBe('标识已删除');
      expect(await lookup('88.118.8/EX-2025-000001')).toEqual([]);
      const actions = await t.database.db
        .selectFrom('audit_log')
        .select(['action', 'target', 'username'])
        .where('action', 'like', 'identifier.%')
        .execute();
      expect(actions).toEqual(
        expect.arrayContaining([
          { action: 'identifier.prefix.create', target: '88.118', username: 'operator' },
          { action: 'identifier.prefix.update', target: '88.118', username: 'operator' },
          { action: 'identifier.prefix.delete', target: '88.118', username: 'operator' },
          { action: 'identifier.template.create', target: '88.118.8 测试模板', username: 'admin' },
          { action: 'identifier.template.update', target: '88.118.8 测试模板', username: 'admin' },
          { action: 'identifier.template.delete', target: '88.118.8 测试模板', username: 'admin' },
          { action: 'identifier.record.create', target: '88.118.8/EX-2025-000001', username: 'staff' },
          { action: 'identifier.record.update', target: '88.118.8/EX-2025-000001', username: 'staff' },
          { action: 'identifier.record.delete', target: '88.118.8/EX-2025-000001', username: 'admin' },
        ]),
      );
      // The console's 操作日志 names the actions in Chinese.
      const log = (await call('GET', '/web-api/console/v1/audit/page/list?action=identifier.record.delete', admin)).json().data[0];
      expect(log.rows[0].actionName).toBe('删除标识');
    });
  });
});
