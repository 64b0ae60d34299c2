/** Article texts of spec sections 2 and 5, shared by the public article pages and the console's preview. */

/** Spec section 9: expiry threshold 365 days. */
export const EXPIRY_YEAR_DAYS = 365;

/** Spec section 2: > 365 → years and days; -1 or missing → 长期有效; otherwise the days. */
export function expiryText(expirationDay: number | null | undefined): string {
  if (expirationDay === null || expirationDay === undefined || expirationDay === -1) return '长期有效';
  if (expirationDay > EXPIRY_YEAR_DAYS) {
    const years = Math.floor(expirationDay / EXPIRY_YEAR_DAYS);
    const days = expirationDay % EXPIRY_YEAR_DAYS;
    return days ? `${years}年${days}天` : `${years}年`;
  }
  return `${expirationDay}天`;
}

/** Spec section 2: the first 10 characters of the publish time, or 未发布. */
export function publishDateText(publishTime: string | null | undefined): string {
  return publishTime ? publishTime.slice(0, 10) : '未发布';
}

/** Spec section 5: the range's start gets 00:00:00 and its end 23:59:59 (yyyy-MM-dd). */
export function dateRangeBounds(start: string, end: string): { filterStartTime: string; filterEndTime: string } {
  return { filterStartTime: `${start} 00:00:00`, filterEndTime: `${end} 23:59:59` };
}
