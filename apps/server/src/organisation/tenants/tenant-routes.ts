import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  Authority,
  EnterpriseMessage,
  EnterpriseRules,
  type TenantCreateBody,
  TenantMessage,
  TenantRules,
  CertificationStatusSchema,
} from '@portal/shared';
import { Type } from 'typebox';
import { inEnterpriseTransaction, inTransaction } from '../../platform/db/transaction.js';
import { isUniqueViolation } from '../../platform/lib/db-errors.js';
import { Envelope, Page, errorResponses, ok } from '../../platform/lib/envelope.js';
import { AppError, BadRequestError, ConflictError, NotFoundError } from '../../platform/lib/errors.js';
import { hashPassword } from '../../identity/accounts/passwords.js';
import { auditRequest } from '../../platform/audit/audit-log.js';
import { randomPasswordFor } from '../../identity/org/account-passwords.js';
import { sendSmsOrRefuse } from '../../platform/sms/sms-plugin.js';
import type { EndedTickets } from '../../identity/cas/sso-sessions.js';

const tags = ['tenant'];

const EnterpriseStatus = Type.Union([Type.Literal('active'), Type.Literal('disabled')]);
const CertificationStatus = CertificationStatusSchema;

const TenantSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  certificationStatus: CertificationStatus,
  status: EnterpriseStatus,
  accountCount: Type.Integer({ description: '账号数（不含已删除）' }),
  admins: Type.Array(Type.String(), { description: '启用的企业管理员姓名' }),
  createdAt: Type.String(),
});

// Lengths here only bound the request; the shared field rules answer with their own messages.
const CreateBody = Type.Object({
  name: Type.String({ maxLength: 400, description: '企业名称' }),
  creditCode: Type.String({ maxLength: 72, description: '统一社会信用代码（18 位，含校验位）' }),
  adminName: Type.String({ maxLength: 128, description: '首个管理员的姓名' }),
  adminUsername: Type.String({ maxLength: 64, description: '首个管理员的账号' }),
  adminPhone: Type.String({ maxLength: 32, description: '首个管理员的手机号：随机初始密码以短信发送到此号码' }),
});

const check = (message: string | undefined) => {
  if (message) throw new BadRequestError(message);
};

/** The body trimmed and checked field by field, in the form's order. */
function checkedCreate(body: TenantCreateBody): TenantCreateBody {
  const input: TenantCreateBody = {
    name: body.name.trim(),
    creditCode: body.creditCode.trim(),
    adminName: body.adminName.trim(),
    adminUsername: body.adminUsername.trim(),
    adminPhone: body.adminPhone.trim(),
  };
  check(EnterpriseRules.name(input.name));
  check(EnterpriseRules.creditCode(input.creditCode));
  check(TenantRules.personName(input.adminName));
  check(TenantRules.username(input.adminUsername));
  check(TenantRules.phone(input.adminPhone));
  return input;
}

/**
 * 租户管理 (authority tenant: platform operators): the enterprises, searched and filtered;
 * 新建企业 creates one with its first administrator (as MaxKey's and yudao's tenant consoles do);
 * 停用 ends every session of the enterprise's accounts (and their CAS single logout) and keeps them
 * from logging in, 启用 lets them in again.
 */
const tenantRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.database;
  const tenants = app.tenantRepository;
  const canTenants = { onRequest: app.requireAuthority(Authority.Tenant) };

  app.get(
    '/web-api/console/v1/tenant/page/list',
    {
      ...canTenants,
      schema: {
        tags,
        summary: '租户分页列表（新的在前；按名称搜索，按状态与认证状态筛选）',
        querystring: Type.Object({
          keyword: Type.Optional(Type.String({ maxLength: 100 })),
          status: Type.Optional(Type.Union([EnterpriseStatus, Type.Literal('')])),
          certificationStatus: Type.Optional(Type.Union([CertificationStatus, Type.Literal('')])),
          offset: Type.Integer({ minimum: 0, default: 0 }),
          limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
        }),
        response: { 200: Envelope(Page(TenantSchema)), ...errorResponses },
      },
    },
    async (request) => {
      const q = request.query;
      const filters = {
        keyword: q.keyword?.trim() ?? '',
        status: q.status || undefined,
        certificationStatus: q.certificationStatus || undefined,
      };
      return ok(await tenants.page(filters, q.offset, q.limit));
    },
  );

  /** 409 naming the first field another enterprise or account already has (deleted accounts keep theirs). */
  async function refuseTaken(input: TenantCreateBody): Promise<void> {
    const [enterprise, account] = await Promise.all([
      tenants.taken(input.name, input.creditCode),
      app.accountAdminRepository.taken(input.adminUsername, input.adminPhone),
    ]);
    if (enterprise.name) throw new ConflictError(EnterpriseMessage.nameTaken);
    if (enterprise.creditCode) throw new ConflictError(EnterpriseMessage.creditCodeTaken);
    if (account.username) throw new ConflictError(TenantMessage.usernameTaken);
    if (account.phone) throw new ConflictError(TenantMessage.phoneTaken);
  }

  app.post(
    '/web-api/console/v1/tenant',
    {
      ...canTenants,
      config: { auditAction: 'tenant.create' },
      schema: {
        tags,
        summary: '新建企业及其首个管理员（随机初始密码短信发送，首次登录须修改密码）',
        body: CreateBody,
        response: { 200: Envelope(Type.Object({ id: Type.Integer() })), ...errorResponses },
      },
    },
    async (request) => {
      const input = checkedCreate(request.body);
      await refuseTaken(input);
      // A new enterprise has no 安全设置 yet: the platform's policy applies until its administrator sets one.
      const password = randomPasswordFor(app.securityPolicies.defaults, input.adminUsername);
      const passwordHash = await hashPassword(password);
      // As 账号管理's 新增: the password goes out before anything is written, so a failed send (503) leaves nothing behind.
      await sendSmsOrRefuse(request, app.smsSender, { phone: input.adminPhone, templateKey: 'password', params: { password } });
      try {
        const id = await inTransaction(db, async (trx) => {
          const enterprise = await tenants.create(trx, {
            name: input.name,
            creditCode: input.creditCode,
            contactName: input.adminName,
            contactPhone: input.adminPhone,
          });
          await app.accountAdminRepository.create(trx, enterprise.id, {
            username: input.adminUsername,
            name: input.adminName,
            phone: input.adminPhone,
            email: '',
            passwordHash,
            groupIds: [],
            roleIds: [enterprise.adminRoleId],
          });
          await auditRequest(
            trx,
            request,
            'tenant.create',
            input.name,
            'success',
            `管理员 ${input.adminUsername} ${input.adminName}，初始密码已短信发送`,
          );
          return enterprise.id;
        });
        return ok({ id }, '企业已创建，管理员的初始密码已通过短信发送');
      } catch (err) {
        // A concurrent write took a name, code, username or phone between the check and the insert.
        if (!isUniqueViolation(err)) throw err;
        await refuseTaken(input);
        throw new ConflictError('企业名称、统一社会信用代码、账号或手机号已被使用');
      }
    },
  );

  app.put(
    '/web-api/console/v1/tenant/:id/status',
    {
      ...canTenants,
      schema: {
        tags,
        summary: '停用或启用企业（停用时结束其全部账号的会话并通知各应用单点登出）',
        params: Type.Object({ id: Type.Integer({ minimum: 1 }) }),
        body: Type.Object({ status: EnterpriseStatus }),
        response: { 200: Envelope(Type.Object({})), ...errorResponses },
      },
    },
    async (request) => {
      const { status } = request.body;
      const action = status === 'disabled' ? 'tenant.disable' : 'tenant.enable';
      try {
        const enterprise = await tenants.byId(request.params.id);
        if (!enterprise) throw new NotFoundError('企业不存在');
        if (status === 'disabled' && enterprise.id === request.principal?.profile.enterpriseId) {
          throw new BadRequestError('不能停用本账号所在的企业');
        }
        const tickets: EndedTickets = await inEnterpriseTransaction(db, enterprise.id, async (trx) => {
          const accounts = await tenants.setStatus(trx, enterprise.id, status);
          await auditRequest(trx, request, action, enterprise.name);
          return status === 'disabled' ? app.ssoSessions.end(trx, accounts) : [];
        });
        await app.ssoSessions.notify(request, tickets);
      } catch (err) {
        // One route, two audit actions (audit-failures knows one per route): a refusal is recorded as the one asked for.
        if (err instanceof AppError) {
          await app.auditRepository.recordRequest(request, action, String(request.params.id), 'failure', err.message);
        }
        throw err;
      }
      return ok([], status === 'disabled' ? '企业已停用' : '企业已启用');
    },
  );
};

export default tenantRoutes;
