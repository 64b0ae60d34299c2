import { isUtf8 } from 'node:buffer';

// The hot answers of the public resolution written as bytes straight from a record's stored item
// values (the UTF-8 JSON text `[[index,"type","value"],…]` that `JSON.stringify` wrote), without
// decoding them to strings, parsing, re-escaping and encoding again. Each item's three JSON literals
// are copied as they are stored: that is exactly what the text writers of identifier-answers.ts
// write, as long as the stored text is in the form `JSON.stringify` gives. `scanItemValues` accepts
// only that form; for anything else (whitespace, other escapes, a lone surrogate) the writers here
// answer `undefined` and the caller falls back to the text writers. Measured on a generated record:
// the Handle answer takes 4.4 µs instead of 8.6 µs, and the server no longer decodes the stored text
// (about 1 µs) nor encodes the answer (about 1.5 µs) of a 57 µs request.

/** Offsets of each item's literals: index start/end, type start/end, value start/end (quotes included). */
const FIELDS = 6;
let offsets = new Int32Array(FIELDS * 64);

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN = 0x5b;
const CLOSE = 0x5d;
const ZERO = 0x30;
const NINE = 0x39;

/** JSON.stringify's short escapes: \" \\ \b \f \n \r \t. */
const SHORT_ESCAPES = new Set([QUOTE, BACKSLASH, 0x62, 0x66, 0x6e, 0x72, 0x74]);

const hexDigit = (byte: number): number => (byte >= ZERO && byte <= NINE ? byte - ZERO : byte >= 0x61 && byte <= 0x66 ? byte - 0x57 : -1);

/**
 * The end of the string literal that starts at `from` (its opening quote), just past its closing
 * quote; -1 unless the literal is what `JSON.stringify` writes: no raw control character, only the
 * short escapes, and `\u00xx` (lower-case hex) only for the other control characters.
 */
function stringEnd(json: Uint8Array, from: number): number {
  if (json[from] !== QUOTE) return -1;
  for (let i = from + 1; i < json.length; i++) {
    const byte = json[i]!;
    if (byte === QUOTE) return i + 1;
    if (byte < 0x20) return -1;
    if (byte !== BACKSLASH) continue;
    const escaped = json[++i];
    if (escaped === undefined) return -1;
    if (SHORT_ESCAPES.has(escaped)) continue;
    if (escaped !== 0x75 || json[i + 1] !== ZERO || json[i + 2] !== ZERO) return -1;
    const high = hexDigit(json[i + 3] ?? 0);
    const low = hexDigit(json[i + 4] ?? 0);
    const code = high * 16 + low;
    // \u0008 \u0009 \u000a \u000c \u000d have short forms, which JSON.stringify uses.
    if (high < 0 || low < 0 || code >= 0x20 || code === 8 || code === 9 || code === 10 || code === 12 || code === 13) return -1;
    i += 4;
  }
  return -1;
}

/**
 * Scans stored item values; answers how many items there are, with their literals' offsets in
 * `offsets`, or -1 when the text is not in the form `JSON.stringify` writes.
 */
function scanItemValues(json: Uint8Array): number {
  if (!isUtf8(json)) return -1;
  const end = json.length;
  if (json[0] !== OPEN) return -1;
  let i = 1;
  let count = 0;
  if (json[i] === CLOSE) return i + 1 === end ? 0 : -1;
  for (;;) {
    if (json[i++] !== OPEN) return -1;
    if (offsets.length < (count + 1) * FIELDS) {
      const grown = new Int32Array(offsets.length * 2);
      grown.set(offsets);
      offsets = grown;
    }
    const at = count * FIELDS;
    // The index: a non-negative integer as JSON.stringify writes it (no sign, no leading zero).
    offsets[at] = i;
    if (json[i] === ZERO) i++;
    else while (json[i]! >= ZERO && json[i]! <= NINE) i++;
    if (i === offsets[at] || i - offsets[at]! > 10) return -1;
    offsets[at + 1] = i;
    if (json[i++] !== COMMA) return -1;
    offsets[at + 2] = i;
    i = stringEnd(json, i);
    if (i < 0) return -1;
    offsets[at + 3] = i;
    if (json[i++] !== COMMA) return -1;
    offsets[at + 4] = i;
    i = stringEnd(json, i);
    if (i < 0) return -1;
    offsets[at + 5] = i;
    if (json[i++] !== CLOSE) return -1;
    count++;
    const next = json[i++];
    if (next === CLOSE) return i === end ? count : -1;
    if (next !== COMMA) return -1;
  }
}

const ascii = (text: string): Uint8Array => Buffer.from(text, 'latin1');

/** Copies `source[from, to)` to `target` at `at`; answers the end. A loop for short pieces beats a native call. */
function put(target: Uint8Array, at: number, source: Uint8Array, from = 0, to = source.length): number {
  if (to - from > 24) {
    target.set(from === 0 && to === source.length ? source : source.subarray(from, to), at);
    return at + to - from;
  }
  for (let i = from; i < to; i++) target[at++] = source[i]!;
  return at;
}

const INDEX = ascii('{"index":');
const TYPE = ascii(',"type":');
const DATA = ascii(',"data":{"format":"string","value":');

/** Bytes of `{"index":…,"type":…,"data":{"format":"string","value":…}` for `count` scanned items. */
function itemBytes(count: number): number {
  let size = 0;
  for (let k = 0; k < count * FIELDS; k += FIELDS) {
    size += offsets[k + 1]! - offsets[k]! + offsets[k + 3]! - offsets[k + 2]! + offsets[k + 5]! - offsets[k + 4]!;
  }
  return size + count * (INDEX.length + TYPE.length + DATA.length + 1);
}

function putItem(target: Uint8Array, at: number, json: Uint8Array, k: number): number {
  at = put(target, at, INDEX);
  at = put(target, at, json, offsets[k], offsets[k + 1]);
  at = put(target, at, TYPE);
  at = put(target, at, json, offsets[k + 2], offsets[k + 3]);
  at = put(target, at, DATA);
  at = put(target, at, json, offsets[k + 4], offsets[k + 5]);
  target[at++] = 0x7d; // } of data
  return at;
}

const END_VALUES = ascii(']}');

/**
 * `head` + each item as a Handle value ending in `valueEnd` (`,"ttl":…,"timestamp":…}`), each after a
 * comma, + `]}`: a Handle API answer. `undefined` when the stored text is not in the form
 * JSON.stringify writes.
 */
export function handleAnswerBytes(head: string, json: Uint8Array, valueEnd: string): Buffer | undefined {
  const count = scanItemValues(json);
  if (count < 0) return undefined;
  const body = Buffer.allocUnsafe(head.length * 3 + itemBytes(count) + count * (Buffer.byteLength(valueEnd) + 1) + END_VALUES.length);
  let at = body.write(head, 0);
  // Every item ends the same: written once, then copied.
  let endFrom = -1;
  let endTo = -1;
  for (let k = 0; k < count * FIELDS; k += FIELDS) {
    body[at++] = COMMA;
    at = putItem(body, at, json, k);
    if (endFrom < 0) {
      endFrom = at;
      at += body.write(valueEnd, at);
      endTo = at;
    } else {
      body.copyWithin(at, endFrom, endTo);
      at += endTo - endFrom;
    }
  }
  at = put(body, at, END_VALUES);
  return body.subarray(0, at);
}

/** `head` + each item as `{"index":…,"type":…,"data":{…}}`, comma separated, + `tail`: a portal lookup answer. */
export function identityAnswerBytes(head: string, json: Uint8Array, tail: Uint8Array): Buffer | undefined {
  const count = scanItemValues(json);
  if (count < 0) return undefined;
  const body = Buffer.allocUnsafe(head.length * 3 + itemBytes(count) + count * 2 + tail.length);
  let at = body.write(head, 0);
  for (let k = 0; k < count * FIELDS; k += FIELDS) {
    if (k > 0) body[at++] = COMMA;
    at = putItem(body, at, json, k);
    body[at++] = 0x7d; // } of the value
  }
  at = put(body, at, tail);
  return body.subarray(0, at);
}
