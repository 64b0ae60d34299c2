import { ACCOUNT_IMPORT_SMS_MAX_ROWS, type AccountImportResult, creditCodeCheckChar } from '@portal/shared';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_PASSWORD } from '../../../seed/accounts-seed.js';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';
import { listen, TestBrowser } from '../../../testing/test-browser.js';
import { verifyPassword } from '../../accounts/passwords.js';
import { randomPassword } from '../account-passwords.js';
import { consoleClient, outbox } from './account-test-client.js';

describe('random passwords (随机密码并短信通知)', () => {
  it('are 10 letters and digits with both cases and a digit, no look-alikes, and never repeat', () => {
    const passwords = Array.from({ length: 2000 }, randomPassword);
    for (const p of passwords) {
      expect(p).toMatch(/^[A-HJ-NP-Za-km-np-z2-9]{10}$/);
      expect(p).toMatch(/[A-Z]/);
      expect(p).toMatch(/[a-z]/);
      expect(p).toMatch(/\d/);
    }
    expect(new Set(passwords).size).toBe(passwords.length);
  });
});

const staffRole = async (c: ReturnType<typeof consoleClient>, token: string) =>
  (await c.options(token)).roles.find((r) => r.code === 'ROLE_ENTERPRISE_STAFF')?.id ?? -1;

describe.each(testDialects())('passwords by SMS on %s', (dialect) => {
  let t: TestApp;
  let c: ReturnType<typeof consoleClient>;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp(dialect, { SMS_OUTBOX: '1' });
    c = consoleClient(t);
    admin = await tokenFor(t, 'admin');
  });
  afterAll(() => t.close());

  it('新增 with 随机密码并短信通知 sends the password to the new account’s phone', async () => {
    const res = await c.call(admin, 'POST', '/account', {
      username: 'smsuser',
      name: '短信用户',
      phone: '13900000201',
      groupIds: [],
      roleIds: [await staffRole(c, admin)],
      passwordMode: 'sms',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().msg).toBe('账号已创建，初始密码已通过短信发送');
    const [sms] = await outbox(t, '13900000201');
    expect(sms?.templateKey).toBe('password');
    expect(Object.keys(sms?.params ?? {})).toEqual(['password']);
    const account = await t.app.accountRepository.findForLogin('smsuser');
    expect(account?.mustChangePassword).toBe(true);
    expect(await verifyPassword(account?.password_hash, sms?.params.password ?? '')).toBe(true);
    expect((await c.audit(admin, 'account.create'))[0]?.detail).toBe('随机密码已短信发送');
  });

  const importAnswer = async (res: { statusCode: number; body: string; json<T>(): T }) => {
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ msg: string; data: AccountImportResult[] }>();
  };
  /** The account's password is the one texted to `phone`, and it must change it at its first login. */
  const texted = async (username: string, phone: string) => {
    const [sms] = await outbox(t, phone);
    expect(sms?.templateKey).toBe('password');
    const account = await t.app.accountRepository.findForLogin(username);
    expect(account?.mustChangePassword).toBe(true);
    expect(await verifyPassword(account?.password_hash, sms?.params.password ?? '')).toBe(true);
    return sms?.params.password ?? '';
  };

  it('导入: a row without 初始密码 gets a random password by SMS; a row with one keeps it and gets no message', async () => {
    const file = [
      '账号,姓名,手机号,初始密码',
      'impsms1,导入一,13900000211,',
      'impsms2,导入二,13900000212,Init@2026',
      'impsms3,导入三,13900000213,',
    ];
    const answer = await importAnswer(await c.upload(admin, 'sms.csv', file.join('\n')));
    expect(answer.msg).toBe('导入完成：成功导入 3 个账号，2 个初始密码已通过短信发送');
    expect(answer.data[0]).toEqual({ total: 3, imported: 3, failed: 0, errors: [], smsSent: 2, smsFailed: [] });
    const one = await texted('impsms1', '13900000211');
    const three = await texted('impsms3', '13900000213');
    expect(one).not.toBe(three);
    expect(one).toMatch(/^[A-HJ-NP-Za-km-np-z2-9]{10}$/);
    expect(await outbox(t, '13900000212')).toEqual([]);
    expect(await verifyPassword((await t.app.accountRepository.findForLogin('impsms2'))?.password_hash, 'Init@2026')).toBe(true);
    expect((await c.audit(admin, 'account.import'))[0]).toMatchObject({
      target: 'sms.csv',
      outcome: 'success',
      detail: '导入 3 个账号，其中 2 个随机密码以短信发送',
    });
  });

  it('导入 refuses more random passwords than one import may text, and writes nothing', async () => {
    const lines = Array.from({ length: ACCOUNT_IMPORT_SMS_MAX_ROWS + 1 }, (_, i) => `impcap${i},导入,139${String(10_000_000 + i)},`);
    const res = await c.upload(admin, 'many.csv', ['账号,姓名,手机号,初始密码', ...lines].join('\n'));
    expect(res.statusCode).toBe(400);
    expect(res.json<{ code: number; msg: string }>()).toMatchObject({
      code: 1,
      msg: `一次最多为 ${ACCOUNT_IMPORT_SMS_MAX_ROWS} 个账号生成随机密码并短信发送（本次 ${ACCOUNT_IMPORT_SMS_MAX_ROWS + 1} 个），请分批导入或填写初始密码`,
    });
    expect(await t.app.accountRepository.findForLogin('impcap0')).toBeUndefined();
    expect(await outbox(t, '13910000000')).toEqual([]);
  });

  it('导入 of an Excel file without the 初始密码 column: the texted password signs in once, to choose a new one', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('账号导入');
    sheet.addRow(['账号', '姓名', '手机号']);
    sheet.addRow(['impxlsx', '表格导入', '13900000221']);
    const bytes = Buffer.from(await workbook.xlsx.writeBuffer());
    const answer = await importAnswer(
      await c.upload(admin, 'a.xlsx', bytes, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'),
    );
    expect(answer.data[0]).toMatchObject({ imported: 1, smsSent: 1, smsFailed: [] });
    const password = await texted('impxlsx', '13900000221');
    const base = await listen(t.app);
    const [page] = await new TestBrowser(base).casLogin('impxlsx', password, `${base}/demo-app/login`);
    expect(page?.status).toBe(200);
    expect(page?.text).toContain('修改初始密码');
  });

  it('导入: a message the provider refuses is listed; the account exists and 重置密码 sends it another', async () => {
    const send = t.app.smsSender.send.bind(t.app.smsSender);
    // The provider turns down one number (as a blacklisted or suspended phone is).
    const refusing = vi.spyOn(t.app.smsSender, 'send').mockImplementation(async (message) => {
      if (message.phone === '13900000232') throw new Error('短信发送失败：isv.BLACK_KEY_CONTROL_LIMIT');
      return send(message);
    });
    try {
      const file = ['账号,姓名,手机号', 'impfail1,发送一,13900000231', 'impfail2,发送二,13900000232'];
      const answer = await importAnswer(await c.upload(admin, 'fail.csv', file.join('\n')));
      expect(answer.msg).toBe('导入完成：成功导入 2 个账号，1 个初始密码已通过短信发送；1 个账号的初始密码短信发送失败，请为其重置密码');
      expect(answer.data[0]).toMatchObject({
        imported: 2,
        smsSent: 1,
        smsFailed: [{ line: 3, message: '账号 impfail2 已导入，但初始密码短信发送失败，请为其重置密码' }],
      });
      expect(JSON.stringify(answer)).not.toContain('BLACK_KEY');
      expect((await c.audit(admin, 'account.import')).slice(0, 2)).toMatchObject([
        { target: 'fail.csv', outcome: 'failure', detail: '1 个初始密码短信发送失败：impfail2' },
        { target: 'fail.csv', outcome: 'success', detail: '导入 2 个账号，其中 2 个随机密码以短信发送' },
      ]);
    } finally {
      refusing.mockRestore();
    }
    await texted('impfail1', '13900000231');
    expect(await outbox(t, '13900000232')).toEqual([]);
    const reset = await c.call(admin, 'POST', `/account/${(await c.row(admin, 'impfail2'))?.id}/password`, { passwordMode: 'sms' });
    expect(reset.statusCode, reset.body).toBe(200);
    await texted('impfail2', '13900000232');
  });

  it('重置密码 by SMS sends a new one to the account’s phone', async () => {
    const id = (await c.row(admin, 'wangfang'))?.id;
    const res = await c.call(admin, 'POST', `/account/${id}/password`, { passwordMode: 'sms' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().msg).toBe('密码已重置，新密码已通过短信发送');
    const [sms] = await outbox(t, '13800000011');
    expect(sms?.templateKey).toBe('password');
    const account = await t.app.accountRepository.findForLogin('wangfang');
    expect(await verifyPassword(account?.password_hash, sms?.params.password ?? '')).toBe(true);
    expect(account?.mustChangePassword).toBe(true);
  });
});

describe.each(testDialects())('passwords by SMS without the template on %s', (dialect) => {
  let t: TestApp;
  let c: ReturnType<typeof consoleClient>;
  let admin: string;
  beforeAll(async () => {
    // A real provider whose notification template is not configured: nothing reaches it.
    t = await createTestApp(dialect, {
      SMS_PROVIDER: 'aliyun',
      ALIYUN_SMS_ACCESS_KEY_ID: 'test-id',
      ALIYUN_SMS_ACCESS_KEY_SECRET: 'test-secret',
      ALIYUN_SMS_SIGN_NAME: '工程e+',
      ALIYUN_SMS_TEMPLATE_REGISTER: 'SMS_1',
    });
    c = consoleClient(t);
    admin = await tokenFor(t, 'admin');
  });
  afterAll(() => t.close());

  const MESSAGE = '短信发送失败：未配置“账号密码通知”短信模板，请联系平台管理员';

  it('新增 answers 503 and writes nothing', async () => {
    const body = { username: 'nosms', name: '无短信', phone: '13900000301', groupIds: [], roleIds: [await staffRole(c, admin)] };
    const res = await c.call(admin, 'POST', '/account', { ...body, passwordMode: 'sms' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ code: 1, msg: MESSAGE });
    expect(await c.row(admin, 'nosms')).toBeUndefined();
    // The username and phone are still free: the same account with a typed password goes through.
    const manual = await c.call(admin, 'POST', '/account', { ...body, passwordMode: 'manual', password: await c.encoded('Init@2026') });
    expect(manual.statusCode, manual.body).toBe(200);
    expect((await c.audit(admin, 'account.create')).map((e) => e.outcome)).toEqual(['success', 'failure']);
  });

  it('导入 with a row without 初始密码 answers 503 and writes no row; with every password filled it imports', async () => {
    const rows = ['账号,姓名,手机号,初始密码', 'nosmsimp1,无短信一,13900000311,Init@2026', 'nosmsimp2,无短信二,13900000312,'];
    const res = await c.upload(admin, 'nosms.csv', rows.join('\n'));
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ code: 1, msg: MESSAGE });
    for (const username of ['nosmsimp1', 'nosmsimp2']) expect(await c.row(admin, username)).toBeUndefined();
    const filled = await c.upload(admin, 'nosms.csv', [...rows.slice(0, 2), 'nosmsimp2,无短信二,13900000312,Init@2026'].join('\n'));
    expect(filled.statusCode, filled.body).toBe(200);
    expect((await c.audit(admin, 'account.import')).map((e) => e.outcome)).toEqual(['success', 'failure']);
  });

  it('重置密码 answers 503 and changes nothing: the old password and the sessions stay', async () => {
    const token = await tokenFor(t, 'liuyang');
    const res = await c.call(admin, 'POST', `/account/${(await c.row(admin, 'liuyang'))?.id}/password`, { passwordMode: 'sms' });
    expect(res.statusCode).toBe(503);
    expect(res.json().msg).toBe(MESSAGE);
    const account = await t.app.accountRepository.findForLogin('liuyang');
    expect(await verifyPassword(account?.password_hash, DEMO_PASSWORD)).toBe(true);
    expect(account?.mustChangePassword).toBe(false);
    expect((await t.app.inject({ url: '/web-api/identity/v1/prefix/list', headers: { authorization: token } })).statusCode).toBe(200);
  });

  it('新建企业 in 租户管理 answers 503 and writes neither the enterprise nor its administrator', async () => {
    const operator = await tokenFor(t, 'operator');
    const body = {
      name: '无短信新建有限公司',
      creditCode: `91320200MA1NXMTP1${creditCodeCheckChar('91320200MA1NXMTP1')}`,
      adminName: '孙无信',
      adminUsername: 'nosmsadmin',
      adminPhone: '13900000302',
    };
    const res = await c.call(operator, 'POST', '/tenant', body);
    expect([res.statusCode, res.json()]).toEqual([503, { code: 1, msg: MESSAGE }]);
    expect(await t.database.db.selectFrom('enterprise').select('id').where('name', '=', body.name).execute()).toEqual([]);
    expect(await t.database.db.selectFrom('account').select('id').where('username', '=', body.adminUsername).execute()).toEqual([]);
  });
});
