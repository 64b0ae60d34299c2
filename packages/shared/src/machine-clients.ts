import type { Static } from 'typebox';
import type {
  MachineClientBodySchema,
  MachineClientQuerySchema,
  MachineClientRowSchema,
  MachineClientSecretSchema,
  OpenAccountRowSchema,
} from './contracts/machine-clients.js';

/**
 * 机器客户端: an enterprise's own systems (MES, ERP) that get tokens with client_credentials at
 * /oidc/token and call the enterprise's APIs under ApiPrefix.enterpriseOpen with the scopes they hold.
 */

/** Scopes of machine clients: the enterprise's own APIs they may call. */
export const MACHINE_SCOPES = ['accounts:read', 'groups:read', 'identifiers:read', 'identifiers:write'] as const;
export type MachineScope = (typeof MACHINE_SCOPES)[number];
export const MACHINE_SCOPE_LABELS: Record<MachineScope, string> = {
  'accounts:read': '读取账号',
  'groups:read': '读取账号组',
  'identifiers:read': '读取标识',
  'identifiers:write': '登记与修改标识',
};

export type MachineClientStatus = 'enabled' | 'disabled';
export const MACHINE_CLIENT_STATUS_LABELS: Record<MachineClientStatus, string> = { enabled: '启用', disabled: '停用' };

/** A client id: what OAuth clients and URLs carry without escaping. */
export const MACHINE_CLIENT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{2,63}$/;
export const MACHINE_CLIENT_NAME_MAX = 64;

/** The machine clients' messages, identical on both sides. */
export const MachineClientMessage = {
  nameLength: `名称须为 1～${MACHINE_CLIENT_NAME_MAX} 个字符`,
  clientIdFormat: '客户端 ID 须为 3～64 位字母、数字、点、下划线或连字符',
  scopeRequired: '请至少选择一个授权范围',
  clientIdTaken: '客户端 ID 已被使用',
  nameTaken: '名称已被使用',
  notFound: '机器客户端不存在',
  secretOnce: '客户端密钥只显示这一次，关闭后无法再次查看；请立即复制并妥善保存，遗失后只能重置密钥。',
  /** The bearer token of a machine API call is missing, unknown, expired, revoked or its client is disabled. */
  tokenInvalid: '访问令牌无效或已过期，请重新获取',
  scopeMissing: (scope: string) => `访问令牌缺少授权范围 ${scope}`,
} as const;

/** A row of 机器客户端 (`GET /web-api/console/v1/machine-client/page/list`). */
export type MachineClientRow = Static<typeof MachineClientRowSchema>;
/** Body of 新建 and 编辑. */
export type MachineClientBody = Static<typeof MachineClientBodySchema>;
export type MachineClientQuery = Static<typeof MachineClientQuerySchema>;
/** The secret of 新建 and 重置密钥, shown once. */
export type MachineClientSecret = Static<typeof MachineClientSecretSchema>;
/** An account as the accounts:read API answers it. */
export type OpenAccountRow = Static<typeof OpenAccountRowSchema>;
