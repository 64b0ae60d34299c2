import { TextDecoder } from 'node:util';
import { type Stringifier, stringify } from 'csv-stringify';

/** One CSV record: the physical line it starts on (1-based), its fields, and why it is malformed. */
export interface CsvRow {
  line: number;
  fields: string[];
  error?: string;
}

/** A record longer than this is refused: most likely an unclosed quote swallowing the rest of the file. */
export const MAX_RECORD_CHARS = 1 << 20;

export class CsvRecordTooLongError extends Error {
  constructor(readonly line: number) {
    super(`第 ${line} 行内容超过 1 MB，可能是引号未闭合`);
    this.name = 'CsvRecordTooLongError';
  }
}

/** Line breaks in a piece of text: CRLF, LF and a lone CR each count once. */
function lineBreaks(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) n++;
    else if (c === 13 && text.charCodeAt(i + 1) !== 10) n++;
  }
  return n;
}

interface Parsed {
  fields: string[];
  error?: string;
  /** Where the next record starts. */
  next: number;
  /** Line breaks the record spans, its own end included. */
  lines: number;
}

const BAD_QUOTE = '引号使用不正确：含引号的内容须整体放在双引号内，内部引号写作两个';

/**
 * Parses the record at `pos`, or answers undefined when the text ends before the record does and
 * more may come (`final` false).
 */
function parseRecord(text: string, pos: number, final: boolean): Parsed | undefined {
  const fields: string[] = [];
  let error: string | undefined;
  let lines = 0;
  let i = pos;
  for (;;) {
    let field = '';
    const quoted = text.charCodeAt(i) === 34;
    if (quoted) {
      // Quoted field: runs to the next quote not doubled.
      i++;
      for (;;) {
        const q = text.indexOf('"', i);
        if (q < 0) {
          if (!final) return undefined;
          field += text.slice(i);
          lines += lineBreaks(text.slice(i));
          error ??= '引号未闭合';
          fields.push(field);
          return { fields, error, next: text.length, lines };
        }
        field += text.slice(i, q);
        lines += lineBreaks(text.slice(i, q));
        if (q + 1 === text.length && !final) return undefined;
        if (text.charCodeAt(q + 1) === 34) {
          field += '"';
          i = q + 2;
          continue;
        }
        i = q + 1;
        break;
      }
    }
    // Unquoted text (or what follows a closing quote) up to a comma or line end.
    let j = i;
    for (; j < text.length; j++) {
      const c = text.charCodeAt(j);
      if (c === 44 || c === 10 || c === 13) break;
    }
    if (j > i) {
      const rest = text.slice(i, j);
      if (quoted) error ??= '引号使用不正确：右引号后只能是逗号或换行';
      else if (rest.includes('"')) error ??= BAD_QUOTE;
      field += rest;
    }
    if (j === text.length) {
      if (!final) return undefined;
      fields.push(field);
      return { fields, ...(error ? { error } : {}), next: j, lines };
    }
    fields.push(field);
    const c = text.charCodeAt(j);
    if (c === 44) {
      i = j + 1;
      continue;
    }
    if (c === 13) {
      if (j + 1 === text.length && !final) return undefined;
      j += text.charCodeAt(j + 1) === 10 ? 2 : 1;
    } else j += 1;
    return { fields, ...(error ? { error } : {}), next: j, lines: lines + 1 };
  }
}

/**
 * A streaming CSV reader (RFC 4180: comma, double quotes, doubled quotes inside quotes, CRLF, LF or CR
 * line ends, line breaks inside quoted fields). Feed it text as it arrives; it answers the records
 * completed so far with the line each starts on, so an import can name the line of a bad row.
 * Not csv-parse: after a stray quote its relaxed and skipping modes resume at another record than the
 * one after the bad line, so the import's per-line report (and a bad row's neighbours) would change.
 */
export class CsvReader {
  /** Text of a record not yet complete. */
  #pending = '';
  /** The line `#pending` starts on. */
  #line = 1;

  push(text: string): CsvRow[] {
    return this.#parse(this.#pending + text, false);
  }

  /** The last record, when the text did not end with a line break. */
  end(): CsvRow[] {
    return this.#parse(this.#pending, true);
  }

  #parse(text: string, final: boolean): CsvRow[] {
    const rows: CsvRow[] = [];
    let pos = 0;
    while (pos < text.length) {
      const record = parseRecord(text, pos, final);
      if (!record) break;
      rows.push({ line: this.#line, fields: record.fields, ...(record.error ? { error: record.error } : {}) });
      this.#line += record.lines;
      pos = record.next;
    }
    this.#pending = text.slice(pos);
    if (this.#pending.length > MAX_RECORD_CHARS) throw new CsvRecordTooLongError(this.#line);
    return rows;
  }
}

/**
 * Decodes an uploaded file as it streams: UTF-8 (a BOM is dropped), or GB18030 when the first bytes
 * are not UTF-8 (Excel for Chinese Windows saves "CSV (逗号分隔)" in the ANSI code page, GBK).
 */
export class CsvDecoder {
  #decoder: TextDecoder | undefined;

  decode(chunk: Uint8Array): string {
    if (!this.#decoder) {
      let encoding = 'utf-8';
      try {
        new TextDecoder('utf-8', { fatal: true }).decode(chunk, { stream: true });
      } catch {
        encoding = 'gb18030';
      }
      this.#decoder = new TextDecoder(encoding);
    }
    return this.#decoder.decode(chunk, { stream: true });
  }

  end(): string {
    return this.#decoder?.decode() ?? '';
  }
}

/**
 * The export's CSV writer (RFC 4180, CRLF line ends): a UTF-8 BOM first, so that Excel reads the file
 * as UTF-8 (Chinese would be garbled otherwise); fields with a comma, quote, line break or edge
 * whitespace quoted; cells a spreadsheet would run as a formula start with `'` (OWASP: CSV injection).
 */
export function csvWriter(): Stringifier {
  return stringify({
    bom: true,
    record_delimiter: 'windows',
    quote_record_delimiter: true,
    quoted_match: /^\s|\s$/,
    escape_formulas: true,
  });
}

/** Cells `csvWriter` defused: a formula start (csv-stringify's list, full-width forms included) after `'`. */
const DEFUSED_FORMULA = /^'[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/** Undoes `csvWriter`'s formula guard when a file exported here is imported again. */
export function importedCell(value: string): string {
  return DEFUSED_FORMULA.test(value) ? value.slice(1) : value;
}
