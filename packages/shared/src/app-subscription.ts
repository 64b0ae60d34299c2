/**
 * 申请使用 and 应用订阅 (issue 20): an enterprise subscribes to an application of the application
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
export interface MyAppSubscription {
  /** The enterprise's latest subscription to the application; 'none' when it never applied. */
  status: AppSubscriptionStatus | 'none';
  /** The operator's note of a rejection or revocation. */
  decisionNote: string;
  /** When the latest subscription was requested (`yyyy-MM-dd HH:mm:ss`); '' for 'none'. */
  createdAt: string;
  /** When an operator approved, rejected or revoked it; '' while pending or for 'none'. */
  decidedAt: string;
  /** Whether this user may 申请使用 now; when not, `blockedReason` says why (未认证, 非管理员…). */
  canApply: boolean;
  blockedReason: string;
}

export interface AppSubscriptionBody {
  /** 申请说明. */
  purpose: string;
}

/** A row of 应用订阅 (`GET /web-api/console/v1/app-subscription/page/list`), operators only. */
export interface AppSubscriptionRow {
  id: number;
  enterpriseId: number;
  enterpriseName: string;
  applicationUuid: string;
  applicationName: string;
  status: AppSubscriptionStatus;
  purpose: string;
  decisionNote: string;
  applicantName: string;
  applicantUsername: string;
  createdAt: string;
  decidedAt: string;
}

export const SUBSCRIPTION_PURPOSE_MAX = 200;
export const SUBSCRIPTION_NOTE_MAX = 200;
