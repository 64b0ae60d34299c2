import {
  ACCOUNT_EXPORT_MAX_ROWS,
  ACCOUNT_IMPORT_SMS_MAX_ROWS,
  type AccountCreateBody,
  type AccountImportResult,
  type AccountRow,
  type AccountUpdateBody,
  AuthSourceMessage,
  type ImportRowMessage,
  type PasswordMode,
  TenantMessage,
  TenantRules,
} from '@portal/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { auditBy } from '../../platform/audit/audit-log.js';
import { inEnterpriseTransaction } from '../../platform/db/transaction.js';
import { chinaTime } from '../../platform/lib/china-time.js';
import { isUniqueViolation } from '../../platform/lib/db-errors.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/lib/errors.js';
import { callerEnterprise } from '../../platform/lib/tenant-scope.js';
import { refuseWithoutTemplate, sendSmsOrRefuse } from '../../platform/sms/sms-plugin.js';
import { SELF_DEMOTION_REFUSED } from '../accounts/account-repository.js';
import { hashPassword } from '../accounts/passwords.js';
import type { Caller } from '../portal-auth/auth.js';
import { newPasswordProblem } from '../security/password-policy.js';
import type { AccountFilters, ManagedAccount } from './account-admin-repository.js';
import { type CheckedAccount, checkImportRows, importRows, readSheet } from './account-import.js';
import { hashAll, randomPasswordFor } from './account-passwords.js';

declare module 'fastify' {
  interface FastifyInstance {
    accountAdminService: AccountAdminService;
  }
}

const ACCOUNT_NOT_FOUND = '账号不存在';
/** An import's password messages sent at once: a burst a provider's per-second limit lets through. */
const SMS_AT_ONCE = 5;

const check = (message: string | undefined) => {
  if (message) throw new BadRequestError(message);
};

/** Name, phone and email of 新增 and 编辑, trimmed and checked by the shared rules. */
function checkedFields(body: { name: string; phone: string; email?: string | undefined }) {
  const fields = { name: body.name.trim(), phone: body.phone.trim(), email: (body.email ?? '').trim() };
  check(TenantRules.personName(fields.name));
  check(TenantRules.phone(fields.phone));
  check(TenantRules.email(fields.email));
  return fields;
}

const unique = (ids: readonly number[]) => [...new Set(ids)];
const targetOf = (account: { username: string; name: string }) => `${account.username} ${account.name}`;

const toRow = (a: ManagedAccount, selfId: number): AccountRow => ({
  id: a.id,
  username: a.username,
  name: a.name,
  phone: a.phone,
  email: a.email,
  groups: a.groups,
  roles: a.roles,
  state: a.state,
  lastLoginAt: a.lastLoginAt ? chinaTime(new Date(a.lastLoginAt)) : '',
  createdAt: chinaTime(new Date(a.createdAt)),
  self: a.id === selfId,
});

/** What 新增 and 重置密码 answer: whether the password went out by SMS. */
export interface PasswordOutcome {
  bySms: boolean;
}

/**
 * 账号管理's rules: an enterprise administrator's (org:account) own enterprise's accounts. An account
 * of another enterprise, or a deleted one, answers 404; every write commits with its audit row and,
 * where it can change who administers the enterprise, the guard rails. `caller` is who asks: it
 * decides the enterprise and is named in the audit row.
 */
export class AccountAdminService {
  constructor(private readonly app: FastifyInstance) {}

  private get accounts() {
    return this.app.accountAdminRepository;
  }

  private async accountFor(caller: Caller, id: number) {
    const enterpriseId = callerEnterprise(caller);
    const account = await this.accounts.find(enterpriseId, id);
    if (!account) throw new NotFoundError(ACCOUNT_NOT_FOUND);
    return { enterpriseId, account };
  }

  /**
   * Groups and roles named by 新增 or 编辑 must be the enterprise's own (an id of another enterprise
   * answers as one that does not exist); roles the account already holds outside that set (a
   * platform role) may be named again and are kept. Answers the ids to write and the assignable set.
   */
  private async checkedRefs(enterpriseId: number, groupIds: readonly number[], roleIds: readonly number[], held: readonly number[] = []) {
    const [groups, roles] = await Promise.all([this.accounts.groups(enterpriseId), this.accounts.assignableRoles(enterpriseId)]);
    const assignable = roles.map((r) => r.id);
    for (const id of unique(groupIds)) if (!groups.some((g) => g.id === id)) throw new NotFoundError('账号组不存在');
    for (const id of unique(roleIds)) if (!assignable.includes(id) && !held.includes(id)) throw new NotFoundError('角色不存在');
    return { groupIds: unique(groupIds), roleIds: unique(roleIds).filter((id) => assignable.includes(id)), assignable };
  }

  /** 409 naming the field when a username or phone is taken by any account, deleted ones included. */
  private async refuseTaken(username: string | null, phone: string, exceptId?: number): Promise<void> {
    const taken = await this.accounts.taken(username, phone, exceptId);
    if (taken.username) throw new ConflictError(TenantMessage.usernameTaken);
    if (taken.phone) throw new ConflictError(TenantMessage.phoneTaken);
  }

  /** A write that may lose a race for a username or phone: the unique constraint's refusal, named. */
  private async writeUnique<T>(write: () => Promise<T>, username: string | null, phone: string, exceptId?: number): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      await this.refuseTaken(username, phone, exceptId);
      throw new ConflictError(`${TenantMessage.usernameTaken}或${TenantMessage.phoneTaken}`);
    }
  }

  /**
   * The password of 新增 or 重置密码: the administrator's (decoded, checked) or a random one to send by
   * SMS, either meeting the enterprise's 安全设置. It is temporary (changed at the next
   * login), so the account's password history does not apply to it.
   */
  private async chosenPassword(
    enterpriseId: number,
    username: string,
    mode: PasswordMode,
    encoded: string | undefined,
  ): Promise<{ password: string; bySms: boolean }> {
    const policy = await this.app.securityPolicyRepository.ofEnterprise(enterpriseId);
    if (mode === 'sms') return { password: randomPasswordFor(policy, username), bySms: true };
    if (!encoded) throw new BadRequestError(TenantMessage.passwordRequired);
    const password = await this.app.passwordTransportService.decrypt(encoded);
    check(TenantRules.password(password));
    check(newPasswordProblem(password, policy, username));
    return { password, bySms: false };
  }

  /**
   * The random password goes out before anything is written: a failed send (503) leaves the account
   * as it was, and no provider call holds a transaction open (SQLite has one connection). Every check
   * has passed by then; only a lost race can still refuse the write after the message went out.
   */
  private sendPassword(caller: Caller, phone: string, password: string) {
    return sendSmsOrRefuse(caller.log, this.app.smsSender, { phone, templateKey: 'password', params: { password } });
  }

  /**
   * 导入's random passwords, sent once the accounts are written (a few at a time), so every message
   * names an account that exists; the rows whose message could not be sent are answered, and those
   * accounts get a new password by 重置密码. The provider's reason is logged, never shown.
   */
  private async sendImportPasswords(caller: Caller, rows: readonly CheckedAccount[]): Promise<ImportRowMessage[]> {
    const sms = this.app.smsSender;
    const failed: ImportRowMessage[] = [];
    for (let i = 0; i < rows.length; i += SMS_AT_ONCE) {
      const batch = rows.slice(i, i + SMS_AT_ONCE);
      const sent = await Promise.allSettled(
        batch.map((row) => sms.send({ phone: row.phone, templateKey: 'password', params: { password: row.password } })),
      );
      sent.forEach((result, j) => {
        const row = batch[j];
        if (result.status === 'fulfilled' || !row) return;
        caller.log.error({ err: (result.reason as Error).message, provider: sms.name }, 'import password SMS not sent');
        failed.push({ line: row.line, message: `账号 ${row.username} 已导入，但初始密码短信发送失败，请为其重置密码` });
      });
    }
    return failed;
  }

  /** One page of the caller's enterprise's accounts, newest first. */
  async page(caller: Caller, filters: AccountFilters, offset: number, limit: number): Promise<{ total: number; rows: AccountRow[] }> {
    const page = await this.accounts.page(callerEnterprise(caller), filters, offset, limit);
    return { total: page.total, rows: page.rows.map((a) => toRow(a, caller.accountId)) };
  }

  /** 新增: answers the new account's id and whether its initial password went out by SMS. */
  async create(caller: Caller, body: AccountCreateBody): Promise<PasswordOutcome & { id: number }> {
    const enterpriseId = callerEnterprise(caller);
    const username = body.username.trim();
    check(TenantRules.username(username));
    const fields = checkedFields(body);
    const refs = await this.checkedRefs(enterpriseId, body.groupIds, body.roleIds);
    const { password, bySms } = await this.chosenPassword(enterpriseId, username, body.passwordMode, body.password);
    await this.refuseTaken(username, fields.phone);
    const passwordHash = await hashPassword(password);
    if (bySms) await this.sendPassword(caller, fields.phone, password);
    const id = await this.writeUnique(
      () =>
        inEnterpriseTransaction(this.app.database.db, enterpriseId, async (trx) => {
          const created = await this.accounts.create(trx, enterpriseId, { username, ...fields, ...refs, passwordHash });
          const detail = bySms ? '随机密码已短信发送' : '';
          await auditBy(trx, caller, 'account.create', targetOf({ username, name: fields.name }), 'success', detail);
          return created;
        }),
      username,
      fields.phone,
    );
    return { id, bySms };
  }

  /** 编辑: name, phone, email, groups and roles (the username never changes). */
  async update(caller: Caller, id: number, body: AccountUpdateBody): Promise<void> {
    const { enterpriseId, account } = await this.accountFor(caller, id);
    const fields = checkedFields(body);
    const refs = await this.checkedRefs(enterpriseId, body.groupIds, body.roleIds, await this.accounts.directRoleIds(account.id));
    await this.refuseTaken(null, fields.phone, account.id);
    await this.writeUnique(
      () =>
        inEnterpriseTransaction(this.app.database.db, enterpriseId, async (trx) => {
          const changes = { ...fields, groupIds: refs.groupIds, roleIds: refs.roleIds };
          if (!(await this.accounts.update(trx, enterpriseId, account.id, changes, refs.assignable)))
            throw new NotFoundError(ACCOUNT_NOT_FOUND);
          // Roles and groups decide who administers the enterprise (an administrator may edit themself, not demote themself).
          await this.app.accountRepository.assertAdministratorsRemain(trx, enterpriseId, caller.accountId);
          await auditBy(trx, caller, 'account.update', targetOf({ username: account.username, name: fields.name }));
        }),
      null,
      fields.phone,
      account.id,
    );
  }

  /** 停用 ends the account's sessions and sends single logout after the commit; 启用 lets it log in again. */
  async setStatus(caller: Caller, id: number, status: 'active' | 'disabled'): Promise<void> {
    const { enterpriseId, account } = await this.accountFor(caller, id);
    if (status === 'disabled' && account.id === caller.accountId) throw new BadRequestError(SELF_DEMOTION_REFUSED);
    const tickets = await inEnterpriseTransaction(this.app.database.db, enterpriseId, async (trx) => {
      if (!(await this.accounts.setStatus(trx, enterpriseId, account.id, status))) throw new NotFoundError(ACCOUNT_NOT_FOUND);
      const ended = status === 'disabled' ? await this.app.ssoSessionService.end(trx, [account.id], { reason: 'disabled' }) : [];
      await this.app.accountRepository.assertAdministratorsRemain(trx, enterpriseId, caller.accountId);
      await auditBy(trx, caller, status === 'disabled' ? 'account.disable' : 'account.enable', targetOf(account));
      return ended;
    });
    await this.app.ssoSessionService.notify(caller, tickets);
  }

  /** 解锁: clears the failed-password count and the lock. */
  async unlock(caller: Caller, id: number): Promise<void> {
    const { enterpriseId, account } = await this.accountFor(caller, id);
    if (account.id === caller.accountId) throw new BadRequestError('不能解锁自己的账号');
    await inEnterpriseTransaction(this.app.database.db, enterpriseId, async (trx) => {
      const wasLocked = await this.app.loginGuardService.unlock(trx, account.id);
      await auditBy(trx, caller, 'account.unlock', targetOf(account), 'success', wasLocked ? '' : '账号未锁定，已清除密码错误次数');
    });
  }

  /** 重置密码: a new initial password; every session of the account ends. */
  async resetPassword(caller: Caller, id: number, mode: PasswordMode, encoded: string | undefined): Promise<PasswordOutcome> {
    const { enterpriseId, account } = await this.accountFor(caller, id);
    if (account.id === caller.accountId) throw new BadRequestError('不能重置自己的密码，请通过修改密码更改');
    // An LDAP-linked account signs in with its directory password; a local one would never be used.
    if (await this.app.authSourceRepository.ldapIdentityOf(account.id)) throw new BadRequestError(AuthSourceMessage.directoryPassword);
    const { password, bySms } = await this.chosenPassword(enterpriseId, account.username, mode, encoded);
    const passwordHash = await hashPassword(password);
    if (bySms) await this.sendPassword(caller, account.phone, password);
    const tickets = await inEnterpriseTransaction(this.app.database.db, enterpriseId, async (trx) => {
      if (!(await this.accounts.resetPassword(trx, enterpriseId, account.id, passwordHash))) throw new NotFoundError(ACCOUNT_NOT_FOUND);
      // The lock guarded the old password; the new one starts with a clean count.
      await this.app.loginGuardService.unlock(trx, account.id);
      const ended = await this.app.ssoSessionService.end(trx, [account.id], { reason: 'password-reset' });
      await auditBy(trx, caller, 'account.reset-password', targetOf(account), 'success', bySms ? '随机密码已短信发送' : '');
      await this.app.accountNoticeService.passwordChanged(trx, account.id, 'admin');
      return ended;
    });
    await this.app.ssoSessionService.notify(caller, tickets);
    return { bySms };
  }

  /** 删除: soft, keeping username and phone taken; every session of the account ends. */
  async remove(caller: Caller, id: number): Promise<void> {
    const { enterpriseId, account } = await this.accountFor(caller, id);
    if (account.id === caller.accountId) throw new BadRequestError(SELF_DEMOTION_REFUSED);
    const tickets = await inEnterpriseTransaction(this.app.database.db, enterpriseId, async (trx) => {
      if (!(await this.accounts.softDelete(trx, enterpriseId, account.id))) throw new NotFoundError(ACCOUNT_NOT_FOUND);
      const ended = await this.app.ssoSessionService.end(trx, [account.id], { reason: 'deleted' });
      await this.app.accountRepository.assertAdministratorsRemain(trx, enterpriseId, caller.accountId);
      await auditBy(trx, caller, 'account.delete', targetOf(account));
      return ended;
    });
    await this.app.ssoSessionService.notify(caller, tickets);
  }

  /**
   * 导入 of a CSV or XLSX sheet: every row checked first, all or nothing; rows without an initial
   * password get a random one, sent by SMS after the commit. `upload` reads the file once the caller's
   * enterprise is known. Answers the result and its message.
   */
  async importSheet(
    caller: Caller,
    upload: () => Promise<{ filename: string; bytes: Buffer }>,
  ): Promise<{ result: AccountImportResult; message: string }> {
    const enterpriseId = callerEnterprise(caller);
    const { filename, bytes } = await upload();
    const rows = importRows(await readSheet(bytes));
    const [groups, roles, taken] = await Promise.all([
      this.accounts.groups(enterpriseId),
      this.accounts.assignableRoles(enterpriseId),
      this.accounts.takenAmong(
        rows.map((r) => r.values['账号']),
        rows.map((r) => r.values['手机号']),
      ),
    ]);
    const checked = checkImportRows(rows, {
      groups,
      roles,
      takenUsernames: taken.usernames,
      takenPhones: taken.phones,
      passwordRules: await this.app.securityPolicyRepository.ofEnterprise(enterpriseId),
    });
    if (checked.errors.length) {
      const failed = checked.errors.length;
      await this.app.auditRepository.recordBy(caller, 'account.import', filename, 'failure', `${failed} 行有误，未导入`);
      return {
        result: { total: rows.length, imported: 0, failed, errors: checked.errors, smsSent: 0, smsFailed: [] },
        message: `导入失败：${failed} 行有误，未导入任何账号`,
      };
    }
    const bySms = checked.accounts.filter((a) => a.bySms);
    if (bySms.length > ACCOUNT_IMPORT_SMS_MAX_ROWS) {
      throw new BadRequestError(
        `一次最多为 ${ACCOUNT_IMPORT_SMS_MAX_ROWS} 个账号生成随机密码并短信发送（本次 ${bySms.length} 个），请分批导入或填写初始密码`,
      );
    }
    // As 新增: without the template no random password can reach anyone, so nothing is written (503).
    if (bySms.length) refuseWithoutTemplate(this.app.smsSender, 'password');
    const hashes = await hashAll(checked.accounts.map((a) => a.password));
    const created = checked.accounts.map(({ line: _line, password, bySms: _bySms, ...account }) => ({
      ...account,
      passwordHash: hashes.get(password) ?? '',
    }));
    const detail = `导入 ${created.length} 个账号${bySms.length ? `，其中 ${bySms.length} 个随机密码以短信发送` : ''}`;
    try {
      await inEnterpriseTransaction(this.app.database.db, enterpriseId, async (trx) => {
        await this.accounts.createMany(trx, enterpriseId, created);
        await auditBy(trx, caller, 'account.import', filename, 'success', detail);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError('导入期间有账号或手机号已被使用，请重新导入');
      throw err;
    }
    const smsFailed = await this.sendImportPasswords(caller, bySms);
    const smsSent = bySms.length - smsFailed.length;
    if (smsFailed.length) {
      const unsent = bySms.filter((a) => smsFailed.some((f) => f.line === a.line)).map((a) => a.username);
      const failure = `${unsent.length} 个初始密码短信发送失败：${unsent.join('、')}`;
      await this.app.auditRepository.recordBy(caller, 'account.import', filename, 'failure', failure);
    }
    let message = `导入完成：成功导入 ${created.length} 个账号`;
    if (smsSent) message += `，${smsSent} 个初始密码已通过短信发送`;
    if (smsFailed.length) message += `；${smsFailed.length} 个账号的初始密码短信发送失败，请为其重置密码`;
    return { result: { total: rows.length, imported: created.length, failed: 0, errors: [], smsSent, smsFailed }, message };
  }

  /** 导出: the matching accounts as the list shows them (at most ACCOUNT_EXPORT_MAX_ROWS), the export audited. */
  async exportRows(caller: Caller, filters: AccountFilters): Promise<AsyncIterable<AccountRow>> {
    const selfId = caller.accountId;
    const matches = this.accounts.stream(callerEnterprise(caller), filters, ACCOUNT_EXPORT_MAX_ROWS);
    async function* rows() {
      for await (const account of matches) yield toRow(account, selfId);
    }
    const f = filters;
    const named = [f.keyword, f.state, f.groupId && `账号组 ${f.groupId}`, f.roleId && `角色 ${f.roleId}`].filter(Boolean).join(' ');
    await this.app.auditRepository.recordBy(caller, 'account.export', named || '全部');
    return rows();
  }
}

export default fp(
  async (app) => {
    app.decorate('accountAdminService', new AccountAdminService(app));
  },
  { name: 'account-admin-service' },
);
