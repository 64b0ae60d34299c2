import type { Static } from 'typebox';
import type { AppSubscriptionBodySchema, AppSubscriptionRowSchema, MyAppSubscriptionSchema } from './contracts/app-subscription.js';
/**
 * 申请使用 and 应用订阅: an enterprise subscribes to an application of the application
 * center; once an operator approves, the application is in the enterprise's 应用列表 as a platform
 * application (read-only there, authorized through 应用授权 like any other).
 */

export type AppSubscriptionStatus = 'pending' | 'approved' | 'rejected' | 'revoked';
export const APP_SUBSCRIPTION_STATUS_LABELS: Record<AppSubscriptionStatus, string> = {
  pending: '待审核',
  approved: '已订阅',
  rejected: '已驳回',
  revoked: '已撤销',
};

/** What the application detail shows the signed-in user (`GET /web-api/portal/v1/applications/{uuid}/subscription`). */
export type MyAppSubscription = Static<typeof MyAppSubscriptionSchema>;

export type AppSubscriptionBody = Static<typeof AppSubscriptionBodySchema>;

/** A row of 应用订阅 (`GET /web-api/console/v1/app-subscription/page/list`), operators only. */
export type AppSubscriptionRow = Static<typeof AppSubscriptionRowSchema>;

export const SUBSCRIPTION_PURPOSE_MAX = 200;
export const SUBSCRIPTION_NOTE_MAX = 200;

/** What 申请使用, 应用订阅 and the operators' platform-application settings answer (Chinese, shown as is). */
export const SubscriptionMessage = {
  applicationNotFound: '应用不存在',
  notFound: '订阅申请不存在',
  unpublished: '应用已下架，不能申请使用',
  notOnSso: '该应用尚未接入统一身份认证，暂不能申请使用',
  noEnterprise: '您的账号不属于任何企业，不能申请使用',
  notAdministrator: '仅企业管理员可以申请使用应用',
  pending: '本企业已申请使用该应用，请等待平台审核',
  approved: '本企业已订阅该应用',
  purposeTooLong: `申请说明最多${SUBSCRIPTION_PURPOSE_MAX}个字符`,
  submitted: '申请已提交，请等待平台审核',
  rejectNoteRequired: '请填写驳回原因',
  revokeNoteRequired: '请填写撤销原因',
  noteTooLong: `原因最多${SUBSCRIPTION_NOTE_MAX}个字符`,
  alreadyDecided: '该申请已处理，请刷新后重试',
  notApproved: '只能撤销已订阅的应用',
  enterpriseNotCertified: '该企业尚未通过企业认证，不能批准',
  approvedDone: '已通过，应用已加入该企业的应用列表',
  rejectedDone: '已驳回',
  revokedDone: '已撤销订阅，该企业的应用列表中已移除此应用',
  // The operators' 推荐应用 form: a platform application's single sign-on settings.
  serviceFirst: '填写注销地址或返回属性前，请先填写服务地址',
  stillSubscribed: '该应用仍有企业订阅，请先在“应用订阅”中撤销订阅',
} as const;

/** Approving would give the enterprise two applications of one name (应用列表's names are unique per enterprise). */
export const subscriptionNameClash = (enterpriseName: string, applicationName: string) =>
  `企业「${enterpriseName}」的应用列表中已有同名应用「${applicationName}」，请该企业修改其应用名称后再批准`;

/** The central login's refusal when the account's enterprise holds no approved subscription of the platform application. */
export const notSubscribedText = (applicationName: string) =>
  `您所在的企业尚未订阅「${applicationName}」，请企业管理员在应用中心申请使用。`;

/** A platform application's service address overlapping an enterprise's application. */
export const platformServiceOverlapsEnterprise = (enterpriseName: string, applicationName: string) =>
  `服务地址与企业「${enterpriseName}」的应用「${applicationName}」重叠，不能使用`;

/** A platform application's service address overlapping another platform application's. */
export const platformServiceOverlapsPlatform = (applicationName: string) => `服务地址与平台应用「${applicationName}」重叠，不能使用`;
