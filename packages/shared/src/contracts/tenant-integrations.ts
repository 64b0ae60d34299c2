import { Type } from 'typebox';
import { AuthSourceSummarySchema } from './auth-sources.js';
import { ScimTokenRowSchema } from './scim.js';

/**
 * 租户管理's one read of how an enterprise connects its people: its 认证源 and its SCIM clients, each
 * with its last activity (the source of the types in scim.ts).
 */

export const TenantSourceActivitySchema = Type.Object({
  ...AuthSourceSummarySchema.properties,
  lastSignInAt: Type.String({ description: '关联账号最近一次成功登录的时间；从未登录为空' }),
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
