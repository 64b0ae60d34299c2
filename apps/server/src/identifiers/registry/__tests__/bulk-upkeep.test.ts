import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';

const DATE_MESSAGE = '“生产日期”应为有效日期，格式 YYYY-MM-DD，如 2025-04-01';

/** A template of every value type. */
const TYPED_ITEMS = [
  { name: '产品名称', idType: 'productName', required: true, metadata: { type: 'string', minLength: 1, maxLength: 20 } },
  { name: '生产日期', idType: 'productionDate', required: true, metadata: { type: 'date' } },
  { name: '额定压力', idType: 'ratedPressure', required: false, metadata: { type: 'number', min: 0, max: 35 } },
  {
    name: '质保期',
    idType: 'warranty',
    required: false,
    metadata: { type: 'enum', options: ['12个月', '24个月', '36个月'] },
    analytics: true,
  },
];

describe.each(testDialects())('bulk upkeep of identifiers on %s', (dialect) => {
  let t: TestApp;
  let operator: string;
  let admin: string;
  let staff: string;
  let hydraulic: number;
  let typed: number;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    operator = await tokenFor(t, 'operator');
    admin = await tokenFor(t, 'admin');
    staff = await tokenFor(t, 'staff');
    const templates = await t.database.db.selectFrom('idf_template').select(['id', 'name']).execute();
    hydraulic = templates.find((x) => x.name === '液压元件')!.id;
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, token: string, payload?: object) =>
    t.app.inject({
      method,
      url,
      headers: { 'x-requested-with': 'XMLHttpRequest', authorization: token },
      ...(payload ? { payload } : {}),
    });
  const upload = (query: string, file: string | Buffer, token = admin, filename = 'records.csv') => {
    const boundary = '----bulk-upkeep';
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: text/csv\r\n\r\n`),
      typeof file === 'string' ? Buffer.from(file, 'utf8') : file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return t.app.inject({
      method: 'POST',
      url: `/web-api/identity/v1/record/import?${query}`,
      headers: { 'x-requested-with': 'XMLHttpRequest', authorization: token, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: body,
    });
  };
  const recordOf = async (handle: string) => {
    const list = await call('GET', `/web-api/identity/v1/record/page/list?searchKey=${encodeURIComponent(handle)}`, admin);
    return (list.json().data[0].rows as { id: number; handle: string; templateVersion: number; values: Record<string, string> }[]).find(
      (r) => r.handle === handle,
    );
  };
  const createRecord = async (suffix: string, templateId: number, values: Record<string, string>) => {
    const res = await call('POST', '/web-api/identity/v1/record', staff, { prefix: '88.118.8', suffix, templateId, values });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data[0] as { id: number };
  };
  const newTemplate = async (name: string, items: object[]) => {
    const res = await call('POST', '/web-api/identity/v1/template', admin, { prefix: '88.118.8', name, items });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data[0].id as number;
  };
  const newVersion = async (id: number, name: string, items: object[]) => {
    const res = await call('PUT', `/web-api/identity/v1/template/${id}`, admin, { name, items });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data[0] as { version: number };
  };

  describe('value types', () => {
    it('keeps the metadata of each type and 计入统计 in the template version; refuses bad metadata with the item named', async () => {
      typed = await newTemplate('类型模板', TYPED_ITEMS);
      const template = (await call('GET', `/web-api/identity/v1/template/${typed}`, staff)).json().data[0];
      expect(template.items.map((i: { metadata: object; analytics?: boolean }) => [i.metadata, i.analytics])).toEqual([
        [{ type: 'string', minLength: 1, maxLength: 20 }, undefined],
        [{ type: 'date' }, undefined],
        [{ type: 'number', min: 0, max: 35 }, undefined],
        [{ type: 'enum', options: ['12个月', '24个月', '36个月'] }, true],
      ]);
      const versions = (await call('GET', `/web-api/identity/v1/template/${typed}/version/list`, staff)).json().data;
      expect(versions[0].items[3].analytics).toBe(true);
      // Saving the same items again is no new version (an unticked 计入统计 is the same as none).
      const same = await call('PUT', `/web-api/identity/v1/template/${typed}`, admin, {
        name: '类型模板',
        items: template.items.map((i: object) => ({ analytics: false, ...i })),
      });
      expect(same.json().msg).toBe('模板没有变化');

      const bad: [object, string][] = [
        [{ ...TYPED_ITEMS[3], metadata: { type: 'enum', options: [] } }, '数据项“质保期”的可选值至少需要一个'],
        [{ ...TYPED_ITEMS[3], metadata: { type: 'enum' } }, '数据项“质保期”的可选值至少需要一个'],
        [{ ...TYPED_ITEMS[3], metadata: { type: 'enum', options: ['12个月', ' 12个月 '] } }, '数据项“质保期”的可选值“12个月”重复'],
        [{ ...TYPED_ITEMS[2], metadata: { type: 'number', min: 10, max: 1 } }, '数据项“额定压力”的最小值不能大于最大值'],
        [{ ...TYPED_ITEMS[0], metadata: { type: 'string', minLength: 1 } }, '数据项“产品名称”的长度限制须在 0–2000 之间'],
      ];
      for (const [item, msg] of bad) {
        const res = await call('POST', '/web-api/identity/v1/template', admin, { prefix: '88.118.8', name: '坏模板', items: [item] });
        expect(res.statusCode, msg).toBe(400);
        expect(res.json()).toEqual({ code: 1, msg });
      }
      const unknownType = await call('POST', '/web-api/identity/v1/template', admin, {
        prefix: '88.118.8',
        name: '坏模板',
        items: [{ ...TYPED_ITEMS[0], metadata: { type: 'color' } }],
      });
      expect(unknownType.statusCode).toBe(400);
      expect(unknownType.json().code).toBe(1);
    });

    it('refuses a value against its type on create and update, and writes nothing', async () => {
      const good = { productName: '柱塞泵', productionDate: '2024-02-29', ratedPressure: '31.5', warranty: '24个月' };
      const refusals: [Record<string, string>, string][] = [
        [{ productionDate: 'abcdefghij' }, DATE_MESSAGE],
        [{ productionDate: '2024-02-30' }, DATE_MESSAGE],
        [{ productionDate: '2023-02-29' }, DATE_MESSAGE],
        [{ ratedPressure: '35.5' }, '“额定压力”应在 0–35 之间'],
        [{ ratedPressure: '-1' }, '“额定压力”应在 0–35 之间'],
        [{ ratedPressure: '3 MPa' }, '“额定压力”应为数字，如 12 或 3.5'],
        [{ warranty: '18个月' }, '“质保期”应为可选值之一：12个月、24个月、36个月'],
      ];
      for (const [patch, msg] of refusals) {
        const res = await call('POST', '/web-api/identity/v1/record', staff, {
          prefix: '88.118.8',
          suffix: 'TYPE-1',
          templateId: typed,
          values: { ...good, ...patch },
        });
        expect(res.statusCode, msg).toBe(400);
        expect(res.json()).toEqual({ code: 1, msg });
      }
      expect(await recordOf('88.118.8/TYPE-1')).toBeUndefined();

      const { id } = await createRecord('TYPE-1', typed, good);
      for (const [patch, msg] of refusals) {
        const res = await call('PUT', `/web-api/identity/v1/record/${id}`, staff, { values: { ...good, ...patch } });
        expect(res.statusCode, msg).toBe(400);
        expect(res.json()).toEqual({ code: 1, msg });
      }
      expect((await recordOf('88.118.8/TYPE-1'))?.values).toEqual(good);
      // Surrounding spaces are not part of the value.
      const spaced = await call('PUT', `/web-api/identity/v1/record/${id}`, staff, { values: { ...good, productionDate: ' 2025-04-01 ' } });
      expect(spaced.json().data[0].values.productionDate).toBe('2025-04-01');
    });

    it('refuses a value against its type in an import, listing the row, and writes nothing', async () => {
      const csv = [
        '标识后缀,产品名称,生产日期,额定压力,质保期',
        'TYPE-IM-1,齿轮泵,2025-01-02,20,12个月',
        'TYPE-IM-2,齿轮泵,abcdefghij,20,12个月',
        'TYPE-IM-3,齿轮泵,2025-01-02,40,12个月',
        'TYPE-IM-4,齿轮泵,2025-01-02,,五年',
      ].join('\n');
      const res = await upload(`templateId=${typed}`, csv);
      expect(res.json().data[0]).toEqual({
        total: 4,
        imported: 0,
        failed: 3,
        errors: [
          { line: 3, message: DATE_MESSAGE },
          { line: 4, message: '“额定压力”应在 0–35 之间' },
          { line: 5, message: '“质保期”应为可选值之一：12个月、24个月、36个月' },
        ],
      });
      expect(await recordOf('88.118.8/TYPE-IM-1')).toBeUndefined();
    });

    it('reads an XLSX file: a date Excel stored as a date cell is the date typed', async () => {
      const workbook = new ExcelJS.Workbook();
      const sheet = workbook.addWorksheet('标识');
      sheet.addRow(['标识后缀', '产品名称', '生产日期', '额定压力', '质保期']);
      sheet.addRow(['TYPE-X-1', '齿轮泵', new Date(Date.UTC(2025, 3, 1)), 20, '12个月']);
      sheet.addRow(['TYPE-X-2', '齿轮泵', '2025-02-30', 20.5, '36个月']);
      const xlsx = Buffer.from(await workbook.xlsx.writeBuffer());
      const refused = await upload(`templateId=${typed}`, xlsx, admin, 'records.xlsx');
      expect(refused.json().data[0]).toEqual({ total: 2, imported: 0, failed: 1, errors: [{ line: 3, message: DATE_MESSAGE }] });
      sheet.getCell('C3').value = '2025-02-28';
      const written = await upload(`templateId=${typed}`, Buffer.from(await workbook.xlsx.writeBuffer()), admin, 'records.xlsx');
      expect(written.json().data[0]).toMatchObject({ total: 2, imported: 2, failed: 0 });
      expect((await recordOf('88.118.8/TYPE-X-1'))?.values).toEqual({
        productName: '齿轮泵',
        productionDate: '2025-04-01',
        ratedPressure: '20',
        warranty: '12个月',
      });
      expect((await recordOf('88.118.8/TYPE-X-2'))?.values.ratedPressure).toBe('20.5');
      const xls = await upload(`templateId=${typed}`, Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0, 0, 0, 0]), admin, 'old.xls');
      expect(xls.json()).toEqual({ code: 1, msg: '不支持 .xls 格式，请另存为 .xlsx 或 CSV 后导入' });
      const broken = await upload(`templateId=${typed}`, Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]), admin, 'broken.xlsx');
      expect(broken.statusCode).toBe(400);
      expect(broken.json()).toEqual({ code: 1, msg: '无法读取该 Excel 文件，请另存为 .xlsx 或 CSV 后重试' });
    });
  });

  describe('更新 import', () => {
    let template: number;
    const NAME = { name: '产品名称', idType: 'productName', required: true, metadata: { type: 'string', minLength: 1, maxLength: 20 } };
    const COLOR = { name: '颜色', idType: 'color', required: false, metadata: { type: 'string', minLength: 1, maxLength: 8 } };
    const DATE = { name: '生产日期', idType: 'productionDate', required: false, metadata: { type: 'date' } };
    beforeAll(async () => {
      template = await newTemplate('更新模板', [NAME, COLOR, DATE]);
      await createRecord('UP-1', template, { productName: '挖掘机', color: '黄色', productionDate: '2025-01-01' });
      await createRecord('UP-2', template, { productName: '装载机', color: '红色' });
    });

    it('lists unknown handles, repeats and records of other templates per line, and writes nothing', async () => {
      const csv = [
        '标识,产品名称,生产日期',
        '88.118.8/UP-1,新挖掘机,2025-02-01',
        '88.118.8/UP-404,不存在,2025-02-01',
        '88.118.8/UP-1,又一次,2025-02-01',
        '88.118.8/TYPE-1,别的模板,2025-02-01',
        '88.118.8/UP-2,,2025-02-01',
        '88.118.8/UP-2,装载机,2025-02-30',
      ].join('\n');
      const res = await upload(`templateId=${template}&mode=update`, csv);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        code: 20200,
        msg: '导入失败：5 行有误，未写入任何标识',
        data: [
          {
            total: 6,
            imported: 0,
            failed: 5,
            errors: [
              { line: 3, message: '标识 88.118.8/UP-404 不存在' },
              { line: 4, message: '标识 88.118.8/UP-1 在文件中重复' },
              { line: 5, message: '标识 88.118.8/TYPE-1 使用的是其他模板，不能按模板“更新模板”更新' },
              { line: 6, message: '“产品名称”为必填项' },
              { line: 7, message: '标识 88.118.8/UP-2 在文件中重复' },
            ],
          },
        ],
      });
      expect((await recordOf('88.118.8/UP-1'))?.values).toEqual({ productName: '挖掘机', color: '黄色', productionDate: '2025-01-01' });
    });

    it("replaces the file's columns, keeps the others, and stays at the record's version", async () => {
      await newVersion(template, '更新模板', [NAME, { ...COLOR, state: 0 }, DATE]);
      // Staff view and edit records but do not change them in bulk.
      expect((await upload(`templateId=${template}&mode=update`, '标识后缀,产品名称\nUP-1,x', staff)).statusCode).toBe(403);
      const csv = ['标识后缀,产品名称,生产日期', 'UP-1,新挖掘机,', 'UP-2,新装载机,2025-03-01'].join('\n');
      const res = await upload(`templateId=${template}&mode=update`, csv);
      expect(res.json()).toMatchObject({ msg: '导入完成：更新 2 个标识', data: [{ total: 2, imported: 2, failed: 0, errors: [] }] });
      // An empty cell clears the value; 颜色 has no column and keeps its value at v1.
      expect(await recordOf('88.118.8/UP-1')).toMatchObject({ templateVersion: 1, values: { productName: '新挖掘机', color: '黄色' } });
      expect(await recordOf('88.118.8/UP-2')).toMatchObject({
        templateVersion: 1,
        values: { productName: '新装载机', color: '红色', productionDate: '2025-03-01' },
      });
      const [answer] = (await t.app.inject({ url: '/web-api/portal/v1/identity/query?handle=88.118.8/UP-2' })).json().data;
      expect(answer.identity.value.map((v: { data: { value: string } }) => v.data.value)).toEqual(['新装载机', '红色', '2025-03-01']);
    });

    it('moves the records to the latest version when asked, leaving retired values behind', async () => {
      const res = await upload(`templateId=${template}&mode=update&toLatest=true`, '标识后缀,生产日期\nUP-1,2025-05-05');
      expect(res.json().data[0]).toMatchObject({ imported: 1, failed: 0 });
      expect(await recordOf('88.118.8/UP-1')).toMatchObject({
        templateVersion: 2,
        values: { productName: '新挖掘机', productionDate: '2025-05-05' },
      });
      expect((await recordOf('88.118.8/UP-1'))?.values.color).toBeUndefined();
      const [answer] = (await t.app.inject({ url: '/web-api/portal/v1/identity/query?handle=88.118.8/UP-1' })).json().data;
      expect(answer.template.version).toBe(2);
      const audit = await t.database.db
        .selectFrom('audit_log')
        .select(['detail'])
        .where('action', '=', 'identifier.record.import')
        .where('outcome', '=', 'success')
        .execute();
      expect(audit).toContainEqual({ detail: '更新并迁移到 v2：共 1 行，写入 1 行' });
    });
  });

  describe('批量迁移', () => {
    let template: number;
    const NAME = { name: '产品名称', idType: 'productName', required: true, metadata: { type: 'string', minLength: 1, maxLength: 20 } };
    const COLOR = { name: '颜色', idType: 'color', required: false, metadata: { type: 'string', minLength: 1, maxLength: 8 } };
    const DATE = { name: '生产日期', idType: 'productionDate', required: false, metadata: { type: 'string', minLength: 1, maxLength: 32 } };
    const V1 = [NAME, COLOR, DATE];
    // v2: 颜色 retired, 生产日期 a date (a stored `abcdefghij` is not one), 重量 added.
    const V2 = [
      NAME,
      { ...COLOR, state: 0 },
      { ...DATE, metadata: { type: 'date' } },
      { name: '重量', idType: 'weight', required: false, metadata: { type: 'number', min: 0 } },
    ];
    const preview = (body: object, token = admin) => call('POST', '/web-api/identity/v1/record/migrate/preview', token, body);
    const migrate = (body: object, token = admin) => call('POST', '/web-api/identity/v1/record/migrate', token, body);
    beforeAll(async () => {
      template = await newTemplate('迁移模板', V1);
      await createRecord('MG-1', template, { productName: '挖掘机', productionDate: '2025-01-01' });
      await createRecord('MG-2', template, { productName: '装载机', productionDate: 'abcdefghij' });
      await createRecord('MG-3', template, { productName: '起重机', color: '黄色', productionDate: '2025-02-02' });
      await newVersion(template, '迁移模板', V2);
    });

    it('previews the records that move, the values lost and the records the new rules refuse; migrating then moves nothing', async () => {
      const res = await preview({ templateId: template });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data[0]).toEqual({
        templateId: template,
        templateName: '迁移模板',
        toVersion: 2,
        total: 3,
        versions: [{ version: 1, records: 3 }],
        lostItems: [{ idType: 'color', name: '颜色', records: 1 }],
        losing: 1,
        samples: [{ handle: '88.118.8/MG-3', version: 1, lost: [{ name: '颜色', value: '黄色' }] }],
        blocked: 1,
        problems: [{ handle: '88.118.8/MG-2', version: 1, message: DATE_MESSAGE }],
      });
      const refused = await migrate({ templateId: template });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({
        code: 1,
        msg: `有 1 个标识的数据不符合 v2 的规则，未迁移任何标识。例如 88.118.8/MG-2：${DATE_MESSAGE}`,
      });
      for (const handle of ['88.118.8/MG-1', '88.118.8/MG-2', '88.118.8/MG-3']) expect((await recordOf(handle))?.templateVersion).toBe(1);
    });

    it('narrows the records by the start of the handle and by version', async () => {
      const searched = (await preview({ templateId: template, searchKey: 'MG-3' })).json().data[0];
      expect(searched).toMatchObject({ total: 1, blocked: 0, losing: 1 });
      expect((await preview({ templateId: template, searchKey: '88.118.8/MG-' })).json().data[0].total).toBe(3);
      expect((await preview({ templateId: template, fromVersion: 1 })).json().data[0].total).toBe(3);
      for (const [body, msg] of [
        [{ templateId: template, fromVersion: 2 }, '只能迁移旧版本的标识：最新版本为 v2'],
        [{ templateId: template, fromVersion: 0 }, undefined],
      ] as const) {
        const res = await preview(body);
        expect(res.statusCode).toBe(400);
        if (msg) expect(res.json()).toEqual({ code: 1, msg });
      }
    });

    it('moves every record in one go once none is refused: values lost as previewed, answers and audit at once', async () => {
      // The lookup before: the record shows v1 and its colour.
      const [before] = (await t.app.inject({ url: '/web-api/portal/v1/identity/query?handle=88.118.8/MG-3' })).json().data;
      expect(before.template.version).toBe(1);
      // The owner corrects the refused record (an edit moves it to v2).
      const mg2 = await recordOf('88.118.8/MG-2');
      expect(
        (
          await call('PUT', `/web-api/identity/v1/record/${mg2!.id}`, staff, {
            values: { productName: '装载机', productionDate: '2025-03-03' },
          })
        ).statusCode,
      ).toBe(200);
      expect((await preview({ templateId: template })).json().data[0]).toMatchObject({ total: 2, blocked: 0, losing: 1, problems: [] });

      const res = await migrate({ templateId: template });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ code: 20200, msg: '已将 2 个标识迁移到 v2', data: [{ migrated: 2, toVersion: 2 }] });
      expect(await recordOf('88.118.8/MG-3')).toMatchObject({
        templateVersion: 2,
        values: { productName: '起重机', productionDate: '2025-02-02' },
      });
      expect((await recordOf('88.118.8/MG-1'))?.templateVersion).toBe(2);
      const [after] = (await t.app.inject({ url: '/web-api/portal/v1/identity/query?handle=88.118.8/MG-3' })).json().data;
      expect(after.template.version).toBe(2);
      expect(after.identity.value.map((v: { type: string }) => v.type)).toEqual(['productName', 'productionDate']);
      const handle = (await t.app.inject({ url: '/api/handles/88.118.8/MG-3?index=1001' })).json();
      expect(handle.values[0].data.value).toBe('迁移模板 v2');
      const audit = await t.database.db
        .selectFrom('audit_log')
        .select(['target', 'detail'])
        .where('action', '=', 'identifier.record.migrate')
        .execute();
      expect(audit).toEqual([{ target: '88.118.8 迁移模板', detail: '2 个标识迁移到 v2，其中 1 个丢弃了停用或删除的数据项值' }]);
      // Nothing left to move.
      expect((await preview({ templateId: template })).json().data[0]).toMatchObject({ total: 0, versions: [] });
      expect((await migrate({ templateId: template })).json()).toEqual({
        code: 20200,
        msg: '没有需要迁移的标识',
        data: [{ migrated: 0, toVersion: 2 }],
      });
    });

    it("answers another enterprise's template as missing (404) and is closed to staff", async () => {
      for (const res of [await preview({ templateId: hydraulic }), await migrate({ templateId: hydraulic })]) {
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ code: 1, msg: '模板不存在' });
      }
      expect((await preview({ templateId: 999_999 })).statusCode).toBe(404);
      expect((await preview({ templateId: template }, staff)).statusCode).toBe(403);
      expect((await migrate({ templateId: template }, staff)).statusCode).toBe(403);
      // Operators run every enterprise's prefixes.
      expect((await preview({ templateId: hydraulic }, operator)).json().data[0]).toMatchObject({ templateName: '液压元件', total: 0 });
    });
  });

  describe('export', () => {
    it('honours the list filters: the start of the handle or suffix, and the prefix', async () => {
      const exported = async (query: string) => {
        const res = await call('GET', `/web-api/identity/v1/record/export?${query}`, staff);
        return { res, lines: res.rawPayload.toString('utf8').slice(1).split('\r\n').filter(Boolean) };
      };
      const all = await exported(`templateId=${typed}`);
      expect(all.res.statusCode).toBe(200);
      expect(all.lines[0]).toBe('标识,产品名称,生产日期,额定压力,质保期');
      expect(all.lines.slice(1).map((line) => line.split(',')[0])).toEqual(['88.118.8/TYPE-1', '88.118.8/TYPE-X-1', '88.118.8/TYPE-X-2']);
      const searched = await exported(`templateId=${typed}&prefix=88.118.8&searchKey=TYPE-X`);
      expect(searched.lines.slice(1).map((line) => line.split(',')[0])).toEqual(['88.118.8/TYPE-X-1', '88.118.8/TYPE-X-2']);
      expect((await exported(`templateId=${typed}&searchKey=${encodeURIComponent('88.118.8/TYPE-1')}`)).lines).toHaveLength(2);
      expect((await exported(`templateId=${typed}&searchKey=NONE`)).lines).toHaveLength(1);
      const otherPrefix = await call('GET', `/web-api/identity/v1/record/export?templateId=${hydraulic}&prefix=88.118.8`, operator);
      expect(otherPrefix.statusCode).toBe(400);
      expect(otherPrefix.json()).toEqual({ code: 1, msg: '模板不属于该标识前缀' });
      const audit = await t.database.db
        .selectFrom('audit_log')
        .select(['detail'])
        .where('action', '=', 'identifier.record.export')
        .execute();
      expect(audit).toContainEqual({ detail: '筛选：TYPE-X' });
    });
  });
});
