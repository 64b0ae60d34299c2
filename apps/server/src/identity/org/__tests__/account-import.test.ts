import { ACCOUNT_IMPORT_MAX_ROWS, type AccountImportResult, PasswordMessage, TenantMessage } from '@portal/shared';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';
import { verifyPassword } from '../../accounts/passwords.js';
import { consoleClient } from './account-test-client.js';

const HEADER = '账号,姓名,手机号,邮箱,账号组,角色,初始密码';
const BOM = '\uFEFF';
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

describe.each(testDialects())('账号导入与导出 on %s', (dialect) => {
  let t: TestApp;
  let c: ReturnType<typeof consoleClient>;
  let admin: string;
  let rcadmin: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = consoleClient(t);
    admin = await tokenFor(t, 'admin');
    rcadmin = await tokenFor(t, 'rcadmin');
  });
  afterAll(() => t.close());

  const imported = async (token: string, filename: string, bytes: Buffer | string, type?: string) => {
    const res = await c.upload(token, filename, bytes, type);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ msg: string; data: AccountImportResult[] }>();
  };
  const refused = async (bytes: Buffer | string, status = 400, filename = 'accounts.csv') => {
    const res = await c.upload(admin, filename, bytes);
    expect(res.statusCode, res.body).toBe(status);
    return res.json().msg;
  };

  it('offers the template as CSV (UTF-8 with BOM, the header row) and as XLSX', async () => {
    const csv = await c.call(admin, 'GET', '/account/import/template?format=csv');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent('账号导入模板.csv')}`);
    expect(csv.body).toBe(
      `${BOM}${HEADER.split(',')
        .map((h) => `"${h}"`)
        .join(',')}\r\n`,
    );
    const xlsx = await c.call(admin, 'GET', '/account/import/template?format=xlsx');
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toBe(XLSX_TYPE);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(new Uint8Array(xlsx.rawPayload).buffer);
    expect(workbook.worksheets.map((w) => w.name)).toEqual(['账号导入', '填写说明']);
    expect(workbook.worksheets[0]?.getRow(1).values).toEqual([undefined, ...HEADER.split(',')]);
    const help = Array.from(workbook.getWorksheet('填写说明')?.getColumn(2).values ?? [], (v) => String(v ?? ''));
    expect(help.find((text) => text.includes('随机密码'))).toMatch(/^选填。.*不能是常见密码.*不填则系统生成随机密码并以短信发送到该手机号/);
    expect((await c.call(admin, 'GET', '/account/import/template?format=pdf')).statusCode).toBe(400);
  });

  it('imports a CSV file: groups and roles by name, everyone to change the initial password; audited', async () => {
    const file = [
      HEADER,
      'qianyu,钱宇,13900000101,qianyu@hengyue-hi.cn,质量部、生产部,普通员工',
      'sunmei,孙梅,13900000102,,信息中心,"企业管理员,质检员"',
      'zhouyi,周毅,13900000103,,,客户员工',
    ]
      .map((line, i) => (i === 0 ? line : `${line},Init@2026`))
      .join('\r\n');
    const answer = await imported(admin, '账号.csv', `${BOM}${file}\r\n`);
    expect(answer.msg).toBe('导入完成：成功导入 3 个账号');
    expect(answer.data[0]).toEqual({ total: 3, imported: 3, failed: 0, errors: [], smsSent: 0, smsFailed: [] });
    expect(await c.row(admin, 'qianyu')).toMatchObject({
      name: '钱宇',
      phone: '13900000101',
      email: 'qianyu@hengyue-hi.cn',
      groups: [{ name: '质量部' }, { name: '生产部' }],
      roles: [{ code: 'ROLE_ENTERPRISE_STAFF' }],
      state: 'active',
    });
    expect((await c.row(admin, 'sunmei'))?.roles.map((r) => r.name)).toEqual(['企业管理员', '质检员']);
    expect((await c.row(admin, 'zhouyi'))?.roles.map((r) => r.code)).toEqual(['ROLE_SERVICE_CUSTOMER_EMPLOYEE']);
    for (const username of ['qianyu', 'sunmei', 'zhouyi']) {
      const account = await t.app.accountRepository.findForLogin(username);
      expect(account?.mustChangePassword).toBe(true);
      expect(await verifyPassword(account?.password_hash, 'Init@2026')).toBe(true);
    }
    expect((await c.audit(admin, 'account.import'))[0]).toMatchObject({ target: '账号.csv', outcome: 'success', detail: '导入 3 个账号' });
  });

  it('imports an XLSX file, columns in any order, phones typed as numbers', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Sheet1');
    sheet.addRow(['姓名', '账号', '手机号', '初始密码']);
    sheet.addRow(['吴昊', 'wuhao', 13900000111, 'Excel#2026']);
    sheet.addRow([]);
    sheet.addRow(['郑洁', 'zhengjie', '13900000112', 'Excel#2026']);
    const answer = await imported(admin, 'accounts.xlsx', Buffer.from(await workbook.xlsx.writeBuffer()), XLSX_TYPE);
    expect(answer.data[0]).toEqual({ total: 2, imported: 2, failed: 0, errors: [], smsSent: 0, smsFailed: [] });
    expect(await c.row(admin, 'wuhao')).toMatchObject({ name: '吴昊', phone: '13900000111', groups: [], roles: [] });
    expect(await verifyPassword((await t.app.accountRepository.findForLogin('zhengjie'))?.password_hash, 'Excel#2026')).toBe(true);
  });

  it('a file with bad rows writes nothing and lists every bad row with its line', async () => {
    const file = [
      HEADER,
      'goodone,好人,13900000121,,,,Init@2026',
      '1bad,坏账号,13900000122,,,,Init@2026',
      'goodtwo,"多行',
      '姓名",13900000123,,,,Init@2026',
      'goodone,重复,13900000124,,,,Init@2026',
      'dupphone,重号,13900000121,,,,Init@2026',
      'staff,已有,13800000002,,,,Init@2026',
      'nogroup,无组,13900000125,not-mail,外部部门,管理员,',
      '',
      'shortpw,短密码,13900000126,,生产部,普通员工,123',
      'commonpw,常见密码,13900000127,,,,Password1',
    ].join('\n');
    const answer = await imported(admin, 'bad.csv', file);
    expect(answer.msg).toBe('导入失败：7 行有误，未导入任何账号');
    expect(answer.data[0]).toEqual({
      total: 9,
      imported: 0,
      failed: 7,
      smsSent: 0,
      smsFailed: [],
      errors: [
        { line: 3, message: TenantMessage.usernameInvalid },
        { line: 6, message: '账号与第 2 行重复' },
        { line: 7, message: '手机号与第 2 行重复' },
        { line: 8, message: `${TenantMessage.usernameTaken}；${TenantMessage.phoneTaken}` },
        {
          line: 9,
          // An empty 初始密码 is no longer a fault: that row would get a random password by SMS.
          message: `${TenantMessage.emailInvalid}；账号组“外部部门”不存在；角色“管理员”不存在`,
        },
        { line: 11, message: TenantMessage.passwordTooShort },
        { line: 12, message: PasswordMessage.tooCommon },
      ],
    });
    for (const username of ['goodone', 'goodtwo', 'shortpw', 'commonpw']) expect(await c.row(admin, username)).toBeUndefined();
    expect((await c.audit(admin, 'account.import'))[0]).toMatchObject({
      target: 'bad.csv',
      outcome: 'failure',
      detail: '7 行有误，未导入',
    });
  });

  it('checks rows against the importing enterprise: another’s groups and roles do not exist there', async () => {
    const answer = await imported(rcadmin, 'rc.csv', `${HEADER}\nrcuser,瑞驰员工,13900000131,,质量部,质检员,Init@2026\n`);
    expect(answer.data[0]?.errors).toEqual([{ line: 2, message: '账号组“质量部”不存在；角色“质检员”不存在' }]);
    const ok = await imported(rcadmin, 'rc.csv', `${HEADER}\nrcuser,瑞驰员工,13900000131,,,客户员工,Init@2026\n`);
    expect(ok.data[0]?.imported).toBe(1);
    expect(await c.row(rcadmin, 'rcuser')).toBeDefined();
    expect(await c.row(admin, 'rcuser')).toBeUndefined();
  });

  it('refuses files it cannot read, with a reason', async () => {
    expect(await refused('')).toBe('文件为空：第 1 行应为表头');
    expect(await refused(`${HEADER},部门\n`)).toBe('第 1 行（表头）第 8 列“部门”不是导入模板中的列');
    expect(await refused('账号,姓名\nabc,某人\n')).toBe('表头缺少“手机号”列，请使用导入模板');
    expect(await refused(`${HEADER}\n`)).toBe('文件中没有要导入的账号');
    expect(await refused(`${HEADER}\nabc,"未闭合,13900000141,,,,Init@2026\n`)).toMatch(/^第 2 行：CSV 格式不正确/);
    const rows = Array.from(
      { length: ACCOUNT_IMPORT_MAX_ROWS + 1 },
      (_, i) => `user${i},某人,139${String(i).padStart(8, '0')},,,,Init@2026`,
    );
    expect(await refused(`${HEADER}\n${rows.join('\n')}`)).toBe(`一次最多导入 ${ACCOUNT_IMPORT_MAX_ROWS} 个账号`);
    expect(await refused(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0, 0, 0, 0]), 400, 'old.xls')).toBe(
      '不支持 .xls 格式，请另存为 .xlsx 或 CSV 后导入',
    );
    expect(await refused(Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]), 400, 'broken.xlsx')).toBe(
      '无法读取该 Excel 文件，请使用导入模板另存为 .xlsx 后重试',
    );
    expect(await refused(Buffer.alloc(1024 * 1024 + 1, 0x61), 413)).toBe('文件不能超过 1 MB');
    const empty = await c.call(admin, 'POST', '/account/import', {});
    expect(empty.statusCode).toBe(400);
  });

  it('exports the current filters as CSV (UTF-8 with BOM, the list’s columns), audited', async () => {
    const res = await c.call(admin, 'GET', '/account/export?state=disabled');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename=accounts-\d{14}\.csv; filename\*=UTF-8''%E8%B4%A6%E5%8F%B7-\d{14}\.csv$/,
    );
    const lines = res.body.split('\r\n');
    expect(lines[0]).toBe(`${BOM}"账号","姓名","手机号","邮箱","账号组","角色","状态","最近登录","创建时间"`);
    expect(lines[1]).toMatch(
      /^"chenming","陈明","13800000014","chenming@hengyue-hi.cn","","普通员工","停用","","\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}"$/,
    );
    expect(lines.slice(2)).toEqual(['']);
    const all = await c.call(admin, 'GET', `/account/export?keyword=${encodeURIComponent('钱宇')}`);
    expect(all.body).toContain('"qianyu","钱宇","13900000101","qianyu@hengyue-hi.cn","质量部、生产部","普通员工","正常"');
    // A name a spreadsheet would run as a formula is defused.
    await t.database.db.updateTable('account').set({ name: '=1+1' }).where('username', '=', 'zhouyi').execute();
    expect((await c.call(admin, 'GET', '/account/export?keyword=zhouyi')).body).toContain(`"zhouyi","'=1+1"`);
    const everything = await c.call(admin, 'GET', '/account/export');
    expect(everything.body.split('\r\n').filter(Boolean)).toHaveLength(1 + (await c.page(admin)).total);
    expect((await c.audit(admin, 'account.export')).map((e) => e.target)).toEqual(['全部', 'zhouyi', '钱宇', 'disabled']);
  });

  it('exports in batches past the first one, newest first', async () => {
    const rows = Array.from({ length: 620 }, (_, i) => `bulk${i},批量${i},137${String(i).padStart(8, '0')},,,,Init@2026`);
    expect((await imported(rcadmin, 'bulk.csv', `${HEADER}\n${rows.join('\n')}`)).data[0]?.imported).toBe(620);
    const res = await c.call(rcadmin, 'GET', '/account/export?keyword=bulk');
    const usernames = res.body
      .split('\r\n')
      .slice(1)
      .filter(Boolean)
      .map((line) => line.split(',')[0]?.replaceAll('"', ''));
    // One import shares its creation time: the id breaks the tie, across batches too.
    expect(usernames).toEqual(Array.from({ length: 620 }, (_, i) => `bulk${619 - i}`));
  });
});
