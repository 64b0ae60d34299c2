import { CloseCircleFilled } from '@ant-design/icons';
import { useState } from 'react';
import { ANTD_SCOPE } from '@/components/antd-markup';

/** yyyy-MM-dd start and end (spec section 5), or none. */
export type DayRange = [string, string] | null;

const LABELS = ['开始日期', '结束日期'] as const;
/**
 * A day as the field holds it once its year is typed in full: while a year is being typed the field
 * already holds a day of year 0002, 0020, 0202, which is not yet the visitor's.
 */
const WHOLE_DAY = /^[1-9]\d{3}-\d{2}-\d{2}$/;

interface DateRangeFilterProps {
  value: DayRange;
  onChange: (range: DayRange) => void;
  className?: string;
}

/**
 * The lists' date-range filter (spec sections 4 and 5): two native day fields in antd's picker frame.
 * The browser's own calendar opens one month, inside the screen on a phone, and is read out by screen
 * readers; Tab moves on from each field (no keyboard trap). The range applies once both days are
 * chosen; emptying either field, or 清除, clears both (spec section 4). Neither lets the start fall
 * after the end: each field's bounds are the other's day, and a range the wrong way round is not applied.
 */
export function DateRangeFilter({ value, onChange, className }: DateRangeFilterProps) {
  const [start, setStart] = useState(value?.[0] ?? '');
  const [end, setEnd] = useState(value?.[1] ?? '');
  // The fields show the applied range whenever that changes (back, forward, reset).
  const [shown, setShown] = useState(value);
  if (value?.join() !== shown?.join()) {
    setShown(value);
    setStart(value?.[0] ?? '');
    setEnd(value?.[1] ?? '');
  }
  const reversed = start !== '' && end !== '' && start > end;

  const clear = () => {
    setStart('');
    setEnd('');
    if (value) onChange(null);
  };
  const pick = (nextStart: string, nextEnd: string) => {
    // Emptying a field that held a day empties both (spec section 4).
    if ((nextStart === '' && start !== '') || (nextEnd === '' && end !== '')) return clear();
    setStart(nextStart);
    setEnd(nextEnd);
    const whole = WHOLE_DAY.test(nextStart) && WHOLE_DAY.test(nextEnd);
    if (whole && nextStart <= nextEnd && (nextStart !== value?.[0] || nextEnd !== value?.[1])) onChange([nextStart, nextEnd]);
  };

  const field = (which: 0 | 1) => {
    const day = which === 0 ? start : end;
    return (
      <span
        className={`ant-picker ant-picker-outlined date-range-pair__picker ${ANTD_SCOPE} ant-picker-css-var${reversed ? ' ant-picker-status-error' : ''}`}
      >
        <span className="ant-picker-input">
          {/* An empty field says what it is for, as antd's placeholder did (a phone's empty day field shows nothing). */}
          {day === '' && (
            <span className="date-range-pair__placeholder" aria-hidden="true">
              {LABELS[which]}
            </span>
          )}
          <input
            type="date"
            aria-label={LABELS[which]}
            aria-invalid={reversed}
            data-empty={day === '' ? '' : undefined}
            value={day}
            {...(which === 0 ? { max: end || undefined } : { min: start || undefined })}
            onChange={(e) => (which === 0 ? pick(e.target.value, end) : pick(start, e.target.value))}
          />
        </span>
      </span>
    );
  };

  return (
    <div className={`date-range-pair ${ANTD_SCOPE} ${className ?? ''}`} role="group" aria-label="发布日期">
      {field(0)}
      <span className="date-range-pair__to" aria-hidden="true">
        至
      </span>
      {field(1)}
      {(start !== '' || end !== '') && (
        <button type="button" className="date-range-pair__clear" aria-label="清除" title="清除" onClick={clear}>
          <CloseCircleFilled />
        </button>
      )}
    </div>
  );
}
