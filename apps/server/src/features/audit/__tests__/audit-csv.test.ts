import { describe, expect, it } from 'vitest';
import { attachmentDisposition, csvCell, csvLine } from '../audit-csv.js';

describe('CSV cells', () => {
  it('quote every field and double inner quotes; commas and line breaks stay inside the field', () => {
    expect(csvCell('登录')).toBe('"登录"');
    expect(csvCell('说 "你好"')).toBe('"说 ""你好"""');
    expect(csvCell('a,b\r\nc')).toBe('"a,b\r\nc"');
    expect(csvCell(null)).toBe('""');
    expect(csvCell(42)).toBe('"42"');
  });

  it.each(['=HYPERLINK("http://x")', '+1+1', '-2+3', '@SUM(A1)', '\tcmd', '\rcmd'])('defuses a formula: %j', (value) => {
    const cell = csvCell(value);
    expect(cell.startsWith(`"'`)).toBe(true);
    expect(cell.slice(2, -1).replace(/""/g, '"')).toBe(value);
  });

  it('ends a record with CRLF', () => {
    expect(csvLine(['时间', 'IP'])).toBe('"时间","IP"\r\n');
  });
});

describe('Content-Disposition', () => {
  it('carries an ASCII fallback and the Chinese name as RFC 5987 UTF-8', () => {
    expect(attachmentDisposition('操作日志-20261120.csv', 'audit-log-20261120.csv')).toBe(
      `attachment; filename="audit-log-20261120.csv"; filename*=UTF-8''%E6%93%8D%E4%BD%9C%E6%97%A5%E5%BF%97-20261120.csv`,
    );
    expect(attachmentDisposition("it's (1).csv", 'a"b\\c.csv')).toBe(
      `attachment; filename="a_b_c.csv"; filename*=UTF-8''it%27s%20%281%29.csv`,
    );
  });
});
