import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';
import { HandleApiResponseSchema as HandleResponseSchema, IdentityQueryAnswerSchema as IdentityAnswerSchema } from '@portal/shared';

// Texts JSON must escape, and characters it must not mangle.
const QUOTED = '引号"与反斜杠\\ </script><b onclick="x">';
const WIDE = '𠮷🚜 emoji\u2028与扩展汉字';
const ISO_SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

const item = (name: string, idType: string, state: 0 | 1 = 1) => ({
  name,
  idType,
  required: false,
  state,
  metadata: { type: 'string', minLength: 0, maxLength: 64 },
});

describe.each(testDialects())('the answers of the public resolution on %s', (dialect) => {
  let t: TestApp;
  const handle = '88.118.8/ANS-(1):a/b';
  const templateName = '工程机械 "特种" \\ 版';
  let indexes: Record<string, number>;

  beforeAll(async () => {
    t = await createTestApp(dialect, { HANDLE_TTL_SECONDS: '3600' });
    const [admin, staff] = [await tokenFor(t, 'admin'), await tokenFor(t, 'staff')];
    const call = (token: string, method: 'POST' | 'PUT', url: string, payload: object) =>
      t.app.inject({ method, url, headers: { 'x-requested-with': 'XMLHttpRequest', authorization: token }, payload });
    const created = await call(admin, 'POST', '/web-api/identity/v1/template', {
      prefix: '88.118.8',
      name: templateName,
      items: [item('产品名称', 'productName'), item('停用项', 'retired'), item('备注 "说明"', 'note')],
    });
    expect(created.statusCode, created.body).toBe(200);
    const templateId: number = created.json().data[0].id;
    // Version 2 retires an item: a record written with it lists only the items in use.
    const edited = await call(admin, 'PUT', `/web-api/identity/v1/template/${templateId}`, {
      name: templateName,
      items: [item('产品名称', 'productName'), item('停用项', 'retired', 0), item('备注 "说明"', 'note')],
    });
    expect(edited.statusCode, edited.body).toBe(200);
    indexes = Object.fromEntries(edited.json().data[0].items.map((i: { idType: string; idIndex: number }) => [i.idType, i.idIndex]));
    const record = await call(staff, 'POST', '/web-api/identity/v1/record', {
      prefix: '88.118.8',
      suffix: handle.slice('88.118.8/'.length),
      templateId,
      values: { productName: QUOTED, note: WIDE },
    });
    expect(record.statusCode, record.body).toBe(200);
  });
  afterAll(() => t.close());

  it('answers the lookup as spec section 3 describes it, every text intact', async () => {
    const res = await t.app.inject({ url: `/web-api/portal/v1/identity/query?handle=${encodeURIComponent(handle)}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const body: unknown = res.json();
    expect(Value.Check(IdentityAnswerSchema, body)).toBe(true);
    expect(body).toEqual({
      code: 20200,
      msg: '操作成功',
      data: [
        {
          identity: {
            handle,
            value: [
              { index: indexes.productName, type: 'productName', data: { format: 'string', value: QUOTED } },
              { index: indexes.note, type: 'note', data: { format: 'string', value: WIDE } },
            ],
          },
          template: {
            name: templateName,
            version: 2,
            items: [
              { name: '产品名称', idType: 'productName', idIndex: indexes.productName },
              { name: '备注 "说明"', idType: 'note', idIndex: indexes.note },
            ],
          },
        },
      ],
    });
  });

  it('answers the Handle API in the Handle.net JSON shape: HS_ADMIN, TEMPLATE, then the items, with the configured ttl', async () => {
    const res = await t.app.inject({ url: `/api/handles/${encodeURIComponent(handle)}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = res.json();
    expect(Value.Check(HandleResponseSchema, body)).toBe(true);
    const [created, updated] = [body.values[0].timestamp, body.values[1].timestamp];
    expect(created).toMatch(ISO_SECONDS);
    expect(updated).toMatch(ISO_SECONDS);
    expect(body).toEqual({
      responseCode: 1,
      handle,
      values: [
        {
          index: 100,
          type: 'HS_ADMIN',
          data: { format: 'admin', value: { handle: '0.NA/88.118.8', index: 200, permissions: '011111110011' } },
          ttl: 3600,
          timestamp: created,
        },
        { index: 1001, type: 'TEMPLATE', data: { format: 'string', value: `${templateName} v2` }, ttl: 3600, timestamp: updated },
        { index: indexes.productName, type: 'productName', data: { format: 'string', value: QUOTED }, ttl: 3600, timestamp: updated },
        { index: indexes.note, type: 'note', data: { format: 'string', value: WIDE }, ttl: 3600, timestamp: updated },
      ],
    });
    const filtered = await t.app.inject({ url: `/api/handles/${encodeURIComponent(handle)}?type=NOTE&index=1001` });
    expect(filtered.json().values.map((v: { type: string }) => v.type)).toEqual(['TEMPLATE', 'note']);
  });
});
