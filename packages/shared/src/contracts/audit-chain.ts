import { Type } from 'typebox';

/**
 * 校验完整性 of 操作日志 and 登录日志: the hash chain of the caller's enterprise over a period (spec: tamper-evident
 * audit; docs/architecture.md, "Tamper-evident audit").
 */
export const AuditChainVerifyQuerySchema = Type.Object({
  filterStartTime: Type.Optional(Type.String({ maxLength: 19, description: '开始时间 yyyy-MM-dd HH:mm:ss（中国时间；不填：链的开头）' })),
  filterEndTime: Type.Optional(Type.String({ maxLength: 19, description: '结束时间 yyyy-MM-dd HH:mm:ss（含；不填：至今）' })),
  enterpriseId: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 2_147_483_647,
      description: '平台运维人员校验的企业（0：不属于任何企业的记录）；企业用户校验本企业',
    }),
  ),
});

export const AuditChainBreakSchema = Type.Object({
  kind: Type.Union([Type.Literal('altered'), Type.Literal('removed'), Type.Literal('inserted')]),
  kindText: Type.String({ description: '被篡改 / 被删除 / 被插入' }),
  rowId: Type.Union([Type.Integer(), Type.Null()], { description: '出问题的记录（删除时为其后的第一条；链尾缺失时为空）' }),
  seq: Type.Union([Type.Integer(), Type.Null()], { description: '记录在链中的序号' }),
  createdAt: Type.String({ description: '该记录的时间（中国时间；无记录时为空）' }),
  reason: Type.String(),
});

export const AuditChainVerificationSchema = Type.Object({
  intact: Type.Boolean({ description: '完整：期间内的记录未被篡改、删除或插入' }),
  checked: Type.Integer({ description: '期间内校验的记录数' }),
  firstSeq: Type.Union([Type.Integer(), Type.Null()]),
  lastSeq: Type.Union([Type.Integer(), Type.Null()]),
  startHash: Type.Union([Type.String(), Type.Null()], { description: '期间第一条记录所接的前一哈希（锚点）' }),
  endHash: Type.Union([Type.String(), Type.Null()], { description: '期间最后一条记录的哈希（锚点）' }),
  problem: Type.Union([AuditChainBreakSchema, Type.Null()], { description: '第一处断裂' }),
  enterpriseId: Type.Union([Type.Integer(), Type.Null()], {
    description: '所校验的链：企业编号；null 为不属于任何企业的记录（平台账号、未匹配账号的登录尝试）',
  }),
  archivedSeq: Type.Integer({ description: '已归档并从数据库删除的最后序号（0：尚未归档）：这些记录用归档文件校验' }),
});
