import { PASSWORD_CLASSES, type SecurityPolicy, SecurityPolicyMessage, TWO_FACTOR_METHODS, securityPolicyProblem } from '@portal/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { inEnterpriseTransaction } from '../../platform/db/transaction.js';
import { BadRequestError, NotFoundError } from '../../platform/lib/errors.js';
import { auditBy } from '../../platform/audit/audit-log.js';
import type { Actor } from '../../platform/lib/actor.js';

/** The 安全设置 audit row's detail: the saved values in a line. */
const describe = (p: SecurityPolicy) =>
  [
    `密码最短${p.passwordMinLength}位`,
    `字符类型[${p.passwordClasses.join(',')}]`,
    p.passwordNoUsername ? '不含账号' : '',
    `历史${p.passwordHistory}`,
    `有效期${p.passwordExpiryDays}天`,
    `锁定${p.lockMaxFailures}次/${p.lockMinutes}分钟`,
    `会话空闲${p.sessionIdleMinutes}分钟/最长${p.sessionMaxHours}小时`,
    `二次验证${p.twoFactor}`,
    p.auditRetentionDays === undefined ? '' : `审计日志保留${p.auditRetentionDays}天`,
    p.twoFactor === 'roles' ? `角色[${p.twoFactorRoles.join(',')}]` : '',
    `验证方式[${p.twoFactorMethods.join(',')}]`,
    `信任设备${p.trustDeviceDays}天`,
  ]
    .filter(Boolean)
    .join('，');

/**
 * 安全设置's writes (the routes are `security-routes.ts`): an enterprise's policy, checked by the shared
 * rules, and 重置二次验证 of one of its accounts; each in the enterprise's transaction with its audit row.
 */
function createSecurityService(app: FastifyInstance) {
  const { db } = app.database;

  async function savePolicy(enterpriseId: number, input: SecurityPolicy, actor: Actor): Promise<void> {
    // The classes and factors in their canonical order, whatever order the form sent; each role once.
    const policy: SecurityPolicy = {
      ...input,
      passwordClasses: PASSWORD_CLASSES.filter((c) => input.passwordClasses.includes(c)),
      twoFactorMethods: TWO_FACTOR_METHODS.filter((m) => input.twoFactorMethods.includes(m)),
      twoFactorRoles: [...new Set(input.twoFactorRoles)].sort((a, b) => a - b),
    };
    const problem = securityPolicyProblem(policy);
    if (problem) throw new BadRequestError(problem);
    // 按角色 names roles of this enterprise only (another enterprise's role id reads as unknown).
    const known = await app.securityPolicyRepository.rolesOfEnterprise(enterpriseId, policy.twoFactorRoles);
    if (known.length !== policy.twoFactorRoles.length) throw new BadRequestError(SecurityPolicyMessage.roleUnknown);
    await inEnterpriseTransaction(db, enterpriseId, async (trx) => {
      await app.securityPolicyRepository.save(trx, enterpriseId, policy);
      await auditBy(trx, actor, 'security.policy', '安全设置', 'success', describe(policy));
    });
    // The console's sessions on this instance follow the new limits at once (others within their cache's TTL).
    app.caches.clear('security-policy');
  }

  /** The account's secret and recovery codes go: its next login enrols again. Another enterprise's account answers 404. */
  async function resetTwoFactor(enterpriseId: number, accountId: number, actor: Actor): Promise<void> {
    const account = await app.accountAdminRepository.find(enterpriseId, accountId);
    if (!account) throw new NotFoundError('账号不存在');
    await inEnterpriseTransaction(db, enterpriseId, async (trx) => {
      await app.twoFactorService.reset(trx, account.id);
      await auditBy(trx, actor, 'account.two-factor-reset', `${account.username} ${account.name}`);
    });
  }

  return { savePolicy, resetTwoFactor };
}

export type SecurityService = ReturnType<typeof createSecurityService>;

declare module 'fastify' {
  interface FastifyInstance {
    securityService: SecurityService;
  }
}

export default fp(
  async (app) => {
    app.decorate('securityService', createSecurityService(app));
  },
  { name: 'security-service', dependencies: ['two-factor'] },
);
