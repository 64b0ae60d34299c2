import { describe, expect, it } from 'vitest';
import { attachment, csvWriter } from '../audit-csv.js';

/** The file the writer makes of `records`, after the header row `时间,IP`. */
async function csv(records: (string | null)[][]): Promise<string> {
  const writer = csvWriter(['时间', 'IP']);
  for (const record of records) writer.write(record);
  writer.end();
  let text = '';
  for await (const chunk of writer) text += String(chunk);
  return text;
}

describe('CSV writer', () => {
  it('starts with the UTF-8 BOM and the header row; quotes every field, doubles inner quotes, ends records with CRLF', async () => {
    expect(
      await csv([
        ['登录', '说 "你好"'],
        ['a,b\r\nc', null],
      ]),
    ).toBe('\uFEFF"时间","IP"\r\n"登录","说 ""你好"""\r\n"a,b\r\nc",""\r\n');
  });

  it.each(['=HYPERLINK("http://x")', '+1+1', '-2+3', '@SUM(A1)', '\tcmd', '\rcmd'])('defuses a formula: %j', async (value) => {
    const record = (await csv([[value, '']])).split('"时间","IP"\r\n')[1] ?? '';
    expect(record.startsWith(`"'`)).toBe(true);
    expect(record.slice(2, -'",""\r\n'.length).replace(/""/g, '"')).toBe(value);
  });
});

describe('Content-Disposition', () => {
  it('carries an ASCII fallback and the Chinese name as RFC 8187 UTF-8', () => {
    expect(attachment('操作日志-20261120.csv', 'audit-log-20261120.csv')).toBe(
      `attachment; filename=audit-log-20261120.csv; filename*=UTF-8''%E6%93%8D%E4%BD%9C%E6%97%A5%E5%BF%97-20261120.csv`,
    );
  });
});
