import { HandleResponseCode, type HandleValue, type TemplateItem } from '@portal/shared';
import Fastify from 'fastify';
import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { ok } from '../../../lib/envelope.js';
import { recordHandleValues, type StoredRecord, type TemplateVersionInfo } from '../handle-values.js';
import {
  HandleResponseSchema,
  IdentityAnswerSchema,
  handleValuesAnswer,
  localHandleAnswer,
  localIdentityAnswer,
} from '../identifier-answers.js';
import type { ItemValue } from '../template-items.js';

// Strings that JSON must escape, and characters it must not mangle.
const AWKWARD = [
  '引号"与反斜杠\\',
  '孤立代理\ud800项',
  '换行\n制表\t回车\r',
  '控制字符\u0001\u001f',
  '</script><b onclick="x">',
  '𠮷🚜 emoji 与扩展汉字',
  '',
  ' ',
];

const item = (idIndex: number, idType: string, name: string, state: 0 | 1): TemplateItem => ({
  name,
  idType,
  idIndex,
  required: false,
  state,
  metadata: { type: 'string', minLength: 0, maxLength: 255 },
});

const TEMPLATE: TemplateVersionInfo = {
  templateId: 7,
  version: 3,
  name: '工程机械整机 "特种"',
  items: [item(2000, 'productName', '产品名称', 1), item(2001, 'retired', '停用项', 0), item(2002, 'note\\"x', '备注\n说明', 1)],
};

const VALUES: ItemValue[] = AWKWARD.map((value, i) => [2000 + i, i % 2 ? 'productName' : 'note\\"x', value]);

/** A Fastify route answering `body` through `schema`: what the schema serializer writes. */
async function serializedBySchema(schema: object, body: unknown): Promise<string> {
  const app = Fastify({ logger: false });
  app.get('/', { schema: { response: { 200: schema } } }, async () => body);
  try {
    return (await app.inject({ url: '/' })).body;
  } finally {
    await app.close();
  }
}

describe('the identity lookup answer written as text', () => {
  it('is byte for byte what the response schema serializes from the entry object', async () => {
    const handle = '88.118.8/EX-"2024"\\000123';
    // The answer as an object: each value in stored order, then the template's items in use.
    const entry = ok([
      {
        identity: { handle, value: VALUES.map(([index, type, value]) => ({ index, type, data: { format: 'string', value } })) },
        template: {
          name: TEMPLATE.name,
          version: TEMPLATE.version,
          items: [
            { name: '产品名称', idType: 'productName', idIndex: 2000 },
            { name: '备注\n说明', idType: 'note\\"x', idIndex: 2002 },
          ],
        },
      },
    ]);
    const text = localIdentityAnswer(handle, VALUES, TEMPLATE);
    expect(text).toBe(await serializedBySchema(IdentityAnswerSchema, entry));
    const parsed: unknown = JSON.parse(text);
    expect(Value.Check(IdentityAnswerSchema, parsed)).toBe(true);
    expect(parsed).toEqual(entry);
  });

  it('lists only the template items in use, in template order, and no values when the record has none', async () => {
    const parsed = JSON.parse(localIdentityAnswer('88.118.8/A', [], TEMPLATE)) as {
      data: { identity: { value: unknown[] }; template: { items: { idIndex: number }[] } }[];
    };
    expect(parsed.data[0]!.identity.value).toEqual([]);
    expect(parsed.data[0]!.template.items.map((i) => i.idIndex)).toEqual([2000, 2002]);
  });

  it('writes the template half once per template version and still answers each record its own values', () => {
    const a = localIdentityAnswer('88.118.8/A', [[2000, 'productName', '甲']], TEMPLATE);
    const b = localIdentityAnswer('88.118.8/B', [[2000, 'productName', '乙']], TEMPLATE);
    expect(JSON.parse(a).data[0].identity).toEqual({
      handle: '88.118.8/A',
      value: [{ index: 2000, type: 'productName', data: { format: 'string', value: '甲' } }],
    });
    expect(JSON.parse(b).data[0].identity.handle).toBe('88.118.8/B');
    const other = localIdentityAnswer('88.118.8/A', [], { ...TEMPLATE, version: 4, name: '新版本' });
    expect(JSON.parse(other).data[0].template).toMatchObject({ name: '新版本', version: 4 });
  });
});

describe('the Handle API answer written as text', () => {
  const values: HandleValue[] = [
    {
      index: 100,
      type: 'HS_ADMIN',
      data: { format: 'admin', value: { handle: '0.NA/88.118.8', index: 200, permissions: '011111110011' } },
      ttl: 86400,
      timestamp: '2024-11-19T08:00:00Z',
    },
    { index: 1001, type: 'TEMPLATE', data: { format: 'string', value: '工程机械整机 v3' }, ttl: 86400, timestamp: '2024-11-20T08:00:00Z' },
    ...AWKWARD.map((value, i) => ({
      index: 2000 + i,
      type: `type"${i}\\`,
      data: { format: 'string' as const, value },
      ttl: 3600,
      timestamp: '2024-11-20T08:00:00Z',
    })),
  ];

  it('is byte for byte what the response schema serializes, admin and string values alike', async () => {
    const body = { responseCode: HandleResponseCode.Success, handle: '88.118.8/EX"1', values };
    const text = handleValuesAnswer('88.118.8/EX"1', values);
    expect(text).toBe(await serializedBySchema(HandleResponseSchema, body));
    expect(Value.Check(HandleResponseSchema, JSON.parse(text))).toBe(true);
    expect(JSON.parse(text)).toEqual(body);
  });

  it('answers responseCode 200 with no values when the filters left none', async () => {
    const body = { responseCode: HandleResponseCode.ValuesNotFound, handle: '88.118.8/A', values: [] };
    const text = handleValuesAnswer('88.118.8/A', []);
    expect(text).toBe(await serializedBySchema(HandleResponseSchema, body));
    expect(JSON.parse(text)).toEqual(body);
  });

  it("writes a local record's whole answer from its stored values, as the generic writer does from value objects", async () => {
    const record: StoredRecord = {
      handle: '88.118.8/EX"2024\\001',
      template_id: TEMPLATE.templateId,
      template_version: TEMPLATE.version,
      item_values: JSON.stringify(VALUES),
      created_at: '2024-11-19T08:00:00.123Z',
      updated_at: '2024-11-20T09:30:00.456Z',
    };
    const values = recordHandleValues(record, '88.118.8', TEMPLATE, 86400, VALUES);
    const text = localHandleAnswer(record, '88.118.8', TEMPLATE, 86400, VALUES);
    expect(text).toBe(handleValuesAnswer(record.handle, values));
    expect(text).toBe(
      await serializedBySchema(HandleResponseSchema, { responseCode: HandleResponseCode.Success, handle: record.handle, values }),
    );
    expect(JSON.parse(text).values.map((v: { index: number }) => v.index)).toEqual([100, 1001, ...VALUES.map(([index]) => index)]);
    expect(localHandleAnswer(record, '88.118.8', TEMPLATE, 60, [])).toBe(
      handleValuesAnswer(record.handle, recordHandleValues(record, '88.118.8', TEMPLATE, 60, [])),
    );
  });
});
