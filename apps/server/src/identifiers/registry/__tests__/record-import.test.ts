import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';

const HEADER = '标识后缀,产品名称,产品型号,出厂编号,生产日期,生产厂家,主要参数,质保期,售后电话';
const row = (suffix: string, name = '轮式装载机', spec = '额定载重量 5 t') =>
  `${suffix},${name},HY-L50,SN-${suffix},2025-04-01,徐州恒岳重工机械有限公司,${spec},36个月,0516-87886000`;

describe.each(testDialects())('CSV import and export of identifiers on %s', (dialect) => {
  let t: TestApp;
  let staff: string;
  let admin: string;
  let operator: string;
  let machinery: number;
  let hydraulic: number;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    staff = await tokenFor(t, 'staff');
    admin = await tokenFor(t, 'admin');
    operator = await tokenFor(t, 'operator');
    const templates = await t.database.db.selectFrom('idf_template').select(['id', 'name']).execute();
    machinery = templates.find((x) => x.name === '工程机械整机')!.id;
    hydraulic = templates.find((x) => x.name === '液压元件')!.id;
  });
  afterAll(() => t.close());

  // Importing is a bulk change: administrators (identifier:record:manage), not staff.
  const upload = (templateId: number, file: string | Buffer, token = admin) => {
    const boundary = '----identifier-import';
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="records.csv"\r\nContent-Type: text/csv\r\n\r\n`),
      typeof file === 'string' ? Buffer.from(file, 'utf8') : file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return t.app.inject({
      method: 'POST',
      url: `/web-api/identity/v1/record/import?templateId=${templateId}`,
      headers: { 'x-requested-with': 'XMLHttpRequest', authorization: token, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: body,
    });
  };
  const records = async () =>
    Number(
      (
        await t.database.db
          .selectFrom('idf_record')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const exists = async (handle: string) =>
    (await t.database.db.selectFrom('idf_record').select('id').where('handle', '=', handle).executeTakeFirst()) !== undefined;

  it('reports every bad row with its line number and writes nothing unless every row is good', async () => {
    const before = await records();
    const csv = [
      HEADER, // 1
      row('IM-0001'), // 2: good
      row('IM-0002', ''), // 3: required item empty
      row('EX-2024-000123'), // 4: exists already
      row('IM 0004'), // 5: bad suffix
      row('IM-0005', '轮式装载机', '"额定载重量 5 t, 斗容 ""3.0"" m³"'), // 6: good, a quoted comma and quotes
      row('IM-0006', '轮式装载机', '"两行\r\n参数"'), // 7–8: a line break inside quotes: values are single-line
      row('IM-0001'), // 9: twice in the file
      `${row('IM-0010')},多余`, // 10: more fields than the header
      row('IM-0011', '装'.repeat(65)), // 11: too long
      '', // 12: blank, skipped
      row('IM-0013').replace('2025-04-01', 'abcdefghij'), // 13: not a date
      'IM-0014,"未闭合的引号', // 14: malformed quoting (to the end of the file)
    ].join('\r\n');
    const res = await upload(machinery, csv);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.msg).toBe('导入失败：9 行有误，未写入任何标识');
    expect(body.data[0]).toEqual({
      total: 11,
      imported: 0,
      failed: 9,
      errors: [
        { line: 3, message: '“产品名称”为必填项' },
        { line: 4, message: '标识 88.118.8/EX-2024-000123 已存在' },
        { line: 5, message: '标识后缀只能包含字母、数字和 - _ . : / ( )，以字母或数字开头，最长 128 个字符' },
        { line: 7, message: '“主要参数”不能包含控制字符' },
        { line: 9, message: '标识 88.118.8/IM-0001 已存在' },
        { line: 10, message: '列数多于表头' },
        { line: 11, message: '“产品名称”最长 64 个字符' },
        { line: 13, message: '“生产日期”应为有效日期，格式 YYYY-MM-DD，如 2025-04-01' },
        { line: 14, message: '引号未闭合' },
      ],
    });
    expect(await records()).toBe(before);
    expect(await exists('88.118.8/IM-0001')).toBe(false);
    expect(await exists('88.118.8/IM-0005')).toBe(false);
    const audit = await t.database.db
      .selectFrom('audit_log')
      .select(['target', 'outcome', 'detail'])
      .where('action', '=', 'identifier.record.import')
      .execute();
    expect(audit).toContainEqual({ target: '88.118.8 工程机械整机', outcome: 'failure', detail: '新增：共 11 行，9 行有误，未写入' });

    // The good rows alone are all written.
    const good = [HEADER, row('IM-0001'), row('IM-0005', '轮式装载机', '"额定载重量 5 t, 斗容 ""3.0"" m³"')].join('\r\n');
    const written = await upload(machinery, good);
    expect(written.json()).toMatchObject({ msg: '导入完成：新增 2 个标识', data: [{ total: 2, imported: 2, failed: 0, errors: [] }] });
    expect(await records()).toBe(before + 2);
    const [entry] = (
      await t.app.inject({ url: `/web-api/portal/v1/identity/query?handle=${encodeURIComponent('88.118.8/IM-0005')}` })
    ).json().data;
    expect(entry.identity.value.find((v: { type: string }) => v.type === 'mainSpec').data.value).toBe('额定载重量 5 t, 斗容 "3.0" m³');
    expect(
      await t.database.db
        .selectFrom('audit_log')
        .select(['outcome', 'detail'])
        .where('action', '=', 'identifier.record.import')
        .where('outcome', '=', 'success')
        .execute(),
    ).toContainEqual({ outcome: 'success', detail: '新增：共 2 行，写入 2 行' });
  });

  it('ignores empty columns a spreadsheet saved after the last one', async () => {
    const csv = [`${HEADER},,`, `${row('IM-E-1')},,`, `${row('IM-E-2')},,多余`].join('\n');
    expect((await upload(machinery, csv)).json().data[0]).toEqual({
      total: 2,
      imported: 0,
      failed: 1,
      errors: [{ line: 3, message: '列数多于表头' }],
    });
    expect((await upload(machinery, csv.split('\n').slice(0, 2).join('\n'))).json().data[0]).toMatchObject({ imported: 1 });
    const gap = await upload(machinery, `标识后缀,,产品名称\nIM-E-3,,装载机`);
    expect(gap.json()).toEqual({ code: 1, msg: '第 1 行（表头）第 2 列没有列名' });
  });

  it('takes idType headers and whole handles; a handle under another prefix is a bad row', async () => {
    const csv = [
      'handle,productName,productModel,serialNumber,productionDate,manufacturer,warrantyPeriod,serviceHotline',
      '88.118.8/IM-H-1,挖掘机,HY-E60,S1,2025-01-02,恒岳,12个月,0516',
      '88.118.16/IM-H-2,挖掘机,HY-E60,S2,2025-01-02,恒岳,12个月,0516',
    ].join('\n');
    const body = (await upload(machinery, csv)).json().data[0];
    expect(body).toEqual({ total: 2, imported: 0, failed: 1, errors: [{ line: 3, message: '标识“88.118.16/IM-H-2”不属于前缀 88.118.8' }] });
    expect((await upload(machinery, csv.split('\n').slice(0, 2).join('\n'))).json().data[0]).toMatchObject({ imported: 1 });
    expect(await exists('88.118.8/IM-H-1')).toBe(true);
  });

  it('refuses a file whose header does not fit the template, and writes nothing', async () => {
    const before = await records();
    for (const [csv, msg] of [
      [`${HEADER},颜色\n${row('IM-X1')},黄色`, '表头第 10 列“颜色”不是模板中在用的数据项'],
      ['标识后缀,产品型号\nIM-X2,HY-L50', '表头缺少必填数据项“产品名称”'],
      ['产品名称,产品型号\n挖掘机,HY-L50', '表头缺少“标识”或“标识后缀”列'],
      [`标识,${HEADER}`, '表头只能有一个“标识”或“标识后缀”列'],
      [`${HEADER.replace('产品型号', 'productName')}\n`, '表头中数据项“产品名称”重复'],
      ['', '文件为空：第 1 行应为表头'],
    ] as const) {
      const res = await upload(machinery, csv);
      expect(res.statusCode, msg).toBe(400);
      expect(res.json()).toEqual({ code: 1, msg });
    }
    expect(await records()).toBe(before);
  });

  it('is refused to staff (403), who view, add and edit records but do not import them; nothing is written', async () => {
    const before = await records();
    const denied = await upload(machinery, `${HEADER}\n${row('IM-STAFF-1')}`, staff);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ code: 1, msg: '当前账号无权限' });
    expect(await records()).toBe(before);
    expect(await exists('88.118.8/IM-STAFF-1')).toBe(false);
  });

  it("refuses another enterprise's template (403) and requests without a file", async () => {
    const before = await records();
    const foreign = await upload(hydraulic, `标识后缀,产品名称\nHP-X,泵`);
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toEqual({ code: 1, msg: '标识前缀 88.118.16 属于其他企业，无权操作' });
    const noFile = await t.app.inject({
      method: 'POST',
      url: `/web-api/identity/v1/record/import?templateId=${machinery}`,
      headers: { 'x-requested-with': 'XMLHttpRequest', authorization: admin, 'content-type': 'application/json' },
      payload: {},
    });
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().code).toBe(1);
    expect(await records()).toBe(before);
  });

  it('reads a GBK file saved by Excel on Chinese Windows', async () => {
    // "标识后缀,产品名称,…" with one row, encoded as GB18030 by the TextDecoder's inverse: build it from known GBK bytes.
    const gbk = (text: string) => {
      const bytes: number[] = [];
      for (const ch of text) {
        const code = ch.codePointAt(0)!;
        if (code < 0x80) bytes.push(code);
        else bytes.push(...GBK[ch]!);
      }
      return Buffer.from(bytes);
    };
    const GBK: Record<string, number[]> = {
      标: [0xb1, 0xea],
      识: [0xca, 0xb6],
      后: [0xba, 0xf3],
      缀: [0xd7, 0xba],
      产: [0xb2, 0xfa],
      品: [0xc6, 0xb7],
      名: [0xc3, 0xfb],
      称: [0xb3, 0xc6],
      型: [0xd0, 0xcd],
      号: [0xba, 0xc5],
      出: [0xb3, 0xf6],
      厂: [0xb3, 0xa7],
      编: [0xb1, 0xe0],
      生: [0xc9, 0xfa],
      日: [0xc8, 0xd5],
      期: [0xc6, 0xda],
      家: [0xbc, 0xd2],
      质: [0xd6, 0xca],
      保: [0xb1, 0xa3],
      售: [0xca, 0xdb],
      电: [0xb5, 0xe7],
      话: [0xbb, 0xb0],
      泵: [0xb1, 0xc3],
    };
    const csv = '标识后缀,产品名称,产品型号,出厂编号,生产日期,生产厂家,质保期,售后电话\r\nIM-GBK-1,泵,P1,S1,2025-01-02,厂家,12,0519\r\n';
    const res = await upload(machinery, gbk(csv));
    expect(res.json().data[0]).toMatchObject({ imported: 1, failed: 0 });
    const [entry] = (await t.app.inject({ url: '/web-api/portal/v1/identity/query?handle=88.118.8/IM-GBK-1' })).json().data;
    expect(entry.identity.value[0].data.value).toBe('泵');
  });

  it('checks thousands of rows across batches, counts every bad row and lists the first 1 000; a good file is written whole', async () => {
    const before = await records();
    const lines = [HEADER];
    for (let i = 0; i < 3000; i++) lines.push(i % 2 === 0 ? row(`BULK-${i}`) : row(`BULK-${i}`, ''));
    const body = (await upload(machinery, lines.join('\n'))).json().data[0];
    expect(body.total).toBe(3000);
    expect(body.imported).toBe(0);
    expect(body.failed).toBe(1500);
    expect(body.errors).toHaveLength(1000);
    expect(body.errors[0]).toEqual({ line: 3, message: '“产品名称”为必填项' });
    expect(body.errors[999].line).toBe(2001);
    // Rows of the first batches were written before the bad ones were read: all are undone.
    expect(await exists('88.118.8/BULK-0')).toBe(false);
    expect(await records()).toBe(before);

    const good = [HEADER, ...Array.from({ length: 2500 }, (_, i) => row(`BULK-${i}`))];
    expect((await upload(machinery, good.join('\n'))).json().data[0]).toMatchObject({ total: 2500, imported: 2500, failed: 0 });
    expect(await records()).toBe(before + 2500);
    expect(await exists('88.118.8/BULK-2499')).toBe(true);
  });

  it('exports a template as UTF-8 CSV with a BOM that imports again unchanged', async () => {
    // A value a spreadsheet would run as a formula, and one with a comma and quotes.
    const created = await t.app.inject({
      method: 'POST',
      url: '/web-api/identity/v1/record',
      headers: { 'x-requested-with': 'XMLHttpRequest', authorization: staff },
      payload: {
        prefix: '88.118.8',
        suffix: 'EXPORT-1',
        templateId: machinery,
        values: {
          productName: '=HYPERLINK("http://x")',
          productModel: 'HY-E60',
          serialNumber: 'S,1',
          productionDate: '2025-01-02',
          manufacturer: '恒岳 "重工"',
          warrantyPeriod: '12个月',
          serviceHotline: '0516',
        },
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const res = await t.app.inject({
      url: `/web-api/identity/v1/record/export?templateId=${machinery}`,
      headers: { authorization: staff },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent('88.118.8-工程机械整机.csv')}`);
    const raw = res.rawPayload;
    expect([...raw.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = raw.toString('utf8').slice(1);
    const lines = text.split('\r\n');
    expect(lines[0]).toBe('标识,产品名称,产品型号,出厂编号,生产日期,生产厂家,生产工厂,主要参数,发动机型号,质保期,售后电话,服务网点');
    const count = Number(
      (
        await t.database.db
          .selectFrom('idf_record')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('template_id', '=', machinery)
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(text.match(/^88\.118\.8\//gm)).toHaveLength(count);
    expect(text).toContain(`88.118.8/EXPORT-1,"'=HYPERLINK(""http://x"")",HY-E60,"S,1",2025-01-02,"恒岳 ""重工""",,,,12个月,0516,\r\n`);

    // Importing the export again: every row is reported as existing, nothing is written.
    const again = (await upload(machinery, raw)).json().data[0];
    expect(again.total).toBe(count);
    expect(again.imported).toBe(0);
    expect(again.failed).toBe(count);
    expect(again.errors[0].message).toMatch(/已存在$/);
    // The export of the list's search: that record alone. After deleting it, the file restores it exactly (formula guard undone).
    const searched = await t.app.inject({
      url: `/web-api/identity/v1/record/export?templateId=${machinery}&searchKey=EXPORT-`,
      headers: { authorization: staff },
    });
    expect(searched.rawPayload.toString('utf8').slice(1).split('\r\n').filter(Boolean)).toHaveLength(2);
    await t.database.db.deleteFrom('idf_record').where('handle', '=', '88.118.8/EXPORT-1').execute();
    expect((await upload(machinery, searched.rawPayload)).json().data[0].imported).toBe(1);
    const [entry] = (await t.app.inject({ url: '/web-api/portal/v1/identity/query?handle=88.118.8/EXPORT-1' })).json().data;
    expect(entry.identity.value.map((v: { data: { value: string } }) => v.data.value).slice(0, 5)).toEqual([
      '=HYPERLINK("http://x")',
      'HY-E60',
      'S,1',
      '2025-01-02',
      '恒岳 "重工"',
    ]);
    const denied = await t.app.inject({
      url: `/web-api/identity/v1/record/export?templateId=${hydraulic}`,
      headers: { authorization: staff },
    });
    expect(denied.statusCode).toBe(403);
    expect(
      (await t.app.inject({ url: `/web-api/identity/v1/record/export?templateId=${hydraulic}`, headers: { authorization: operator } }))
        .statusCode,
    ).toBe(200);
  });
});
