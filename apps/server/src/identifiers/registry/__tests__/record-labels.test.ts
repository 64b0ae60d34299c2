import { LABEL_MAX_RECORDS, LabelMessage, type IdentifierRecord, type LabelRequest } from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLabelPdf } from '../../../testing/label-pdf-reader.js';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';

const PUBLIC_URL = 'https://portal.example.cn';
// The server also answers for a second host name: the QR codes still carry PUBLIC_URL.
const ENV = { PUBLIC_URL, ALLOWED_HOSTS: 'localhost:80,mirror.example.net' };
const LABELS = '/web-api/identity/v1/record/labels';

const markUrl = (handle: string) => `${PUBLIC_URL}/mark?keyword=${encodeURIComponent(handle)}&src=qr`;
const byHandle = (a: { handle: string }, b: { handle: string }) => (a.handle < b.handle ? -1 : a.handle > b.handle ? 1 : 0);

describe.each(testDialects())('QR labels on %s', (dialect) => {
  let t: TestApp;
  let operator: string;
  let admin: string;
  let staff: string;
  let service: string;
  let rcadmin: string;
  beforeAll(async () => {
    t = await createTestApp(dialect, ENV);
    operator = await tokenFor(t, 'operator');
    admin = await tokenFor(t, 'admin');
    staff = await tokenFor(t, 'staff');
    service = await tokenFor(t, 'service');
    rcadmin = await tokenFor(t, 'rcadmin');
  });
  afterAll(() => t.close());

  const headers = (token?: string) => ({ 'x-requested-with': 'XMLHttpRequest', ...(token ? { authorization: token } : {}) });
  const labels = (token: string | undefined, body: Partial<LabelRequest> & Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: LABELS,
      headers: { ...headers(token), host: 'mirror.example.net' },
      payload: { size: '100x70', layout: 'sheet', fields: [], ...body },
    });
  /** The records the list shows for these filters, in handle order (the order labels are printed in). */
  const listed = async (token: string, query: string): Promise<IdentifierRecord[]> => {
    const res = await t.app.inject({ url: `/web-api/identity/v1/record/page/list?limit=100&${query}`, headers: headers(token) });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().data[0].rows as IdentifierRecord[]).sort(byHandle);
  };
  /** 操作日志 entries of label downloads, newest first, as platform operators see them (every enterprise). */
  const labelAudits = async () => {
    const res = await t.app.inject({
      url: '/web-api/console/v1/audit/page/list?action=identifier.record.labels&limit=100',
      headers: headers(operator),
    });
    return res.json().data[0] as { total: number; rows: { actionName: string; target: string; detail: string; username: string }[] };
  };
  const expectRefused = (res: { statusCode: number; json(): unknown; headers: Record<string, unknown> }, status: number, msg: string) => {
    expect(res.statusCode).toBe(status);
    expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
    expect(res.json()).toEqual({ code: 1, msg });
  };

  it('prints the selected records: each QR code opens /mark for its handle with src=qr, beside the handle and the chosen fields', async () => {
    const chosen = (await listed(staff, 'searchKey=CR-2023')).slice(0, 3);
    expect(chosen).toHaveLength(3);
    const res = await labels(staff, {
      ids: chosen.map((r) => r.id).reverse(),
      size: '100x70',
      layout: 'sheet',
      fields: ['productName', 'productModel'],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(
      new RegExp(
        `^attachment; filename=identifier-labels-\\d{4}-\\d{2}-\\d{2}\\.pdf; filename\\*=UTF-8''${encodeURIComponent('标识标签-')}\\d{4}-\\d{2}-\\d{2}\\.pdf$`,
      ),
    );
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    const pages = await readLabelPdf(res.rawPayload);
    expect(pages).toHaveLength(1);
    expect(pages[0]!.size).toEqual([210, 297]);
    expect(pages[0]!.qr).toEqual(chosen.map((r) => markUrl(r.handle)));
    for (const r of chosen) {
      expect(pages[0]!.text).toContain(r.handle);
      expect(pages[0]!.text).toContain(`产品名称：${r.values.productName}`);
      expect(pages[0]!.text).toContain(`产品型号：${r.values.productModel}`);
      expect(pages[0]!.text).not.toContain('出厂编号');
    }
  });

  it('fills A4 sheets of the chosen size in rows, or prints one label a page sized to the label', async () => {
    const records = await listed(admin, 'searchKey=EX-2023');
    expect(records).toHaveLength(40);
    const expected = records.map((r) => markUrl(r.handle));

    // 40 × 30 mm: 4 columns and 9 rows on A4, so 40 labels take two sheets.
    const sheet = await labels(admin, { searchKey: 'EX-2023', size: '40x30', layout: 'sheet', fields: ['serialNumber'], cutGuides: true });
    expect(sheet.statusCode, sheet.body).toBe(200);
    const sheets = await readLabelPdf(sheet.rawPayload);
    expect(sheets.map((p) => p.qr.length)).toEqual([36, 4]);
    expect(sheets.flatMap((p) => p.qr)).toEqual(expected);
    expect(sheets.every((p) => p.size[0] === 210 && p.size[1] === 297)).toBe(true);
    expect(sheets[1]!.text).toContain(`出厂编号：${records[39]!.values.serialNumber}`);

    const single = await labels(admin, { searchKey: 'EX-2023', size: '50x30', layout: 'single', fields: [] });
    expect(single.statusCode, single.body).toBe(200);
    const singles = await readLabelPdf(single.rawPayload);
    expect(singles).toHaveLength(40);
    expect(singles.every((p) => p.size[0] === 50 && p.size[1] === 30 && p.qr.length === 1)).toBe(true);
    expect(singles.flatMap((p) => p.qr)).toEqual(expected);
    expect(singles[0]!.text).toBe(records[0]!.handle);
  });

  it('is open to whoever may list records: staff and administrators their enterprise, operators every one', async () => {
    const [own] = await listed(staff, 'searchKey=LD-2024');
    const [other] = await listed(rcadmin, 'searchKey=HP-2024');
    for (const token of [staff, admin]) {
      const res = await labels(token, { ids: [own!.id], layout: 'single', size: '60x40' });
      expect(res.statusCode, res.body).toBe(200);
    }
    const both = await labels(operator, { ids: [own!.id, other!.id], layout: 'single', size: '60x40', fields: ['productName'] });
    expect(both.statusCode, both.body).toBe(200);
    const pages = await readLabelPdf(both.rawPayload);
    expect(pages.flatMap((p) => p.qr)).toEqual([own!, other!].sort(byHandle).map((r) => markUrl(r.handle)));

    expectRefused(await labels(service, { ids: [own!.id] }), 403, '当前账号无权限');
    expect((await labels(undefined, { ids: [own!.id] })).json()).toMatchObject({ code: 20300 });
  });

  it("never prints another enterprise's records: their ids answer 404, their prefix is refused as in the list", async () => {
    const [theirs] = await listed(staff, 'searchKey=EX-2024');
    const [mine] = await listed(rcadmin, 'searchKey=HV-2024');
    const before = (await labelAudits()).total;
    expectRefused(await labels(rcadmin, { ids: [theirs!.id] }), 404, '标识不存在');
    expectRefused(await labels(rcadmin, { ids: [mine!.id, theirs!.id] }), 404, '标识不存在');
    expectRefused(await labels(rcadmin, { ids: [99_999_999] }), 404, '标识不存在');
    expectRefused(await labels(rcadmin, { prefix: '88.118.8' }), 403, '标识前缀 88.118.8 属于其他企业，无权操作');
    expect((await labelAudits()).total).toBe(before);

    // Without a prefix the filter covers the user's own records only.
    const res = await labels(rcadmin, { searchKey: 'HV-2024', size: '70x50', layout: 'sheet' });
    expect(res.statusCode, res.body).toBe(200);
    const printed = (await readLabelPdf(res.rawPayload)).flatMap((p) => p.qr);
    expect(printed).toHaveLength(30);
    expect(printed.every((url) => url.startsWith(`${PUBLIC_URL}/mark?keyword=${encodeURIComponent('88.118.16/HV-2024-')}`))).toBe(true);
  });

  it('refuses requests it cannot print, in Chinese, without writing anything', async () => {
    const [record] = await listed(staff, 'searchKey=CR-2024');
    const before = (await labelAudits()).total;
    expectRefused(await labels(staff, { searchKey: 'NO-SUCH' }), 400, LabelMessage.none);
    expectRefused(await labels(staff, { ids: [] }), 400, LabelMessage.none);
    expectRefused(await labels(staff, { ids: Array.from({ length: LABEL_MAX_RECORDS + 1 }, (_, i) => i + 1) }), 400, LabelMessage.tooMany);
    expectRefused(
      await labels(staff, { ids: [record!.id], fields: ['productName', 'productModel', 'serialNumber'] }),
      400,
      LabelMessage.tooManyFields,
    );
    expectRefused(await labels(staff, { ids: [record!.id], fields: ['ratedPressure'] }), 400, LabelMessage.unknownField);
    const badSize = await labels(staff, { ids: [record!.id], size: '10x10' as never });
    expect(badSize.statusCode).toBe(400);
    expect(badSize.json()).toEqual({ code: 1, msg: '请求体 size 取值不正确' });
    expect((await labelAudits()).total).toBe(before);
  });

  it('audits each download like the other exports', async () => {
    const chosen = (await listed(staff, 'searchKey=LD-2023')).slice(0, 2);
    const res = await labels(staff, { ids: chosen.map((r) => r.id), layout: 'single', size: '40x30' });
    expect(res.statusCode, res.body).toBe(200);
    const [latest] = (await labelAudits()).rows;
    expect(latest).toMatchObject({ username: 'staff', actionName: '打印标识标签', target: '2 个标识', detail: '单张标签 40x30 mm' });
  });

  it(`refuses a filter over ${LABEL_MAX_RECORDS} records with a message suggesting a narrower one; ${LABEL_MAX_RECORDS} print`, async () => {
    const prefix = await t.app.prefixRepository.byPrefix('88.118.16');
    const template = await t.database.db
      .selectFrom('idf_template')
      .select(['id', 'version'])
      .where('prefix_id', '=', prefix!.id)
      .executeTakeFirstOrThrow();
    const version = await t.app.templateRepository.version(template.id, template.version);
    // BULK-00000 … BULK-04999 and BULKX-1: the search `BULK` finds one over the limit, `BULK-` the limit.
    const extra = [
      ...Array.from({ length: LABEL_MAX_RECORDS }, (_, i) => `88.118.16/BULK-${String(i).padStart(5, '0')}`),
      '88.118.16/BULKX-1',
    ].map((handle) => ({ handle, itemValues: JSON.stringify([[2000, 'productName', '液压油缸']]) }));
    for (let i = 0; i < extra.length; i += 500) {
      await t.app.recordRepository.insertNew({ prefixId: prefix!.id, template: version! }, extra.slice(i, i + 500));
    }
    const before = (await labelAudits()).total;
    expectRefused(await labels(rcadmin, { searchKey: 'BULK', size: '40x30' }), 400, LabelMessage.tooMany);
    expectRefused(await labels(rcadmin, { prefix: '88.118.16', size: '40x30' }), 400, LabelMessage.tooMany);
    expect((await labelAudits()).total).toBe(before);

    const res = await labels(rcadmin, { prefix: '88.118.16', searchKey: 'BULK-', size: '40x30', layout: 'sheet', fields: ['productName'] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(res.rawPayload.subarray(-6).toString()).toMatch(/%%EOF\s*$/);
    expect((await labelAudits()).rows[0]).toMatchObject({ username: 'rcadmin', target: `${LABEL_MAX_RECORDS} 个标识` });
  });
});
