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
  storedHandleAnswer,
  storedIdentityAnswer,
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
      item_values: Buffer.from(JSON.stringify(VALUES)),
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

describe('answers written from the stored item values', () => {
  const record = (itemValues: string | Buffer): StoredRecord => ({
    handle: '88.118.8/EX-2024-中文"1',
    template_id: TEMPLATE.templateId,
    template_version: TEMPLATE.version,
    item_values: Buffer.isBuffer(itemValues) ? itemValues : Buffer.from(itemValues),
    created_at: '2024-11-19T08:00:00.123Z',
    updated_at: '2024-11-20T09:30:00.456Z',
  });
  /** What the text writers answer from the parsed values (tested above against the schema serializer). */
  const textAnswers = (r: StoredRecord, values: ItemValue[]) => ({
    identity: localIdentityAnswer(r.handle, values, TEMPLATE),
    handle: localHandleAnswer(r, '88.118.8', TEMPLATE, 86400, values),
  });
  const storedAnswers = (r: StoredRecord) => ({
    identity: storedIdentityAnswer(r.handle, r.item_values, TEMPLATE),
    handle: storedHandleAnswer(r, '88.118.8', TEMPLATE, 86400),
  });

  // Every escape JSON.stringify writes (short forms and \u00xx), raw Chinese, emoji and U+2028.
  const CANONICAL: ItemValue[] = [
    [2000, 'productName', '大型履带式液压挖掘机'],
    [2001, 'note\\"x', '引号"与反斜杠\\ 换行\n制表\t回车\r退格\b换页\f'],
    [2002, 'ctl', '控制字符\u0000\u0001\u001f\u007f'],
    [2003, 'emoji', '𠮷🚜 与扩展汉字\u2028'],
    [2004, 'empty', ''],
    [0, 'zero', '</script><b onclick="x">'],
  ];

  it('copies values stored as JSON.stringify writes them: the same bytes as the text writers', () => {
    const r = record(JSON.stringify(CANONICAL));
    const stored = storedAnswers(r);
    expect(Buffer.isBuffer(stored.identity)).toBe(true);
    expect(Buffer.isBuffer(stored.handle)).toBe(true);
    const text = textAnswers(r, CANONICAL);
    expect(stored.identity.toString()).toBe(text.identity);
    expect(stored.handle.toString()).toBe(text.handle);
  });

  it('answers a record with no values and one with many (more than the scanner first holds)', () => {
    for (const values of [[], Array.from({ length: 300 }, (_, i): ItemValue => [2000 + i, `t${i}`, `值${i}`])]) {
      const r = record(JSON.stringify(values));
      const stored = storedAnswers(r);
      expect(Buffer.isBuffer(stored.handle)).toBe(true);
      expect(stored.identity.toString()).toBe(textAnswers(r, values).identity);
      expect(stored.handle.toString()).toBe(textAnswers(r, values).handle);
      expect(JSON.parse(stored.handle.toString()).values).toHaveLength(2 + values.length);
    }
  });

  it.each([
    ['whitespace', '[[2000, "productName", "甲"]]'],
    ['an escaped slash', '[[2000,"productName","a\\/b"]]'],
    ['a needless \\u escape', '[[2000,"productName","\\u4e2d"]]'],
    ['an escaped surrogate pair', '[[2000,"productName","\\ud83d\\ude9c"]]'],
    ['a lone surrogate', JSON.stringify([[2000, 'productName', '孤立代理\ud800项']])],
    ['upper-case hex', '[[2000,"productName","\\u001F"]]'],
    ['a short form written long', '[[2000,"productName","\\u000a"]]'],
    ['a negative index', '[[-1,"productName","甲"]]'],
    ['a fractional index', '[[2000.5,"productName","甲"]]'],
    ['a fourth field', '[[2000,"productName","甲",1]]'],
  ])('falls back to the text writers for values stored with %s, and answers the same', (_, json) => {
    const r = record(json);
    const values = JSON.parse(json) as ItemValue[];
    const stored = storedAnswers(r);
    expect(typeof stored.identity).toBe('string');
    expect(typeof stored.handle).toBe('string');
    expect(stored).toEqual(textAnswers(r, values));
  });

  it.each([
    ['a leading zero', '[[02000,"productName","甲"]]'],
    ['a raw control character', '[[2000,"productName","a\tb"]]'],
    ['an unterminated string', '[[2000,"productName","甲]]'],
    ['an unclosed list', '[[2000,"productName","甲"]'],
    ['text after the list', '[[2000,"productName","甲"]]x'],
  ])('never copies text that is not JSON (%s): it goes to the parser, which refuses it', (_, json) => {
    const r = record(json);
    expect(() => storedIdentityAnswer(r.handle, r.item_values, TEMPLATE)).toThrow(SyntaxError);
    expect(() => storedHandleAnswer(r, '88.118.8', TEMPLATE, 86400)).toThrow(SyntaxError);
  });

  it('falls back for bytes that are not UTF-8, and still answers valid JSON', () => {
    const r = record(Buffer.concat([Buffer.from('[[2000,"productName","'), Buffer.from([0xe4, 0xb8]), Buffer.from('"]]')]));
    const stored = storedAnswers(r);
    expect(typeof stored.handle).toBe('string');
    expect(JSON.parse(stored.handle.toString()).values[2].data.value).toBe('\ufffd');
  });

  it('answers each record its own handle and timestamps, with the head of its template version', () => {
    const a = record('[[2000,"productName","甲"]]');
    const b = { ...record('[[2000,"productName","乙"]]'), handle: '88.118.8/B', created_at: '2025-01-01T00:00:00.000Z' };
    const other = { ...TEMPLATE, version: 4, name: '新版本' };
    expect(JSON.parse(storedHandleAnswer(a, '88.118.8', TEMPLATE, 86400).toString()).values[0].timestamp).toBe('2024-11-19T08:00:00Z');
    const answerB = JSON.parse(storedHandleAnswer(b, '88.118.9', other, 60).toString());
    expect(answerB.handle).toBe('88.118.8/B');
    expect(answerB.values[0]).toMatchObject({ ttl: 60, timestamp: '2025-01-01T00:00:00Z', data: { value: { handle: '0.NA/88.118.9' } } });
    expect(answerB.values[1].data.value).toBe('新版本 v4');
    expect(storedHandleAnswer(b, '88.118.9', other, 60).toString()).toBe(
      localHandleAnswer(b, '88.118.9', other, 60, [[2000, 'productName', '乙']]),
    );
  });
});
