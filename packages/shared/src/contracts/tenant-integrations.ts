import { Type } from 'typebox';
import { AuthSourceSummarySchema, FederationDomainReviewSchema } from './auth-sources.js';
import { ScimTokenRowSchema } from './scim.js';

/**
 * 租户管理's one read of how an enterprise connects its people: its 认证源 and its SCIM clients, each
 * with its last activity (the source of the types in scim.ts).
 */

export const TenantSourceActivitySchema = Type.Object({
  ...AuthSourceSummarySchema.properties,
  lastSignInAt: Type.String({ description: '关联账号最近一次成功登录的时间；从未登录为空' }),
  domainReviews: Type.Array(FederationDomainReviewSchema, { description: '企业身份提供方认领的邮箱域名及其审核状态' }),
});

/** `PUT /web-api/console/v1/tenants/:id/federation-domains/:domain`: an operator's decision on a claimed domain. */
export const FederationDomainDecisionSchema = Type.Object({ approve: Type.Boolean({ description: 'true 批准；false 驳回' }) });
export const FederationDomainParamsSchema = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  domain: Type.String({ minLength: 1, maxLength: 253 }),
});

export const TenantScimClientActivitySchema = Type.Object({
  ...ScimTokenRowSchema.properties,
  lastChange: Type.String({ description: '最近一次写入的操作与对象，如“停用账号 wangfang 王芳”；从未写入为空' }),
  lastChangeAt: Type.String(),
});

export const TenantIntegrationsSchema = Type.Object({
  sources: Type.Array(TenantSourceActivitySchema),
  scimClients: Type.Array(TenantScimClientActivitySchema),
});
