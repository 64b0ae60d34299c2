import { create as contentDisposition } from 'content-disposition';
import { stringify } from 'csv-stringify';

/**
 * A streaming CSV writer (RFC 4180): every field quoted, CRLF record ends, a header row, and the
 * UTF-8 byte-order mark Excel needs to read the file as UTF-8. A text a spreadsheet would run as a
 * formula (= + - @, a tab or a carriage return first) gets a leading apostrophe (OWASP CSV injection).
 */
export function csvWriter(header: readonly string[]) {
  return stringify({
    bom: true,
    header: true,
    columns: [...header],
    quoted: true,
    quoted_empty: true,
    escape_formulas: true,
    record_delimiter: '\r\n',
  });
}

/** `attachment` with an ASCII fallback name for old clients and the real (Chinese) name as RFC 8187 `filename*`. */
export function attachment(filename: string, asciiFallback: string): string {
  return contentDisposition(filename, { fallback: asciiFallback });
}
