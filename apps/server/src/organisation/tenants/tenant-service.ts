import { EnterpriseMessage, EnterpriseRules, type TenantCreateBody, TenantMessage, TenantRules } from '@portal/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Caller } from '../../identity/portal-auth/auth.js';
import { auditBy } from '../../platform/audit/audit-log.js';
import { inEnterpriseTransaction, inTransaction } from '../../platform/db/transaction.js';
import { isUniqueViolation } from '../../platform/lib/db-errors.js';
import { AppError, BadRequestError, ConflictError, NotFoundError } from '../../platform/lib/errors.js';
import { sendSmsOrRefuse } from '../../platform/sms/sms-plugin.js';
import { hashPassword } from '../../identity/accounts/passwords.js';
import type { EndedTickets } from '../../identity/cas/sso-sessions.js';
import { randomPasswordFor } from '../../identity/org/account-passwords.js';

declare module 'fastify' {
  interface FastifyInstance {
    tenantService: TenantService;
  }
}

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
 * 租户管理's rules: 新建企业 creates an enterprise with its first administrator (as MaxKey's and
 * yudao's tenant consoles do); 停用 ends every session of the enterprise's accounts (and their CAS
 * single logout) and keeps them from logging in, 启用 lets them in again. `caller` is who asks (the
 * audit row's account and address).
 */
export class TenantService {
  constructor(private readonly app: FastifyInstance) {}

  /** 新建企业: answers the new enterprise's id; its administrator's random password goes out by SMS first. */
  async create(caller: Caller, body: TenantCreateBody): Promise<number> {
    const input = checkedCreate(body);
    await this.refuseTaken(input);
    // A new enterprise has no 安全设置 yet: the platform's policy applies until its administrator sets one.
    const password = randomPasswordFor(this.app.securityPolicyRepository.defaults, input.adminUsername);
    const passwordHash = await hashPassword(password);
    // As 账号管理's 新增: the password goes out before anything is written, so a failed send (503) leaves nothing behind.
    await sendSmsOrRefuse(caller.log, this.app.smsSender, { phone: input.adminPhone, templateKey: 'password', params: { password } });
    try {
      return await inTransaction(this.app.database.db, async (trx) => {
        const enterprise = await this.app.tenantRepository.create(trx, {
          name: input.name,
          creditCode: input.creditCode,
          contactName: input.adminName,
          contactPhone: input.adminPhone,
        });
        await this.app.accountAdminRepository.create(trx, enterprise.id, {
          username: input.adminUsername,
          name: input.adminName,
          phone: input.adminPhone,
          email: '',
          passwordHash,
          groupIds: [],
          roleIds: [enterprise.adminRoleId],
        });
        const detail = `管理员 ${input.adminUsername} ${input.adminName}，初始密码已短信发送`;
        await auditBy(trx, caller, 'tenant.create', input.name, 'success', detail);
        return enterprise.id;
      });
    } catch (err) {
      // A concurrent write took a name, code, username or phone between the check and the insert.
      if (!isUniqueViolation(err)) throw err;
      await this.refuseTaken(input);
      throw new ConflictError('企业名称、统一社会信用代码、账号或手机号已被使用');
    }
  }

  /** 停用 or 启用; a refusal is audited as the action asked for. */
  async setStatus(caller: Caller, id: number, status: 'active' | 'disabled'): Promise<void> {
    const action = status === 'disabled' ? 'tenant.disable' : 'tenant.enable';
    try {
      const enterprise = await this.app.tenantRepository.byId(id);
      if (!enterprise) throw new NotFoundError('企业不存在');
      if (status === 'disabled' && enterprise.id === caller.enterpriseId) {
        throw new BadRequestError('不能停用本账号所在的企业');
      }
      const tickets: EndedTickets = await inEnterpriseTransaction(this.app.database.db, enterprise.id, async (trx) => {
        const accounts = await this.app.tenantRepository.setStatus(trx, enterprise.id, status);
        await auditBy(trx, caller, action, enterprise.name);
        return status === 'disabled' ? this.app.ssoSessionService.end(trx, accounts, { reason: 'enterprise-disabled' }) : [];
      });
      await this.app.ssoSessionService.notify(caller, tickets);
    } catch (err) {
      // One route, two audit actions (audit-failures knows one per route): a refusal is recorded as the one asked for.
      if (err instanceof AppError) {
        await this.app.auditRepository.recordBy(caller, action, String(id), 'failure', err.message);
      }
      throw err;
    }
  }

  /** 409 naming the first field another enterprise or account already has (deleted accounts keep theirs). */
  private async refuseTaken(input: TenantCreateBody): Promise<void> {
    const [enterprise, account] = await Promise.all([
      this.app.tenantRepository.taken(input.name, input.creditCode),
      this.app.accountAdminRepository.taken(input.adminUsername, input.adminPhone),
    ]);
    if (enterprise.name) throw new ConflictError(EnterpriseMessage.nameTaken);
    if (enterprise.creditCode) throw new ConflictError(EnterpriseMessage.creditCodeTaken);
    if (account.username) throw new ConflictError(TenantMessage.usernameTaken);
    if (account.phone) throw new ConflictError(TenantMessage.phoneTaken);
  }
}

export default fp(
  async (app) => {
    app.decorate('tenantService', new TenantService(app));
  },
  { name: 'tenant-service', dependencies: ['tenant-repository'] },
);
