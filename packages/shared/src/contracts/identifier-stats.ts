import { Type } from 'typebox';
import { LABEL_LAYOUTS, LABEL_SIZES, STATS_EXPORT_TABLES, STATS_RANGES } from '../identifier-stats.js';
import { MAX_HANDLE_LENGTH } from '../identifiers.js';
import { literals } from './envelope.js';

/** The bodies of 标识统计 and the QR labels of 标识记录: the source of the types in identifier-stats.ts. */

const Count = Type.Integer({ minimum: 0 });

/** `GET /web-api/identity/v1/stats` query. */
export const IdentifierStatsQuerySchema = Type.Object({
  days: literals(STATS_RANGES, { description: '统计范围：最近 7、30 或 90 天（中国日期，含今天）' }),
  prefix: Type.Optional(Type.String({ maxLength: 128, description: '只统计这一个前缀（须在可查看的范围内）；不填为全部' })),
});
/** `GET /web-api/identity/v1/stats/export` query: the statistics' query and the table to export. */
export const IdentifierStatsExportQuerySchema = Type.Object({
  ...IdentifierStatsQuerySchema.properties,
  table: literals(STATS_EXPORT_TABLES),
});

export const IdentifierStatsDaySchema = Type.Object({ day: Type.String(), web: Count, qr: Count, api: Count, upstream: Count });
export const IdentifierStatsSchema = Type.Object({
  scope: literals(['owner', 'node'] as const),
  from: Type.String(),
  to: Type.String(),
  prefixes: Type.Array(Type.String(), { description: '可查看的前缀，供筛选' }),
  totals: Type.Object({
    lookups: Count,
    found: Count,
    notFound: Count,
    malformed: Count,
    notFoundRate: Type.Number({ minimum: 0, maximum: 1, description: '（未找到 + 格式错误）/ 查询次数' }),
  }),
  daily: Type.Array(IdentifierStatsDaySchema, {
    description: '每天各渠道的查询次数，范围内每一天都在（旧的在前）',
  }),
  regions: Type.Array(Type.Object({ region: Type.String(), lookups: Count }), {
    description: '各省份（及内网、未知）的查询次数，多的在前',
  }),
  topHandles: Type.Array(Type.Object({ handle: Type.String(), lookups: Count })),
  topValues: Type.Array(Type.Object({ item: Type.String(), value: Type.String(), lookups: Count })),
  topMissing: Type.Array(Type.Object({ handle: Type.String(), outcome: literals(['not_found', 'malformed'] as const), lookups: Count })),
});

/** `POST /web-api/identity/v1/record/labels`: the records (by id, or the list's filters), the label and its fields. */
export const LabelRequestSchema = Type.Object({
  ids: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }))),
  prefix: Type.Optional(Type.String({ maxLength: 64 })),
  templateId: Type.Optional(Type.Integer({ minimum: 1 })),
  searchKey: Type.Optional(Type.String({ maxLength: MAX_HANDLE_LENGTH })),
  size: literals(LABEL_SIZES),
  layout: literals(LABEL_LAYOUTS),
  fields: Type.Array(Type.String({ maxLength: 64 })),
  cutGuides: Type.Optional(Type.Boolean()),
});
