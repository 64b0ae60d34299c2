import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { dateTimeRangeFilters, dayBoundsOpenValue, dayRangeFilters } from '../date-range';

describe('date range filters (spec sections 4, 5 and 9)', () => {
  const start = dayjs('2026-05-01 08:30:15');
  const end = dayjs('2026-05-07 17:45:00');

  it('a date-only range covers whole days: 00:00:00 to 23:59:59', () => {
    expect(dayRangeFilters([start, end])).toEqual({ filterStartTime: '2026-05-01 00:00:00', filterEndTime: '2026-05-07 23:59:59' });
  });

  it('a range with times keeps the picked seconds', () => {
    expect(dateTimeRangeFilters([start, end])).toEqual({ filterStartTime: '2026-05-01 08:30:15', filterEndTime: '2026-05-07 17:45:00' });
  });

  it('a cleared or half range sends neither bound', () => {
    expect(dayRangeFilters(null)).toEqual({});
    expect(dayRangeFilters([start, null])).toEqual({});
    expect(dateTimeRangeFilters(undefined)).toEqual({});
    expect(dateTimeRangeFilters([null, end])).toEqual({});
  });

  it('a picker with time opens at the start and the end of the day', () => {
    const [open, close] = dayBoundsOpenValue(dayjs('2026-05-03 12:00:00'));
    expect(open.format('HH:mm:ss')).toBe('00:00:00');
    expect(close.format('HH:mm:ss')).toBe('23:59:59');
  });
});
