/** The charts of 工作台 cover this many China dates, today included. */
export const DASHBOARD_DAYS = 14;

/** A count per China date (`yyyy-MM-dd`). */
export interface DayCount {
  date: string;
  count: number;
}

/**
 * The platform's own figures, for operators (authority tenant) only: content, enterprises and
 * registrations.
 */
export interface PlatformDashboard {
  publishedArticles: number;
  totalViews: number;
  enterprises: number;
  /** The last DASHBOARD_DAYS China dates, oldest first. */
  publishedPerDay: DayCount[];
  registrationsPerDay: DayCount[];
  mostViewed: { uuid: string; title: string; viewCount: number }[];
}

/**
 * `GET /web-api/console/v1/dashboard` (工作台): the figures of the caller's enterprise, or of
 * the whole platform for operators. No account sees another enterprise's figures; an account without
 * an enterprise sees zeros.
 */
export interface Dashboard {
  scope: 'enterprise' | 'platform';
  /** The enterprise the figures are of; '' for the platform view. */
  enterpriseName: string;
  /** Accounts (never the deleted ones) by 状态: 正常, 停用, 锁定. */
  accounts: { active: number; disabled: number; locked: number };
  /** Accounts that logged in within the last 7 and 30 days. */
  activeLast7Days: number;
  activeLast30Days: number;
  /** Logins per China date, the last DASHBOARD_DAYS, oldest first. */
  loginsPerDay: DayCount[];
  /** Identifier prefixes and records held. */
  identifiers: { prefixes: number; records: number };
  /** Lookups of those records the portal answered (its page and the Handle API) per China date, the last DASHBOARD_DAYS. */
  lookupsPerDay: DayCount[];
  /** Operators only; null for an enterprise. */
  platform: PlatformDashboard | null;
}
