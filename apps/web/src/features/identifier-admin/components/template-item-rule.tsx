import { ITEM_VALUE_TYPES, ITEM_VALUE_TYPE_LABELS, type ItemValueType, MAX_VALUE_LENGTH } from '@portal/shared';
import { Form, type FormInstance, InputNumber, Select, Typography } from 'antd';
import { type TemplateFormValues, boundsProblem, lengthProblem, optionsProblem } from '../lib/template-form';

const reject = (message: string | undefined) => (message ? Promise.reject(new Error(message)) : Promise.resolve());

export const VALUE_TYPE_OPTIONS = ITEM_VALUE_TYPES.map((type) => ({ value: type, label: ITEM_VALUE_TYPE_LABELS[type] }));

/** The 值类型 select of an item row. */
export function ValueTypeField({ name, n }: { name: number; n: number }) {
  return (
    <Form.Item
      name={[name, 'valueType']}
      className="template-items__value-type"
      label={<span className="template-items__mobile-label">值类型</span>}
    >
      <Select options={VALUE_TYPE_OPTIONS} aria-label={`第 ${n} 项 值类型`} popupMatchSelectWidth={false} />
    </Form.Item>
  );
}

/**
 * The 取值 settings of an item row, by its value type: lengths of a text, bounds of a number (both
 * optional), the options of an enumeration; a date needs none (always `YYYY-MM-DD`).
 */
export function ItemRuleFields({
  form,
  name,
  index,
  valueType,
}: {
  form: FormInstance<TemplateFormValues>;
  name: number;
  index: number;
  valueType: ItemValueType | undefined;
}) {
  const n = index + 1;
  const row = () => form.getFieldValue(['items', index]) as Partial<TemplateFormValues['items'][number]> | undefined;
  const label = (text: string) => <span className="template-items__mobile-label">{text}</span>;
  switch (valueType) {
    case 'date':
      return (
        <div className="template-items__rule">
          <Typography.Text type="secondary">YYYY-MM-DD，须为有效日期</Typography.Text>
        </div>
      );
    case 'number':
      return (
        <div className="template-items__rule template-items__range">
          <Form.Item name={[name, 'min']} label={label('最小值')}>
            <InputNumber placeholder="不限" aria-label={`第 ${n} 项 最小值`} />
          </Form.Item>
          <span className="template-items__dash">–</span>
          <Form.Item
            name={[name, 'max']}
            label={label('最大值')}
            dependencies={[['items', name, 'min']]}
            rules={[{ validator: () => reject(boundsProblem(row())) }]}
          >
            <InputNumber placeholder="不限" aria-label={`第 ${n} 项 最大值`} />
          </Form.Item>
        </div>
      );
    case 'enum':
      return (
        <div className="template-items__rule">
          <Form.Item name={[name, 'options']} label={label('可选值')} rules={[{ validator: () => reject(optionsProblem(row())) }]}>
            <Select
              mode="tags"
              open={false}
              suffixIcon={null}
              tokenSeparators={[',', '，', '、']}
              placeholder="输入可选值后回车"
              aria-label={`第 ${n} 项 可选值`}
            />
          </Form.Item>
        </div>
      );
    default:
      return (
        <div className="template-items__rule template-items__range">
          <Form.Item
            name={[name, 'minLength']}
            label={label('最小长度')}
            rules={[{ validator: () => reject(lengthProblem(row(), 'minLength')) }]}
          >
            <InputNumber min={0} max={MAX_VALUE_LENGTH} precision={0} aria-label={`第 ${n} 项 最小长度`} />
          </Form.Item>
          <span className="template-items__dash">–</span>
          <Form.Item
            name={[name, 'maxLength']}
            label={label('最大长度')}
            dependencies={[['items', name, 'minLength']]}
            rules={[{ validator: () => reject(lengthProblem(row(), 'maxLength')) }]}
          >
            <InputNumber min={1} max={MAX_VALUE_LENGTH} precision={0} aria-label={`第 ${n} 项 最大长度`} />
          </Form.Item>
        </div>
      );
  }
}
