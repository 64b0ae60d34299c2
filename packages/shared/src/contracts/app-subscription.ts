import { Type } from 'typebox';
import {
  APP_SUBSCRIPTION_STATUS_LABELS,
  type AppSubscriptionStatus,
  SUBSCRIPTION_NOTE_MAX,
  SUBSCRIPTION_PURPOSE_MAX,
} from '../app-subscription.js';
import { literals } from './envelope.js';

/** The bodies of 申请使用 (应用中心) and 应用订阅 (operators): the source of the types in app-subscription.ts. */

const STATUSES = Object.keys(APP_SUBSCRIPTION_STATUS_LABELS) as AppSubscriptionStatus[];
export const AppSubscriptionStatusSchema = literals(STATUSES);
const statusDescription = STATUSES.map((s) => `${s} ${APP_SUBSCRIPTION_STATUS_LABELS[s]}`).join('，');

export const MyAppSubscriptionSchema = Type.Object({
  status: Type.Union([AppSubscriptionStatusSchema, Type.Literal('none')], {
    description: `本企业最近一次申请的状态：${statusDescription}，none 未申请`,
  }),
  decisionNote: Type.String({ description: '驳回或撤销的原因' }),
  createdAt: Type.String({ description: '最近一次申请的时间 yyyy-MM-dd HH:mm:ss（未申请为空）' }),
  decidedAt: Type.String({ description: '处理时间（待审核或未申请为空）' }),
  canApply: Type.Boolean({ description: '当前账号现在能否申请使用' }),
  blockedReason: Type.String({ description: '不能申请的原因（canApply 为 false 时）' }),
});

export const AppSubscriptionRowSchema = Type.Object({
  id: Type.Integer(),
  enterpriseId: Type.Integer(),
  enterpriseName: Type.String(),
  applicationUuid: Type.String(),
  applicationName: Type.String(),
  status: AppSubscriptionStatusSchema,
  purpose: Type.String({ description: '申请说明' }),
  decisionNote: Type.String({ description: '驳回或撤销的原因' }),
  applicantName: Type.String(),
  applicantUsername: Type.String(),
  createdAt: Type.String(),
  decidedAt: Type.String({ description: '处理时间；待审核为空' }),
});

export const AppSubscriptionUuidParamsSchema = Type.Object({ uuid: Type.String({ minLength: 1, maxLength: 64 }) });
export const AppSubscriptionBodySchema = Type.Object({
  purpose: Type.String({ maxLength: SUBSCRIPTION_PURPOSE_MAX * 5, description: '申请说明（可空）' }),
});
/** Body of 驳回 and 撤销: the reason. */
export const AppSubscriptionNoteBodySchema = Type.Object({ note: Type.String({ maxLength: SUBSCRIPTION_NOTE_MAX * 5 }) });
/** `GET /web-api/console/v1/app-subscription/page/list` query. */
export const AppSubscriptionQuerySchema = Type.Object({
  status: Type.Optional(Type.Union([AppSubscriptionStatusSchema, Type.Literal('')])),
  keyword: Type.Optional(Type.String({ maxLength: 64 })),
  offset: Type.Integer({ minimum: 0, default: 0 }),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
});
