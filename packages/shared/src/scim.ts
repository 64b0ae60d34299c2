import type { Static } from 'typebox';
import type { ScimTokenBodySchema, ScimTokenRowSchema, ScimTokenSecretSchema } from './contracts/scim.js';
import type {
  TenantIntegrationsSchema,
  TenantScimClientActivitySchema,
  TenantSourceActivitySchema,
} from './contracts/tenant-integrations.js';

/**
 * SCIM 2.0 (RFC 7643/7644) provisioning: an enterprise's HR system or identity provider keeps its
 * accounts and 账号组 current at `/scim/v2` with a bearer token created under 认证源.
 */

/** Where the SCIM service answers, below the portal's address. */
export const SCIM_BASE_PATH = '/scim/v2';
export const SCIM_TOKEN_NAME_MAX = 64;
/** Live tokens one enterprise may hold (one per connected system is the usual need). */
export const SCIM_TOKENS_MAX = 10;

export const ScimMessage = {
  nameLength: `名称须为 1～${SCIM_TOKEN_NAME_MAX} 个字符`,
  nameTaken: '名称已被使用',
  tooMany: `每个企业最多保留 ${SCIM_TOKENS_MAX} 个 SCIM 令牌，请先吊销不再使用的令牌`,
  notFound: 'SCIM 令牌不存在',
  /** A token manages the enterprise's people and groups: creating one takes the authorities that do. */
  createForbidden: '创建 SCIM 令牌需要“账号管理”和“账号组”权限（如企业管理员）',
  tokenOnce: '访问令牌只显示这一次，关闭后无法再次查看；请立即复制到对接系统中，遗失后只能吊销并重新创建。',
} as const;

export type ScimTokenRow = Static<typeof ScimTokenRowSchema>;
export type ScimTokenBody = Static<typeof ScimTokenBodySchema>;
/** The token of 创建, shown once. */
export type ScimTokenSecret = Static<typeof ScimTokenSecretSchema>;

/** 租户管理's view of an enterprise's 认证源, with the last sign-in of the accounts it links. */
export type TenantSourceActivity = Static<typeof TenantSourceActivitySchema>;
/** 租户管理's view of an enterprise's SCIM client: its token's last use and the last change it made. */
export type TenantScimClientActivity = Static<typeof TenantScimClientActivitySchema>;
/** `GET /web-api/console/v1/tenants/{id}/integrations` (operators). */
export type TenantIntegrations = Static<typeof TenantIntegrationsSchema>;
