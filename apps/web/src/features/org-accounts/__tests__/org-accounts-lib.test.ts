import { TenantMessage } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { createBody, fieldOfMessage, newAccountForm } from '../lib/account-form';
import { importFileProblem, importVerdict } from '../lib/account-import';
import { INITIAL_ACCOUNT_FILTERS, accountListQuery, exportFilename } from '../lib/account-query';

describe('account list query', () => {
  it('starts at page 1 with 20 rows and leaves empty filters out', () => {
    expect(accountListQuery(INITIAL_ACCOUNT_FILTERS)).toEqual({ offset: 0, limit: 20 });
    expect(accountListQuery({ ...INITIAL_ACCOUNT_FILTERS, keyword: '   ' })).toEqual({ offset: 0, limit: 20 });
  });

  it('sends the trimmed keyword, the state, the group and the role, and the offset of the page', () => {
    expect(accountListQuery({ keyword: ' 138 ', state: 'disabled', groupId: 0, roleId: 7, page: 3, limit: 50 })).toEqual({
      offset: 100,
      limit: 50,
      keyword: '138',
      state: 'disabled',
      groupId: 0,
      roleId: 7,
    });
  });

  it('names the export with the local time', () => {
    expect(exportFilename(new Date(2026, 10, 20, 9, 30, 5))).toBe('账号-20261120093005.csv');
  });
});

describe('account form', () => {
  it('a random SMS password sends neither a password nor an empty email', () => {
    const values = {
      ...newAccountForm(),
      username: ' zhaolei ',
      name: '赵磊',
      phone: '13800000030',
      passwordMode: 'sms' as const,
      password: 'x',
    };
    expect(createBody(values, undefined)).toEqual({
      username: 'zhaolei',
      name: '赵磊',
      phone: '13800000030',
      groupIds: [],
      roleIds: [],
      passwordMode: 'sms',
    });
  });

  it('knows which field a shared refusal names, and no field for others', () => {
    expect(fieldOfMessage(TenantMessage.usernameTaken)).toBe('username');
    expect(fieldOfMessage(TenantMessage.phoneTaken)).toBe('phone');
    expect(fieldOfMessage(TenantMessage.emailInvalid)).toBe('email');
    expect(fieldOfMessage('企业至少需要保留一名启用的管理员')).toBeUndefined();
  });
});

describe('account import', () => {
  it('takes CSV and XLSX files only', () => {
    expect(importFileProblem({ name: 'a.CSV' })).toBeNull();
    expect(importFileProblem({ name: 'a.xlsx' })).toBeNull();
    expect(importFileProblem({ name: 'a.xls' })).toBe('请选择 CSV 或 Excel（.xlsx）文件');
  });

  const noSms = { smsSent: 0, smsFailed: [] };

  it('says all were imported, or that none were because of the listed rows', () => {
    expect(importVerdict({ total: 3, imported: 3, failed: 0, errors: [], ...noSms })).toEqual({
      type: 'success',
      text: '全部 3 个账号已导入',
    });
    expect(importVerdict({ total: 0, imported: 0, failed: 0, errors: [], ...noSms }).type).toBe('info');
    expect(
      importVerdict({
        total: 1500,
        imported: 0,
        failed: 1200,
        errors: Array.from({ length: 1000 }, (_, i) => ({ line: i + 2, message: 'x' })),
        ...noSms,
      }),
    ).toEqual({
      type: 'error',
      text: '1200 行有误，本次没有导入任何账号（下表列出前 1000 行）。请修改这些行后重新导入整个文件。',
    });
  });

  it('says how many random passwords went out by SMS, and warns of those that did not', () => {
    expect(importVerdict({ total: 3, imported: 3, failed: 0, errors: [], smsSent: 2, smsFailed: [] })).toEqual({
      type: 'success',
      text: '全部 3 个账号已导入，2 个账号的随机初始密码已通过短信发送',
    });
    const smsFailed = [{ line: 4, message: '账号 zhaolei 已导入，但初始密码短信发送失败，请为其重置密码' }];
    expect(importVerdict({ total: 3, imported: 3, failed: 0, errors: [], smsSent: 1, smsFailed })).toEqual({
      type: 'warning',
      text: '全部 3 个账号已导入，1 个账号的随机初始密码已通过短信发送；下表 1 个账号的初始密码短信发送失败，请在账号列表中为其重置密码。',
    });
  });
});
