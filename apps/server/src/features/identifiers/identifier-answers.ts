import { HandleResponseCode, type HandleValue, ResponseCode } from '@portal/shared';
import { Type } from 'typebox';
import { Envelope, OK_MESSAGE } from '../../lib/envelope.js';
import { handleAnswerBytes, identityAnswerBytes } from './answer-bytes.js';
import {
  type StoredRecord,
  type TemplateVersionInfo,
  handleTimestamp,
  parseStoredItemValues,
  recordHeadValues,
  templateInUse,
} from './handle-values.js';
import type { ItemValue } from './template-items.js';

// The answers of the public resolution (spec section 7 "Identity lookup" and the Handle.net JSON API)
// and the JSON text of their hot case: a found record. The schemas are the routes' response schemas
// (OpenAPI, and the serializer of every other answer); the writers below produce exactly what the
// schema serializer would, without its per-request cost (tested against it in identifier-answers.test.ts):
// the template half of a portal answer is written once per template version, and only the item values
// are escaped per request. Measured: 24 µs of a 70 µs lookup went to serializing the answer.

const StringData = Type.Object({ format: Type.Literal('string'), value: Type.String() });
const AdminData = Type.Object({
  format: Type.Literal('admin'),
  value: Type.Object({ handle: Type.String(), index: Type.Integer(), permissions: Type.String() }),
});
const HandleValueSchema = Type.Object({
  index: Type.Integer(),
  type: Type.String(),
  data: Type.Union([StringData, AdminData]),
  ttl: Type.Integer(),
  timestamp: Type.String(),
});
export const HandleResponseSchema = Type.Object({
  responseCode: Type.Integer({ description: '1 成功，2 服务器错误，100 标识不存在，102 标识格式不正确，200 没有符合条件的值' }),
  handle: Type.Optional(Type.String()),
  values: Type.Optional(Type.Array(HandleValueSchema)),
  message: Type.Optional(Type.String()),
});

const IdentityEntrySchema = Type.Object({
  identity: Type.Object({
    handle: Type.String(),
    value: Type.Array(Type.Object({ index: Type.Integer(), type: Type.String(), data: StringData })),
  }),
  template: Type.Object({
    name: Type.String(),
    version: Type.Integer(),
    items: Type.Array(Type.Object({ name: Type.String(), idType: Type.String(), idIndex: Type.Integer() })),
  }),
});
export const IdentityAnswerSchema = Envelope(IdentityEntrySchema);

/** Characters JSON.stringify writes other than as themselves: quote, backslash, controls, surrogates. */
// eslint-disable-next-line no-control-regex -- the control characters are what is looked for
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A string as JSON text: most values (types, dates, plain Chinese text) need no escaping at all. */
function str(value: string): string {
  return NEEDS_ESCAPE.test(value) ? JSON.stringify(value) : `"${value}"`;
}

const ENVELOPE_HEAD = `{"code":${ResponseCode.Success},"msg":${str(OK_MESSAGE)},"data":[`;

/** `]},"template":{…}}]}`: the end of a portal answer, per template version (versions never change). */
const answerTails = new WeakMap<TemplateVersionInfo, { text: string; bytes: Buffer }>();

function answerTail(template: TemplateVersionInfo): { text: string; bytes: Buffer } {
  let tail = answerTails.get(template);
  if (tail === undefined) {
    const { name, version, items } = templateInUse(template);
    const text = `]},"template":${JSON.stringify({ name, version, items })}}]}`;
    tail = { text, bytes: Buffer.from(text) };
    answerTails.set(template, tail);
  }
  return tail;
}

const identityHead = (handle: string) => `${ENVELOPE_HEAD}{"identity":{"handle":${str(handle)},"value":[`;

/** The portal's lookup answer for a local record (spec section 3, "Identity record from lookup") as JSON text. */
export function localIdentityAnswer(handle: string, itemValues: readonly ItemValue[], template: TemplateVersionInfo): string {
  let text = identityHead(handle);
  for (let i = 0; i < itemValues.length; i++) {
    const [index, type, value] = itemValues[i]!;
    if (i > 0) text += ',';
    text += `{"index":${index},"type":${str(type)},"data":{"format":"string","value":${str(value)}}}`;
  }
  return `${text}${answerTail(template).text}`;
}

/**
 * The same answer from the record's stored item values (UTF-8 JSON): copied as bytes when stored as
 * JSON.stringify writes them (answer-bytes.ts), else parsed and written as text.
 */
export function storedIdentityAnswer(handle: string, itemValuesJson: Buffer, template: TemplateVersionInfo): Buffer | string {
  return (
    identityAnswerBytes(identityHead(handle), itemValuesJson, answerTail(template).bytes) ??
    localIdentityAnswer(handle, parseStoredItemValues(itemValuesJson), template)
  );
}

/** One Handle value as JSON text; `end` is its `,"ttl":…,"timestamp":…}`. */
function handleValueText({ index, type, data }: HandleValue, end: string): string {
  const dataText =
    data.format === 'string'
      ? `{"format":"string","value":${str(data.value)}}`
      : `{"format":"admin","value":{"handle":${str(data.value.handle)},"index":${data.value.index},"permissions":${str(data.value.permissions)}}}`;
  return `{"index":${index},"type":${str(type)},"data":${dataText}${end}`;
}

const valueEnd = (ttl: number, timestamp: string) => `,"ttl":${ttl},"timestamp":${str(timestamp)}}`;

/** A found handle's Handle API answer: responseCode 1 with its values, or 200 when the filters left none. */
export function handleValuesAnswer(handle: string, values: readonly HandleValue[]): string {
  const code = values.length > 0 ? HandleResponseCode.Success : HandleResponseCode.ValuesNotFound;
  let text = `{"responseCode":${code},"handle":${str(handle)},"values":[`;
  // A record's values share their ttl and mostly their timestamp: their text is written once.
  let ttl = NaN;
  let timestamp = '';
  let end = '';
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!;
    if (value.ttl !== ttl || value.timestamp !== timestamp) {
      ({ ttl, timestamp } = value);
      end = valueEnd(ttl, timestamp);
    }
    if (i > 0) text += ',';
    text += handleValueText(value, end);
  }
  return `${text}]}`;
}

/** A local record's Handle answer around its handle and HS_ADMIN and TEMPLATE timestamps (the rest is per template version). */
interface HandleHeadPieces {
  prefix: string;
  ttl: number;
  /** From `,"values":[` to HS_ADMIN's timestamp. */
  toCreated: string;
  /** From HS_ADMIN's timestamp to TEMPLATE's. */
  toUpdated: string;
}
const handleHeads = new WeakMap<TemplateVersionInfo, HandleHeadPieces>();

function handleHeadPieces(prefix: string, template: TemplateVersionInfo, ttl: number): HandleHeadPieces {
  let pieces = handleHeads.get(template);
  if (pieces === undefined || pieces.prefix !== prefix || pieces.ttl !== ttl) {
    // A value's text without its end, then its own `,"ttl":…,"timestamp":` before the timestamp.
    const [admin, templateValue] = recordHeadValues({ created_at: '', updated_at: '' }, prefix, template, ttl).map(
      (value) => `${handleValueText(value, '')},"ttl":${ttl},"timestamp":`,
    );
    pieces = { prefix, ttl, toCreated: `,"values":[${admin}`, toUpdated: `},${templateValue}` };
    handleHeads.set(template, pieces);
  }
  return pieces;
}

/** A local record's Handle API answer up to its first item value: HS_ADMIN and TEMPLATE. */
function localHandleHead(record: StoredRecord, prefix: string, template: TemplateVersionInfo, ttl: number): string {
  const { toCreated, toUpdated } = handleHeadPieces(prefix, template, ttl);
  const created = str(handleTimestamp(record.created_at));
  const updated = str(handleTimestamp(record.updated_at));
  return `{"responseCode":${HandleResponseCode.Success},"handle":${str(record.handle)}${toCreated}${created}${toUpdated}${updated}}`;
}

/**
 * A local record's whole Handle API answer (no type or index filter), written from its item values
 * without a value object for each: the same text as
 * `handleValuesAnswer(record.handle, recordHandleValues(…))`.
 */
export function localHandleAnswer(
  record: StoredRecord,
  prefix: string,
  template: TemplateVersionInfo,
  ttl: number,
  itemValues: readonly ItemValue[],
): string {
  let text = localHandleHead(record, prefix, template, ttl);
  const end = valueEnd(ttl, handleTimestamp(record.updated_at));
  for (const [index, type, value] of itemValues) {
    text += `,{"index":${index},"type":${str(type)},"data":{"format":"string","value":${str(value)}}${end}`;
  }
  return `${text}]}`;
}

/** The same answer from the record's stored item values: bytes copied when it can (see storedIdentityAnswer). */
export function storedHandleAnswer(record: StoredRecord, prefix: string, template: TemplateVersionInfo, ttl: number): Buffer | string {
  return (
    handleAnswerBytes(
      localHandleHead(record, prefix, template, ttl),
      record.item_values,
      valueEnd(ttl, handleTimestamp(record.updated_at)),
    ) ?? localHandleAnswer(record, prefix, template, ttl, parseStoredItemValues(record.item_values))
  );
}
