import { type TemplateItem, isCalendarDate, textLength } from '@portal/shared';
import { DatePicker, Input, InputNumber, Select } from 'antd';
import dayjs from 'dayjs';

/** What a Form.Item hands its control: the value (text, as stored), its change, and the field's id and aria attributes. */
interface ControlProps {
  id?: string;
  value?: string;
  onChange?: (value: string) => void;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
  'aria-required'?: boolean;
}

/**
 * The control of a record's item by its value type: a date picker, a number box, a select
 * of the options, or a text box. The value stays the text the server stores; a stored or typed value
 * the type does not take (written before the item became a date, a day the month lacks) stays visible
 * and the form's rule names the problem.
 */
export function ItemValueInput({ item, value, onChange, ...field }: ControlProps & { item: TemplateItem }) {
  const metadata = item.metadata;
  switch (metadata.type) {
    case 'date': {
      const text = (value ?? '').trim();
      const valid = isCalendarDate(text);
      return (
        <DatePicker
          {...field}
          className="record-form__control"
          format="YYYY-MM-DD"
          value={valid ? dayjs(text) : null}
          placeholder={text && !valid ? text : 'YYYY-MM-DD'}
          onChange={(date) => onChange?.(date ? date.format('YYYY-MM-DD') : '')}
          // A typed date the calendar does not have (2024-02-30) stays in the box and becomes the
          // field's value, so the form's rule says why instead of the box quietly emptying.
          preserveInvalidOnBlur
          onBlur={(event) => {
            const typed = (event.target as HTMLInputElement).value.trim();
            if (typed && !isCalendarDate(typed) && typed !== text) onChange?.(typed);
          }}
        />
      );
    }
    case 'number':
      return (
        <InputNumber<string>
          {...field}
          className="record-form__control"
          stringMode
          controls={false}
          value={value === '' ? null : value}
          placeholder={metadata.min !== undefined || metadata.max !== undefined ? undefined : '数字，如 12 或 3.5'}
          onChange={(next) => onChange?.(next ?? '')}
        />
      );
    case 'enum':
      return (
        <Select
          {...field}
          allowClear={!item.required}
          placeholder="请选择"
          // A stored value that is no longer an option still shows, for the rule to name.
          value={value || undefined}
          options={metadata.options.map((option) => ({ value: option, label: option }))}
          onChange={(next: string | undefined) => onChange?.(next ?? '')}
        />
      );
    default:
      return (
        <Input
          {...field}
          value={value}
          onChange={(e) => onChange?.(e.target.value)}
          autoComplete="off"
          count={{ show: metadata.maxLength <= 200, max: metadata.maxLength, strategy: textLength }}
        />
      );
  }
}
