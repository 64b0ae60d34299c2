import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { CsvDecoder, CsvReader, CsvRecordTooLongError, MAX_RECORD_CHARS, csvWriter, importedCell } from '../csv.js';

/** Reads `text` fed in pieces of `size` characters. */
function readAll(text: string, size = text.length) {
  const reader = new CsvReader();
  const rows = [];
  for (let i = 0; i < text.length; i += size) rows.push(...reader.push(text.slice(i, i + size)));
  rows.push(...reader.end());
  return rows;
}

describe('CsvReader', () => {
  const sample = '标识,产品名称,备注\r\nA-1,挖掘机,"含逗号,的值"\r\nA-2,"起重机 ""QY25""","两行\r\n备注"\nA-3,,\rA-4,装载机,末行';

  it('reads fields, quotes, doubled quotes, every line end and names the line each record starts on', () => {
    const expected = [
      { line: 1, fields: ['标识', '产品名称', '备注'] },
      { line: 2, fields: ['A-1', '挖掘机', '含逗号,的值'] },
      { line: 3, fields: ['A-2', '起重机 "QY25"', '两行\r\n备注'] },
      { line: 5, fields: ['A-3', '', ''] },
      { line: 6, fields: ['A-4', '装载机', '末行'] },
    ];
    expect(readAll(sample)).toEqual(expected);
    // The same records whatever the chunk boundaries (inside quotes, between "" and between CR and LF).
    for (const size of [1, 2, 3, 5, 7, 13]) expect(readAll(sample, size)).toEqual(expected);
  });

  it('reports malformed quoting on its row and goes on', () => {
    const rows = readAll('a,b\nx"y,1\n"z"q,2\nok,3\n"open,4\nnext,5');
    expect(rows.map((r) => [r.line, r.error ?? ''])).toEqual([
      [1, ''],
      [2, '引号使用不正确：含引号的内容须整体放在双引号内，内部引号写作两个'],
      [3, '引号使用不正确：右引号后只能是逗号或换行'],
      [4, ''],
      [5, '引号未闭合'],
    ]);
  });

  it('ignores a final line break and reads an empty text as no records', () => {
    expect(readAll('a,b\n')).toEqual([{ line: 1, fields: ['a', 'b'] }]);
    expect(readAll('')).toEqual([]);
  });

  it('refuses a record longer than 1 MB instead of holding the file in memory', () => {
    const reader = new CsvReader();
    reader.push('a,b\n"');
    expect(() => reader.push('x'.repeat(MAX_RECORD_CHARS + 1))).toThrow(CsvRecordTooLongError);
  });
});

describe('CsvDecoder', () => {
  it('drops a UTF-8 BOM and keeps characters split across chunks', () => {
    const bytes = Buffer.from('\uFEFF标识,名称\n', 'utf8');
    const decoder = new CsvDecoder();
    const text = [...bytes].map((b) => decoder.decode(Uint8Array.of(b))).join('') + decoder.end();
    expect(text).toBe('标识,名称\n');
  });

  it('reads a GBK file (Excel on Chinese Windows) as GB18030', () => {
    // "标识,名称\n" in GBK.
    const gbk = Uint8Array.from([0xb1, 0xea, 0xca, 0xb6, 0x2c, 0xc3, 0xfb, 0xb3, 0xc6, 0x0a]);
    const decoder = new CsvDecoder();
    expect(decoder.decode(gbk) + decoder.end()).toBe('标识,名称\n');
  });
});

/** The bytes `csvWriter` writes for `rows`. */
async function written(rows: string[][]): Promise<Buffer> {
  const writer = csvWriter();
  for (const row of rows) writer.write(row);
  writer.end();
  return buffer(writer);
}

describe('csvWriter', () => {
  it('writes a BOM and CRLF lines, quotes what needs quoting and defuses formulas; the import undoes the guard', async () => {
    const bytes = await written([
      ['88.118.8/EX-1', '含,逗号', '引"号', '两\n行', ' 空格 '],
      ['=HYPERLINK("x")', '+1', '@SUM(A1)', '-2', 'ok', '＝1'],
    ]);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.toString('utf8').slice(1)).toBe(
      '88.118.8/EX-1,"含,逗号","引""号","两\n行"," 空格 "\r\n' + `"'=HYPERLINK(""x"")",'+1,'@SUM(A1),'-2,ok,'＝1\r\n`,
    );
    expect(importedCell('\'=HYPERLINK("x")')).toBe('=HYPERLINK("x")');
    expect(importedCell("'＝1")).toBe('＝1');
    expect(importedCell("'普通")).toBe("'普通");
    const text = (await written([['=1+1', '"a"']])).toString('utf8');
    const [row] = readAll(new CsvDecoder().decode(Buffer.from(text)));
    expect(row?.fields.map(importedCell)).toEqual(['=1+1', '"a"']);
  });
});
