import { DatePicker, Grid } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import '@/lib/dayjs';
import { useState } from 'react';

/** yyyy-MM-dd start and end (spec section 5), or none. */
export type DayRange = [string, string] | null;

const DAY = 'YYYY-MM-DD';
const PLACEHOLDERS = ['开始日期', '结束日期'] as const;

interface DateRangeFilterProps {
  value: DayRange;
  onChange: (range: DayRange) => void;
  className?: string;
}

/**
 * The lists' date-range filter (spec sections 4 and 5): two one-panel date pickers at every width.
 * antd's RangePicker opens two month panels, wider than a phone, and its start field keeps the focus
 * when Tab is pressed (a keyboard trap, WCAG 2.1.2); two plain pickers let Tab move on and render the
 * same on the server and in the browser.
 */
export function DateRangeFilter(props: DateRangeFilterProps) {
  return <DayPickerPair {...props} />;
}

/**
 * Two pickers: the range applies once both days are chosen; clearing either clears both (spec
 * section 4). Neither lets the start fall after the end.
 */
function DayPickerPair({ value, onChange, className }: DateRangeFilterProps) {
  // A phone's keyboard would cover the calendar: there the days are picked, elsewhere they may be typed.
  const typed = Grid.useBreakpoint().md !== false;
  const [start, setStart] = useState<Dayjs | null>(value ? dayjs(value[0]) : null);
  const [end, setEnd] = useState<Dayjs | null>(value ? dayjs(value[1]) : null);
  // The pickers show the applied range whenever that changes (back, forward, reset).
  const [shown, setShown] = useState(value);
  if (value?.join() !== shown?.join()) {
    setShown(value);
    setStart(value ? dayjs(value[0]) : null);
    setEnd(value ? dayjs(value[1]) : null);
  }

  const pick = (nextStart: Dayjs | null, nextEnd: Dayjs | null) => {
    setStart(nextStart);
    setEnd(nextEnd);
    if (nextStart && nextEnd) onChange([nextStart.format(DAY), nextEnd.format(DAY)]);
    else if (value) onChange(null);
  };

  return (
    <div className={`date-range-pair ${className ?? ''}`} role="group" aria-label="发布日期">
      <DatePicker
        className="date-range-pair__picker"
        format={DAY}
        value={start}
        placeholder={PLACEHOLDERS[0]}
        aria-label={PLACEHOLDERS[0]}
        inputReadOnly={!typed}
        disabledDate={(day) => end !== null && day.isAfter(end, 'day')}
        onChange={(day: Dayjs | null) => (day ? pick(day, end) : pick(null, null))}
      />
      <span className="date-range-pair__to" aria-hidden="true">
        至
      </span>
      <DatePicker
        className="date-range-pair__picker"
        format={DAY}
        value={end}
        placeholder={PLACEHOLDERS[1]}
        aria-label={PLACEHOLDERS[1]}
        inputReadOnly={!typed}
        disabledDate={(day) => start !== null && day.isBefore(start, 'day')}
        onChange={(day: Dayjs | null) => (day ? pick(start, day) : pick(null, null))}
      />
    </div>
  );
}
