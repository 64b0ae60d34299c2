import type { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ACCOUNT_EXPORT_MAX_ROWS,
  ACCOUNT_IMPORT_SMS_MAX_ROWS,
  type AccountCreateBody,
  type AccountRow,
  type AccountUpdateBody,
  AuthSourceMessage,
  type ImportRowMessage,
  Authority,
  type PasswordMode,
  TenantMessage,
  TenantRules,
} from '@portal/shared';
import type { FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import { inEnterpriseTransaction } from '../../platform/db/transaction.js';
import { chinaTime } from '../../platform/lib/china-time.js';
import { isUniqueViolation } from '../../platform/lib/db-errors.js';
import { Envelope, Page, errorResponses, ok } from '../../platform/lib/envelope.js';
import { AppError, BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../../platform/lib/errors.js';
import { SELF_DEMOTION_REFUSED } from '../accounts/account-repository.js';
import { hashPassword } from '../accounts/passwords.js';
import { attachment } from '../../platform/audit/audit-csv.js';
import { auditRequest } from '../../platform/audit/audit-log.js';
import { newPasswordProblem } from '../security/password-policy.js';
import { refuseWithoutTemplate, sendSmsOrRefuse } from '../../platform/sms/sms-plugin.js';
import type { AccountFilters, ManagedAccount } from './account-admin-repository.js';
import { accountsCsv } from './account-export.js';
import {
  type CheckedAccount,
  MAX_IMPORT_BYTES,
  checkImportRows,
  csvTemplate,
  importRows,
  readSheet,
  xlsxTemplate,
} from './account-import.js';
import { hashAll, randomPasswordFor } from './account-passwords.js';

const BASE = '/web-api/console/v1';
const ACCOUNT_NOT_FOUND = '账号不存在';
/** An import's password messages sent at once: a burst a provider's per-second limit lets through. */
const SMS_AT_ONCE = 5;
const tags = ['org'];

const NamedRefSchema = Type.Object({ id: Type.Integer(), name: Type.String() });
const RoleRefSchema = Type.Object({ id: Type.Integer(), name: Type.String(), code: Type.String() });
const StateSchema = Type.Union([Type.Literal('active'), Type.Literal('disabled'), Type.Literal('locked')]);
const AccountRowSchema = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  name: Type.String(),
  phone: Type.String(),
  email: Type.String(),
  groups: Type.Array(NamedRefSchema),
  roles: Type.Array(RoleRefSchema, { description: '账号自身的角色（不含账号组的角色）' }),
  state: StateSchema,
  lastLoginAt: Type.String({ description: '最近登录（中国时间），从未登录为空' }),
  createdAt: Type.String(),
  self: Type.Boolean({ description: '是否为当前登录账号' }),
});
const FilterFields = {
  keyword: Type.Optional(Type.String({ maxLength: 64, description: '账号、姓名或手机号（包含）' })),
  state: Type.Optional(Type.Union([StateSchema, Type.Literal('')])),
  groupId: Type.Optional(Type.Integer({ minimum: 1 })),
  roleId: Type.Optional(Type.Integer({ minimum: 1, description: '直接或通过账号组拥有该角色' })),
};
const FilterQuery = Type.Object(FilterFields);
const IdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });
const PasswordFields = {
  passwordMode: Type.Union([Type.Literal('manual'), Type.Literal('sms')]),
  password: Type.Optional(Type.String({ maxLength: 1024, description: '手动设置时：与修改密码相同方式加密（RSA-OAEP SHA-256，base64）' })),
};
const RefIds = (max: number) => Type.Array(Type.Integer({ minimum: 1 }), { maxItems: max });
const EditableFields = {
  name: Type.String({ maxLength: 64 }),
  phone: Type.String({ maxLength: 32 }),
  email: Type.Optional(Type.String({ maxLength: 200 })),
  groupIds: RefIds(100),
  roleIds: RefIds(100),
};
const CreateBody = Type.Object({ username: Type.String({ maxLength: 64 }), ...EditableFields, ...PasswordFields });
const UpdateBody = Type.Object(EditableFields);
const RowMessage = Type.Object({ line: Type.Integer(), message: Type.String() });
const ImportResultSchema = Type.Object({
  total: Type.Integer(),
  imported: Type.Integer(),
  failed: Type.Integer(),
  errors: Type.Array(RowMessage),
  smsSent: Type.Integer({ description: '未填初始密码的行：随机密码已短信发送的个数' }),
  smsFailed: Type.Array(RowMessage, { description: '已导入但随机密码短信发送失败的行（可对其重置密码）' }),
});
const Empty = Envelope(Type.Object({}));
/** A file answer: documented as a string, typed as the stream the handler answers. */
const FileAnswer = (mime: string) => Type.Unsafe<Readable>({ type: 'string', description: mime });

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

/**
 * 账号管理: an enterprise administrator's (org:account) own enterprise's accounts.
 * An account of another enterprise, or a deleted one, answers 404 on every route; every write commits
 * with its audit row and, where it can change who administers the enterprise, the guard rails.
 */
const accountAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(multipart, { limits: { fileSize: MAX_IMPORT_BYTES, files: 1, fields: 5, parts: 10 } });
  const { db } = app.database;
  const accounts = app.accountAdminRepository;
  const guard = { onRequest: app.requireAuthority(Authority.OrgAccount) };

  /** The caller's enterprise: the only one whose accounts it manages here (operators included). */
  function enterpriseOf(request: FastifyRequest): number {
    const enterpriseId = request.principal?.profile.enterpriseId;
    if (!enterpriseId) throw new ForbiddenError('当前账号不属于任何企业');
    return enterpriseId;
  }

  const actorOf = (request: FastifyRequest) => request.principal?.accountId ?? -1;

  async function accountFor(request: FastifyRequest, id: number) {
    const enterpriseId = enterpriseOf(request);
    const account = await accounts.find(enterpriseId, id);
    if (!account) throw new NotFoundError(ACCOUNT_NOT_FOUND);
    return { enterpriseId, account };
  }

  /**
   * Groups and roles named by 新增 or 编辑 must be the enterprise's own (an id of another enterprise
   * answers as one that does not exist); roles the account already holds outside that set (a
   * platform role) may be named again and are kept. Answers the ids to write and the assignable set.
   */
  async function checkedRefs(enterpriseId: number, groupIds: readonly number[], roleIds: readonly number[], held: readonly number[] = []) {
    const [groups, roles] = await Promise.all([accounts.groups(enterpriseId), accounts.assignableRoles(enterpriseId)]);
    const assignable = roles.map((r) => r.id);
    for (const id of unique(groupIds)) if (!groups.some((g) => g.id === id)) throw new NotFoundError('账号组不存在');
    for (const id of unique(roleIds)) if (!assignable.includes(id) && !held.includes(id)) throw new NotFoundError('角色不存在');
    return { groupIds: unique(groupIds), roleIds: unique(roleIds).filter((id) => assignable.includes(id)), assignable };
  }

  /** 409 naming the field when a username or phone is taken by any account, deleted ones included. */
  async function refuseTaken(username: string | null, phone: string, exceptId?: number): Promise<void> {
    const taken = await accounts.taken(username, phone, exceptId);
    if (taken.username) throw new ConflictError(TenantMessage.usernameTaken);
    if (taken.phone) throw new ConflictError(TenantMessage.phoneTaken);
  }

  /** A write that may lose a race for a username or phone: the unique constraint's refusal, named. */
  async function writeUnique<T>(write: () => Promise<T>, username: string | null, phone: string, exceptId?: number): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      await refuseTaken(username, phone, exceptId);
      throw new ConflictError(`${TenantMessage.usernameTaken}或${TenantMessage.phoneTaken}`);
    }
  }

  /**
   * The password of 新增 or 重置密码: the administrator's (decoded, checked) or a random one to send by
   * SMS, either meeting the enterprise's 安全设置. It is temporary (changed at the next
   * login), so the account's password history does not apply to it.
   */
  async function chosenPassword(
    enterpriseId: number,
    username: string,
    mode: PasswordMode,
    encoded: string | undefined,
  ): Promise<{ password: string; bySms: boolean }> {
    const policy = await app.securityPolicies.ofEnterprise(enterpriseId);
    if (mode === 'sms') return { password: randomPasswordFor(policy, username), bySms: true };
    if (!encoded) throw new BadRequestError(TenantMessage.passwordRequired);
    const password = await app.passwordTransport.decrypt(encoded);
    check(TenantRules.password(password));
    check(newPasswordProblem(password, policy, username));
    return { password, bySms: false };
  }

  /**
   * The random password goes out before anything is written: a failed send (503) leaves the account
   * as it was, and no provider call holds a transaction open (SQLite has one connection). Every check
   * has passed by then; only a lost race can still refuse the write after the message went out.
   */
  const sendPassword = (request: FastifyRequest, phone: string, password: string) =>
    sendSmsOrRefuse(request, app.smsSender, { phone, templateKey: 'password', params: { password } });

  /**
   * 导入's random passwords, sent once the accounts are written (a few at a time), so every message
   * names an account that exists; the rows whose message could not be sent are answered, and those
   * accounts get a new password by 重置密码. The provider's reason is logged, never shown.
   */
  async function sendImportPasswords(request: FastifyRequest, rows: readonly CheckedAccount[]): Promise<ImportRowMessage[]> {
    const failed: ImportRowMessage[] = [];
    for (let i = 0; i < rows.length; i += SMS_AT_ONCE) {
      const batch = rows.slice(i, i + SMS_AT_ONCE);
      const sent = await Promise.allSettled(
        batch.map((row) => app.smsSender.send({ phone: row.phone, templateKey: 'password', params: { password: row.password } })),
      );
      sent.forEach((result, j) => {
        const row = batch[j];
        if (result.status === 'fulfilled' || !row) return;
        request.log.error({ err: (result.reason as Error).message, provider: app.smsSender.name }, 'import password SMS not sent');
        failed.push({ line: row.line, message: `账号 ${row.username} 已导入，但初始密码短信发送失败，请为其重置密码` });
      });
    }
    return failed;
  }

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

  const filtersOf = (q: Static<typeof FilterQuery>): AccountFilters => ({
    keyword: q.keyword,
    state: q.state,
    groupId: q.groupId,
    roleId: q.roleId,
  });

  app.get(
    `${BASE}/account/page/list`,
    {
      // 应用授权 picks single accounts from this list, so it reads it too.
      onRequest: app.requireAuthority(Authority.OrgAccount, Authority.AppAuthorization),
      schema: {
        tags,
        summary: '账号分页列表（本企业；可按账号/姓名/手机号、状态、账号组、角色筛选；最新创建的在前）',
        querystring: Type.Object({
          offset: Type.Integer({ minimum: 0, default: 0 }),
          limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
          ...FilterFields,
        }),
        response: { 200: Envelope(Page(AccountRowSchema)), ...errorResponses },
      },
    },
    async (request) => {
      const { offset, limit } = request.query;
      const page = await accounts.page(enterpriseOf(request), filtersOf(request.query), offset, limit);
      return ok({ total: page.total, rows: page.rows.map((a) => toRow(a, actorOf(request))) });
    },
  );

  app.post(
    `${BASE}/account`,
    {
      ...guard,
      config: { auditAction: 'account.create' },
      schema: {
        tags,
        summary: '新增账号（手动设置初始密码，或随机密码并短信通知；首次登录须修改密码）',
        body: CreateBody,
        response: { 200: Envelope(Type.Object({ id: Type.Integer() })), ...errorResponses },
      },
    },
    async (request) => {
      const body: AccountCreateBody = request.body;
      const enterpriseId = enterpriseOf(request);
      const username = body.username.trim();
      check(TenantRules.username(username));
      const fields = checkedFields(body);
      const refs = await checkedRefs(enterpriseId, body.groupIds, body.roleIds);
      const { password, bySms } = await chosenPassword(enterpriseId, username, body.passwordMode, body.password);
      await refuseTaken(username, fields.phone);
      const passwordHash = await hashPassword(password);
      if (bySms) await sendPassword(request, fields.phone, password);
      const id = await writeUnique(
        () =>
          inEnterpriseTransaction(db, enterpriseId, async (trx) => {
            const created = await accounts.create(trx, enterpriseId, { username, ...fields, ...refs, passwordHash });
            await auditRequest(
              trx,
              request,
              'account.create',
              targetOf({ username, name: fields.name }),
              'success',
              bySms ? '随机密码已短信发送' : '',
            );
            return created;
          }),
        username,
        fields.phone,
      );
      return ok({ id }, bySms ? '账号已创建，初始密码已通过短信发送' : '账号已创建');
    },
  );

  app.put(
    `${BASE}/account/:id`,
    {
      ...guard,
      config: { auditAction: 'account.update' },
      schema: {
        tags,
        summary: '编辑账号（姓名、手机号、邮箱、账号组、角色；账号不可修改）',
        params: IdParams,
        body: UpdateBody,
        response: { 200: Empty, ...errorResponses },
      },
    },
    async (request) => {
      const body: AccountUpdateBody = request.body;
      const { enterpriseId, account } = await accountFor(request, request.params.id);
      const fields = checkedFields(body);
      const refs = await checkedRefs(enterpriseId, body.groupIds, body.roleIds, await accounts.directRoleIds(account.id));
      await refuseTaken(null, fields.phone, account.id);
      await writeUnique(
        () =>
          inEnterpriseTransaction(db, enterpriseId, async (trx) => {
            const changes = { ...fields, groupIds: refs.groupIds, roleIds: refs.roleIds };
            if (!(await accounts.update(trx, enterpriseId, account.id, changes, refs.assignable)))
              throw new NotFoundError(ACCOUNT_NOT_FOUND);
            // Roles and groups decide who administers the enterprise (an administrator may edit themself, not demote themself).
            await app.accountRepository.assertAdministratorsRemain(trx, enterpriseId, actorOf(request));
            await auditRequest(trx, request, 'account.update', targetOf({ username: account.username, name: fields.name }));
          }),
        null,
        fields.phone,
        account.id,
      );
      return ok([], '账号已保存');
    },
  );

  app.put(
    `${BASE}/account/:id/status`,
    {
      ...guard,
      config: { auditAction: 'account.disable' },
      schema: {
        tags,
        summary: '停用或启用账号（停用即结束其门户会话与单点登录会话，并向持有其票据的应用发送单点登出）',
        params: IdParams,
        body: Type.Object({ status: Type.Union([Type.Literal('active'), Type.Literal('disabled')]) }),
        response: { 200: Empty, ...errorResponses },
      },
    },
    async (request) => {
      const { status } = request.body;
      const { enterpriseId, account } = await accountFor(request, request.params.id);
      if (status === 'disabled' && account.id === actorOf(request)) throw new BadRequestError(SELF_DEMOTION_REFUSED);
      const tickets = await inEnterpriseTransaction(db, enterpriseId, async (trx) => {
        if (!(await accounts.setStatus(trx, enterpriseId, account.id, status))) throw new NotFoundError(ACCOUNT_NOT_FOUND);
        const ended = status === 'disabled' ? await app.ssoSessions.end(trx, [account.id]) : [];
        await app.accountRepository.assertAdministratorsRemain(trx, enterpriseId, actorOf(request));
        await auditRequest(trx, request, status === 'disabled' ? 'account.disable' : 'account.enable', targetOf(account));
        return ended;
      });
      await app.ssoSessions.notify(request, tickets);
      return ok([], status === 'disabled' ? '账号已停用' : '账号已启用');
    },
  );

  app.post(
    `${BASE}/account/:id/unlock`,
    {
      ...guard,
      config: { auditAction: 'account.unlock' },
      schema: {
        tags,
        summary: '解锁账号（清除密码错误次数与锁定）',
        params: IdParams,
        response: { 200: Empty, ...errorResponses },
      },
    },
    async (request) => {
      const { enterpriseId, account } = await accountFor(request, request.params.id);
      if (account.id === actorOf(request)) throw new BadRequestError('不能解锁自己的账号');
      await inEnterpriseTransaction(db, enterpriseId, async (trx) => {
        const wasLocked = await app.loginGuard.unlock(trx, account.id);
        await auditRequest(trx, request, 'account.unlock', targetOf(account), 'success', wasLocked ? '' : '账号未锁定，已清除密码错误次数');
      });
      return ok([], '账号已解锁');
    },
  );

  app.post(
    `${BASE}/account/:id/password`,
    {
      ...guard,
      config: { auditAction: 'account.reset-password' },
      schema: {
        tags,
        summary: '重置密码（手动设置或随机密码并短信通知；结束其全部会话，下次登录须修改密码）',
        params: IdParams,
        body: Type.Object(PasswordFields),
        response: { 200: Empty, ...errorResponses },
      },
    },
    async (request) => {
      const { enterpriseId, account } = await accountFor(request, request.params.id);
      if (account.id === actorOf(request)) throw new BadRequestError('不能重置自己的密码，请通过修改密码更改');
      // An LDAP-linked account signs in with its directory password; a local one would never be used.
      if (await app.authSourceRepository.ldapIdentityOf(account.id)) throw new BadRequestError(AuthSourceMessage.directoryPassword);
      const { password, bySms } = await chosenPassword(enterpriseId, account.username, request.body.passwordMode, request.body.password);
      const passwordHash = await hashPassword(password);
      if (bySms) await sendPassword(request, account.phone, password);
      const tickets = await inEnterpriseTransaction(db, enterpriseId, async (trx) => {
        if (!(await accounts.resetPassword(trx, enterpriseId, account.id, passwordHash))) throw new NotFoundError(ACCOUNT_NOT_FOUND);
        // The lock guarded the old password; the new one starts with a clean count.
        await app.loginGuard.unlock(trx, account.id);
        const ended = await app.ssoSessions.end(trx, [account.id]);
        await auditRequest(trx, request, 'account.reset-password', targetOf(account), 'success', bySms ? '随机密码已短信发送' : '');
        await app.accountNotices.passwordChanged(trx, account.id, 'admin');
        return ended;
      });
      await app.ssoSessions.notify(request, tickets);
      return ok([], bySms ? '密码已重置，新密码已通过短信发送' : '密码已重置');
    },
  );

  app.delete(
    `${BASE}/account/:id`,
    {
      ...guard,
      config: { auditAction: 'account.delete' },
      schema: {
        tags,
        summary: '删除账号（保留账号与手机号不可再用；结束其全部会话，移出账号组并收回角色）',
        params: IdParams,
        response: { 200: Empty, ...errorResponses },
      },
    },
    async (request) => {
      const { enterpriseId, account } = await accountFor(request, request.params.id);
      if (account.id === actorOf(request)) throw new BadRequestError(SELF_DEMOTION_REFUSED);
      const tickets = await inEnterpriseTransaction(db, enterpriseId, async (trx) => {
        if (!(await accounts.softDelete(trx, enterpriseId, account.id))) throw new NotFoundError(ACCOUNT_NOT_FOUND);
        const ended = await app.ssoSessions.end(trx, [account.id]);
        await app.accountRepository.assertAdministratorsRemain(trx, enterpriseId, actorOf(request));
        await auditRequest(trx, request, 'account.delete', targetOf(account));
        return ended;
      });
      await app.ssoSessions.notify(request, tickets);
      return ok([], '账号已删除');
    },
  );

  app.get(
    `${BASE}/account/import/template`,
    {
      ...guard,
      schema: {
        tags,
        summary: '下载账号导入模板（CSV 或 Excel）',
        querystring: Type.Object({ format: Type.Union([Type.Literal('csv'), Type.Literal('xlsx')], { default: 'xlsx' }) }),
        produces: ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
        response: { 200: FileAnswer('text/csv 或 xlsx'), ...errorResponses },
      },
    },
    async (request, reply) => {
      if (request.query.format === 'csv') {
        reply.type('text/csv; charset=utf-8').header('content-disposition', attachment('账号导入模板.csv', 'account-import-template.csv'));
        return csvTemplate();
      }
      reply
        .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', attachment('账号导入模板.xlsx', 'account-import-template.xlsx'));
      return xlsxTemplate();
    },
  );

  app.post(
    `${BASE}/account/import`,
    {
      ...guard,
      config: { auditAction: 'account.import' },
      schema: {
        tags,
        summary:
          '批量导入账号（multipart 字段 file，CSV 或 XLSX，列同导入模板）：逐行校验，任何一行有误则全部不导入并列出每个有误的行号；未填初始密码的行生成随机密码并短信通知',
        consumes: ['multipart/form-data'],
        response: { 200: Envelope(ImportResultSchema), ...errorResponses },
      },
    },
    async (request) => {
      const enterpriseId = enterpriseOf(request);
      let file;
      try {
        file = await request.file();
      } catch {
        throw new BadRequestError('请以 multipart/form-data 上传 CSV 或 Excel 文件');
      }
      if (!file) throw new BadRequestError('请选择要导入的文件');
      let bytes: Buffer;
      try {
        bytes = await file.toBuffer();
      } catch (err) {
        if ((err as { code?: unknown }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('文件不能超过 1 MB', 413);
        throw err;
      }
      const rows = importRows(await readSheet(bytes));
      const [groups, roles, taken] = await Promise.all([
        accounts.groups(enterpriseId),
        accounts.assignableRoles(enterpriseId),
        accounts.takenAmong(
          rows.map((r) => r.values['账号']),
          rows.map((r) => r.values['手机号']),
        ),
      ]);
      const checked = checkImportRows(rows, {
        groups,
        roles,
        takenUsernames: taken.usernames,
        takenPhones: taken.phones,
        passwordRules: await app.securityPolicies.ofEnterprise(enterpriseId),
      });
      if (checked.errors.length) {
        const failed = checked.errors.length;
        await app.auditRepository.recordRequest(request, 'account.import', file.filename, 'failure', `${failed} 行有误，未导入`);
        return ok(
          { total: rows.length, imported: 0, failed, errors: checked.errors, smsSent: 0, smsFailed: [] },
          `导入失败：${failed} 行有误，未导入任何账号`,
        );
      }
      const bySms = checked.accounts.filter((a) => a.bySms);
      if (bySms.length > ACCOUNT_IMPORT_SMS_MAX_ROWS) {
        throw new BadRequestError(
          `一次最多为 ${ACCOUNT_IMPORT_SMS_MAX_ROWS} 个账号生成随机密码并短信发送（本次 ${bySms.length} 个），请分批导入或填写初始密码`,
        );
      }
      // As 新增: without the template no random password can reach anyone, so nothing is written (503).
      if (bySms.length) refuseWithoutTemplate(app.smsSender, 'password');
      const hashes = await hashAll(checked.accounts.map((a) => a.password));
      const created = checked.accounts.map(({ line: _line, password, bySms: _bySms, ...account }) => ({
        ...account,
        passwordHash: hashes.get(password) ?? '',
      }));
      const detail = `导入 ${created.length} 个账号${bySms.length ? `，其中 ${bySms.length} 个随机密码以短信发送` : ''}`;
      try {
        await inEnterpriseTransaction(db, enterpriseId, async (trx) => {
          await accounts.createMany(trx, enterpriseId, created);
          await auditRequest(trx, request, 'account.import', file.filename, 'success', detail);
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw new ConflictError('导入期间有账号或手机号已被使用，请重新导入');
        throw err;
      }
      const smsFailed = await sendImportPasswords(request, bySms);
      const smsSent = bySms.length - smsFailed.length;
      if (smsFailed.length) {
        const unsent = bySms.filter((a) => smsFailed.some((f) => f.line === a.line)).map((a) => a.username);
        await app.auditRepository.recordRequest(
          request,
          'account.import',
          file.filename,
          'failure',
          `${unsent.length} 个初始密码短信发送失败：${unsent.join('、')}`,
        );
      }
      const result = { total: rows.length, imported: created.length, failed: 0, errors: [], smsSent, smsFailed };
      let message = `导入完成：成功导入 ${created.length} 个账号`;
      if (smsSent) message += `，${smsSent} 个初始密码已通过短信发送`;
      if (smsFailed.length) message += `；${smsFailed.length} 个账号的初始密码短信发送失败，请为其重置密码`;
      return ok(result, message);
    },
  );

  app.get(
    `${BASE}/account/export`,
    {
      ...guard,
      config: { auditAction: 'account.export' },
      schema: {
        tags,
        summary: `导出账号 CSV（UTF-8 带 BOM，筛选条件同列表，列同列表，最多 ${ACCOUNT_EXPORT_MAX_ROWS} 个）`,
        querystring: FilterQuery,
        produces: ['text/csv'],
        response: { 200: FileAnswer('text/csv; charset=utf-8'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const enterpriseId = enterpriseOf(request);
      const q = request.query;
      const selfId = actorOf(request);
      const matches = accounts.stream(enterpriseId, filtersOf(q), ACCOUNT_EXPORT_MAX_ROWS);
      async function* rows() {
        for await (const account of matches) yield toRow(account, selfId);
      }
      const filters = [q.keyword, q.state, q.groupId && `账号组 ${q.groupId}`, q.roleId && `角色 ${q.roleId}`].filter(Boolean).join(' ');
      await app.auditRepository.recordRequest(request, 'account.export', filters || '全部');
      const stamp = chinaTime(new Date()).replace(/[-: ]/g, '');
      reply.type('text/csv; charset=utf-8').header('content-disposition', attachment(`账号-${stamp}.csv`, `accounts-${stamp}.csv`));
      return accountsCsv(rows());
    },
  );
};

export default accountAdminRoutes;
