import { Type } from 'typebox';

/** The console bodies of SCIM 同步's tokens: the source of the types in scim.ts. */

export const ScimTokenRowSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  /** The token's first characters, so an administrator can tell which one a system holds. */
  hint: Type.String(),
  createdBy: Type.String(),
  createdAt: Type.String(),
  /** '' when it was never used. */
  lastUsedAt: Type.String(),
  lastUsedIp: Type.String(),
});

// The length only bounds the request; ScimMessage answers the rule with its own message.
export const ScimTokenBodySchema = Type.Object({ name: Type.String({ maxLength: 200 }) });

export const ScimTokenSecretSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  token: Type.String({ description: '访问令牌：只在创建时返回一次，门户只保存其摘要' }),
});
