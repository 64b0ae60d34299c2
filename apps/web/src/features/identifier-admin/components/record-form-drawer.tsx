import { type IdentifierPrefix, type IdentifierRecord, type IdentifierTemplate, checkNewSuffix } from '@portal/shared';
import { Alert, Button, Descriptions, Drawer, Form, Input, type InputProps, Select, Space, Typography } from 'antd';
import { notify } from '@/lib/notify';
import { useCreateRecord, useUpdateRecord } from '../api/records';
import { scrollToFirstError } from '../lib/form-errors';
import { ItemValueInput } from './item-value-input';
import {
  type RecordFormValues,
  activeItems,
  droppedValueNames,
  initialRecordForm,
  itemHint,
  itemValueProblem,
  recordValues,
} from '../lib/record-form';

export interface RecordFormTarget {
  /** The record to edit; a new one when absent. */
  record?: IdentifierRecord;
  /** Preselected for a new record (the list's filters). */
  prefix?: string;
  templateId?: number;
}

/**
 * The suffix box behind its prefix. One form control (not an input nested in a field), so the label,
 * the error and the hint reach the input for a screen reader.
 */
function SuffixInput({ handlePrefix, ...input }: InputProps & { handlePrefix: string | undefined }) {
  return (
    <Space.Compact block>
      {handlePrefix && <Space.Addon>{handlePrefix}/</Space.Addon>}
      <Input {...input} placeholder="如 EX-2024-000123" autoComplete="off" />
    </Space.Compact>
  );
}

const reject = (message: string | undefined) => (message ? Promise.reject(new Error(message)) : Promise.resolve());

export const RecordFormMessage = {
  prefixRequired: '请选择标识前缀',
  templateRequired: '请选择模板',
} as const;

/** `88.118.8 恒岳重工…` (and the enterprise for operators, who see every one). */
export const prefixLabel = (p: IdentifierPrefix, withEnterprise: boolean) =>
  withEnterprise ? `${p.prefix} ${p.name}（${p.enterpriseName}）` : `${p.prefix} ${p.name}`;

/**
 * Registers or edits an identifier: prefix, template and suffix, then one field per item of the
 * template's latest version, a control by the item's value type (required items and each value checked
 * here with the server's own words; the
 * server checks again and its refusal shows at the top).
 */
export function RecordFormDrawer({
  target,
  prefixes,
  templates,
  allEnterprises,
  onClose,
}: {
  target: RecordFormTarget | null;
  prefixes: IdentifierPrefix[];
  templates: IdentifierTemplate[];
  allEnterprises: boolean;
  onClose(): void;
}) {
  const [form] = Form.useForm<RecordFormValues>();
  const create = useCreateRecord();
  const update = useUpdateRecord();
  const record = target?.record;
  const prefix = (Form.useWatch('prefix', form) as string | undefined) ?? record?.prefix;
  const templateId = Form.useWatch('templateId', form) as number | undefined;
  const prefixTemplates = templates.filter((t) => t.prefix === prefix);
  const template = templates.find((t) => t.id === templateId);
  const error = (record ? update.error : create.error)?.message;
  const open = target !== null;
  // Read when the form mounts, each time the drawer opens (it is destroyed when hidden).
  const initialValues = target ? initialRecordForm(target, prefixes, templates) : undefined;

  const submit = async () => {
    let values: RecordFormValues;
    try {
      values = await form.validateFields();
    } catch (err) {
      scrollToFirstError(form, err);
      return;
    }
    if (!template) return;
    const itemValues = recordValues(template, values.values ?? {});
    try {
      const result = record
        ? await update.mutateAsync({ id: record.id, input: { templateId: template.id, values: itemValues } })
        : await create.mutateAsync({
            prefix: values.prefix ?? '',
            suffix: (values.suffix ?? '').trim(),
            templateId: template.id,
            values: itemValues,
          });
      notify.success(result.msg);
      onClose();
    } catch {
      // The server's reason shows at the top of the form (and as the API client's toast).
    }
  };

  const dropped = record && template ? droppedValueNames(record, template) : [];

  return (
    <Drawer
      title={record ? `编辑标识 ${record.handle}` : '新建标识'}
      open={open}
      size="min(760px, 100vw)"
      onClose={onClose}
      destroyOnHidden
      mask={{ closable: false }}
      afterOpenChange={(visible) => {
        if (!visible) {
          create.reset();
          update.reset();
        }
      }}
      footer={
        <div className="identifier-admin__drawer-footer">
          <Button onClick={onClose}>取消</Button>
          <Button type="primary" loading={create.isPending || update.isPending} disabled={!template} onClick={() => void submit()}>
            保存
          </Button>
        </div>
      }
    >
      <Form form={form} layout="vertical" clearOnDestroy className="record-form" initialValues={initialValues}>
        {error && <Alert type="error" showIcon title={error} className="identifier-admin__form-error" />}
        {record ? (
          <Descriptions
            size="small"
            column={1}
            className="record-form__facts"
            items={[
              { key: 'handle', label: '标识', children: <Typography.Text copyable>{record.handle}</Typography.Text> },
              { key: 'written', label: '写入版本', children: `${record.templateName} v${record.templateVersion}` },
              { key: 'updated', label: '更新时间', children: record.updatedAt },
            ]}
          />
        ) : (
          <Form.Item name="prefix" label="标识前缀" rules={[{ required: true, message: RecordFormMessage.prefixRequired }]}>
            <Select
              placeholder="选择标识前缀"
              options={prefixes.map((p) => ({ value: p.prefix, label: prefixLabel(p, allEnterprises) }))}
              onChange={(next: string) => {
                const first = templates.find((t) => t.prefix === next);
                form.setFieldValue('templateId', first?.id);
              }}
            />
          </Form.Item>
        )}
        <Form.Item
          name="templateId"
          label="模板"
          rules={[{ required: true, message: RecordFormMessage.templateRequired }]}
          extra={prefix && prefixTemplates.length === 0 ? '该前缀下还没有模板，请先在“前缀与模板”中创建' : undefined}
        >
          <Select
            placeholder="选择模板"
            aria-label="模板"
            options={prefixTemplates.map((t) => ({ value: t.id, label: `${t.name}（v${t.version}）` }))}
            notFoundContent="该前缀下还没有模板"
          />
        </Form.Item>
        {!record && (
          <Form.Item
            label="标识后缀"
            name="suffix"
            required
            extra="字母、数字和 - _ . : / ( )，以字母或数字开头，如 EX-2024-000123"
            rules={[{ validator: (_, value: string | undefined) => reject(checkNewSuffix((value ?? '').trim())) }]}
          >
            <SuffixInput handlePrefix={prefix} />
          </Form.Item>
        )}
        {record && template && record.templateVersion !== template.version && record.templateId === template.id && (
          <Alert
            type="info"
            showIcon
            className="record-form__notice"
            title={`该标识按 v${record.templateVersion} 写入，保存后按当前版本 v${template.version} 校验并升级。`}
          />
        )}
        {dropped.length > 0 && (
          <Alert
            type="warning"
            showIcon
            className="record-form__notice"
            title={`所选模板中没有或已停用这些数据项，保存后不再保留：${dropped.join('、')}`}
          />
        )}
        {template && (
          <fieldset className="record-form__items">
            <legend>
              数据项（{template.name} v{template.version}）
            </legend>
            <div className="record-form__grid">
              {activeItems(template).map((item) => (
                <Form.Item
                  key={`${template.id}-${item.idType}`}
                  className={item.metadata.type === 'string' && item.metadata.maxLength > 64 ? 'record-form__item--wide' : undefined}
                  name={['values', item.idType]}
                  label={item.name}
                  required={item.required}
                  extra={itemHint(item)}
                  rules={[{ validator: (_, value: string | undefined) => reject(itemValueProblem(item, value)) }]}
                >
                  <ItemValueInput item={item} />
                </Form.Item>
              ))}
            </div>
          </fieldset>
        )}
      </Form>
    </Drawer>
  );
}
