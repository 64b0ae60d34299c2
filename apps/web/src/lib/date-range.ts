import type { Dayjs } from 'dayjs';
import { dateRangeBounds } from './article-text';

/** What a RangePicker holds: both bounds, or nothing once cleared (spec section 4: both reset). */
export type PickedRange = readonly [Dayjs | null, Dayjs | null] | null | undefined;

export interface TimeFilters {
  filterStartTime?: string;
  filterEndTime?: string;
}

const DATE = 'YYYY-MM-DD';
const DATE_TIME = 'YYYY-MM-DD HH:mm:ss';

/** A date-only range as whole days: start 00:00:00, end 23:59:59 (spec sections 5 and 9). */
export function dayRangeFilters(range: PickedRange): TimeFilters {
  const [start, end] = range ?? [null, null];
  if (!start || !end) return {};
  return dateRangeBounds(start.format(DATE), end.format(DATE));
}

/** A range picked with times, to the second (yyyy-MM-dd HH:mm:ss). */
export function dateTimeRangeFilters(range: PickedRange): TimeFilters {
  const [start, end] = range ?? [null, null];
  if (!start || !end) return {};
  return { filterStartTime: start.format(DATE_TIME), filterEndTime: end.format(DATE_TIME) };
}

/** Times a RangePicker with time opens at: a picked day runs from 00:00:00 to 23:59:59. */
export function dayBoundsOpenValue(today: Dayjs): [Dayjs, Dayjs] {
  return [today.startOf('day'), today.endOf('day')];
}
