import type { Static } from 'typebox';
import type { DashboardSchema, DayCountSchema, PlatformDashboardSchema } from './contracts/content.js';
/** The charts of 工作台 cover this many China dates, today included. */
export const DASHBOARD_DAYS = 14;

/** A count per China date (`yyyy-MM-dd`). */
export type DayCount = Static<typeof DayCountSchema>;

/**
 * The platform's own figures, for operators (authority tenant) only: content, enterprises and
 * registrations.
 */
export type PlatformDashboard = Static<typeof PlatformDashboardSchema>;

/**
 * `GET /web-api/console/v1/dashboard` (工作台): the figures of the caller's enterprise, or of
 * the whole platform for operators. No account sees another enterprise's figures; an account without
 * an enterprise sees zeros.
 */
export type Dashboard = Static<typeof DashboardSchema>;
