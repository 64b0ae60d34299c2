import { CRON_MAX, SYNC_TIMEZONE } from '@portal/shared';
import { Cron } from 'croner';

/**
 * A sync job's schedule: a classic five-field cron expression (minute hour day-of-month month
 * day-of-week) read in China time. Seconds fields, years and `@nicknames` are refused so what the
 * console shows is what runs.
 */
function pattern(expression: string): Cron | undefined {
  if (expression.length > CRON_MAX || expression.split(/\s+/).length !== 5) return undefined;
  try {
    return new Cron(expression, { timezone: SYNC_TIMEZONE, mode: '5-part', paused: true });
  } catch {
    return undefined;
  }
}

/** Whether `expression` (trimmed, non-empty) is a five-field cron expression croner accepts. */
export function isValidCron(expression: string): boolean {
  return pattern(expression) !== undefined;
}

/** The first start strictly after `after`, or null (no schedule, an invalid one, or none ever again). */
export function nextRunAt(expression: string, after: Date): Date | null {
  if (!expression) return null;
  return pattern(expression)?.nextRun(after) ?? null;
}
