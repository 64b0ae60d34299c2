/** Excel reads a UTF-8 file as UTF-8 only when it starts with the byte-order mark. */
export const UTF8_BOM = '\uFEFF';

/**
 * One CSV field (RFC 4180): always quoted, quotes doubled. A text that a spreadsheet would run as a
 * formula (starting with = + - @, a tab or a carriage return) gets a leading apostrophe (OWASP CSV injection).
 */
export function csvCell(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

/** One CSV record with its CRLF line end. */
export function csvLine(cells: readonly (string | number | null | undefined)[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/**
 * `attachment` with an ASCII fallback name for old clients and the real (Chinese) name as
 * RFC 5987 `filename*` (UTF-8, percent-encoded).
 */
export function attachmentDisposition(filename: string, asciiFallback: string): string {
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const fallback = asciiFallback.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
