import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ApiPrefix,
  Authority,
  ConsoleIpRulesBodySchema,
  ConsoleIpRulesSchema,
  EmptyAnswerSchema,
  PasswordRulesAnswerSchema,
  RowIdParamsSchema,
  SecurityPolicySchema,
  TenantIpRulesSchema,
  TwoFactorResetParamsSchema,
  describePasswordRules,
} from '@portal/shared';
import type { FastifyRequest } from 'fastify';
import { actorOf } from '../portal-auth/auth.js';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { ForbiddenError, UnauthorizedError } from '../../platform/lib/errors.js';

const BASE = ApiPrefix.console;
const tags = ['security'];

/**
 * 安全设置: the caller's enterprise's security policy, read and saved by holders of
 * security:setting; an enterprise without its own follows the platform defaults (configuration).
 * 控制台访问: the networks the enterprise's console may be reached from (same authority; an endpoint of its
 * own, since the central login never reads it). 重置二次验证 of an account of the same enterprise
 * (org:account or security:setting). Any signed-in account reads the password rules of its enterprise
 * (修改密码, and 新增账号's manual password).
 */
const securityRoutes: FastifyPluginAsyncTypebox = async (app) => {
  function enterpriseOf(request: FastifyRequest): number {
    const enterpriseId = request.principal?.profile.enterpriseId;
    if (!enterpriseId) throw new ForbiddenError('当前账号不属于任何企业');
    return enterpriseId;
  }

  app.get(
    `${BASE}/security/policy`,
    {
      onRequest: app.requireAuthority(Authority.SecuritySetting),
      schema: {
        tags,
        summary: '安全设置：本企业的安全策略（未设置时为平台默认值）',
        response: { 200: Envelope(SecurityPolicySchema), ...errorResponses },
      },
    },
    async (request) => ok(await app.securityPolicyRepository.ofEnterprise(enterpriseOf(request))),
  );

  app.put(
    `${BASE}/security/policy`,
    {
      onRequest: app.requireAuthority(Authority.SecuritySetting),
      config: { auditAction: 'security.policy' },
      schema: {
        tags,
        summary: '保存安全设置（密码策略、登录锁定、单点登录会话、二次验证；下次登录起生效）',
        body: SecurityPolicySchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      await app.securityService.savePolicy(enterpriseOf(request), request.body, actorOf(request));
      return ok([], '安全设置已保存，下次登录起生效');
    },
  );

  app.get(
    `${BASE}/security/ip-rules`,
    {
      onRequest: app.requireAuthority(Authority.SecuritySetting),
      schema: {
        tags,
        summary: '控制台访问：本企业允许访问控制台的 IP 地址（空：不限制），及调用者当前的地址',
        response: { 200: Envelope(ConsoleIpRulesSchema), ...errorResponses },
      },
    },
    async (request) => ok(await app.consoleAccessService.rulesOf(enterpriseOf(request), actorOf(request))),
  );

  app.put(
    `${BASE}/security/ip-rules`,
    {
      onRequest: app.requireAuthority(Authority.SecuritySetting),
      config: { auditAction: 'security.ip-rules' },
      schema: {
        tags,
        summary: '保存控制台访问规则（每行一个 IP 地址或 CIDR 网段；须包含当前地址；立即生效）',
        body: ConsoleIpRulesBodySchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      const rules = await app.consoleAccessService.save(enterpriseOf(request), request.body.rules, actorOf(request));
      return ok([], rules.length ? '控制台访问规则已保存，立即生效' : '已清空允许访问的 IP 地址，控制台不限制访问地址');
    },
  );

  // 租户管理: the operator reads an enterprise's list and may lift it, the way back for an enterprise whose
  // administrators all left their listed networks (operators are held by no list).
  app.get(
    `${BASE}/tenants/:id/ip-rules`,
    {
      onRequest: app.requireAuthority(Authority.Tenant),
      schema: {
        tags,
        summary: '某企业的控制台访问规则（平台运营；空：不限制）',
        params: RowIdParamsSchema,
        response: { 200: Envelope(TenantIpRulesSchema), ...errorResponses },
      },
    },
    async (request) => ok({ rules: await app.consoleAccessService.rulesOfTenant(request.params.id) }),
  );

  app.delete(
    `${BASE}/tenants/:id/ip-rules`,
    {
      onRequest: app.requireAuthority(Authority.Tenant),
      config: { auditAction: 'security.ip-rules' },
      schema: {
        tags,
        summary: '清除某企业的控制台访问限制（平台运营；该企业的操作日志记录此操作）',
        params: RowIdParamsSchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      await app.consoleAccessService.clearForTenant(request.params.id, actorOf(request));
      return ok([], '已清除该企业的控制台访问限制');
    },
  );

  app.get(
    `${ApiPrefix.portalAuth}/account/password-rules`,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: '当前账号所在企业的密码规则（修改密码、新增账号时提示）',
        response: {
          200: Envelope(PasswordRulesAnswerSchema),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const principal = request.principal;
      if (!principal) throw new UnauthorizedError();
      const policy = await app.securityPolicyRepository.ofEnterprise(principal.profile.enterpriseId);
      const { passwordMinLength, passwordClasses, passwordNoUsername } = policy;
      return ok({ passwordMinLength, passwordClasses, passwordNoUsername, description: describePasswordRules(policy) });
    },
  );

  app.post(
    `${BASE}/account/:id/two-factor/reset`,
    {
      onRequest: app.requireAuthority(Authority.OrgAccount, Authority.SecuritySetting),
      config: { auditAction: 'account.two-factor-reset' },
      schema: {
        tags,
        summary: '重置二次验证（清除验证器绑定与恢复码，下次登录时重新绑定）',
        params: TwoFactorResetParamsSchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      await app.securityService.resetTwoFactor(enterpriseOf(request), request.params.id, actorOf(request));
      return ok([], '二次验证已重置，该账号下次登录时需重新绑定');
    },
  );
};

export default securityRoutes;
