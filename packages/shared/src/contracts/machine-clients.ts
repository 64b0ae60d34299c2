import { Type } from 'typebox';
import { AccountRowSchema } from './tenant.js';

/** The console bodies of 机器客户端 and the answers of the enterprise's machine APIs: the source of the types in machine-clients.ts. */

export const MachineClientStatusSchema = Type.Union([Type.Literal('enabled'), Type.Literal('disabled')]);

export const MachineClientRowSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  clientId: Type.String(),
  scopes: Type.Array(Type.String(), { description: '授权范围' }),
  status: MachineClientStatusSchema,
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

// Lengths here only bound the request; the rules (MachineClientMessage) answer with their own messages.
export const MachineClientBodySchema = Type.Object({
  name: Type.String({ maxLength: 200 }),
  clientId: Type.String({ maxLength: 200, description: '3～64 位字母、数字、点、下划线或连字符；创建后不可修改' }),
  scopes: Type.Array(Type.String({ maxLength: 64 }), { maxItems: 20, description: '授权范围' }),
});

export const MachineClientQuerySchema = Type.Object({
  offset: Type.Integer({ minimum: 0, default: 0 }),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  keyword: Type.Optional(Type.String({ maxLength: 64, description: '名称或客户端 ID（包含）' })),
});

export const MachineClientStatusBodySchema = Type.Object({ status: MachineClientStatusSchema });

export const MachineClientSecretSchema = Type.Object({
  id: Type.Integer(),
  clientId: Type.String(),
  secret: Type.String({ description: '客户端密钥：只在新建与重置密钥时返回一次，门户只保存其摘要' }),
});

// ----- the enterprise's APIs for machine clients

export const OpenAccountRowSchema = Type.Omit(AccountRowSchema, ['self']);
export const OpenAccountQuerySchema = Type.Object({
  offset: Type.Integer({ minimum: 0, default: 0 }),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  keyword: Type.Optional(Type.String({ maxLength: 64, description: '账号、姓名或手机号（包含）' })),
  groupId: Type.Optional(Type.Integer({ minimum: 1, description: '只列出该账号组的成员' })),
});
export const OpenGroupQuerySchema = Type.Object({
  offset: Type.Integer({ minimum: 0, default: 0 }),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  keyword: Type.Optional(Type.String({ maxLength: 64, description: '账号组名称（包含）' })),
});
