import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { type IdentifierPrefix, type IdentifierTemplate, MAX_TEMPLATE_ITEMS } from '@portal/shared';
import { Alert, Button, Checkbox, Drawer, Form, Input, Switch, Tag, Tooltip, Typography } from 'antd';
import { useMemo } from 'react';
import { notify } from '@/lib/notify';
import { useCreateTemplate, useTemplateVersions, useUpdateTemplate } from '../api/templates';
import { scrollToFirstError } from '../lib/form-errors';
import { ItemRuleFields, ValueTypeField } from './template-item-rule';
import {
  EMPTY_TEMPLATE_FORM,
  type ItemRow,
  MAX_TEMPLATE_NAME,
  NEW_ITEM_ROW,
  TemplateFormMessage,
  type TemplateFormValues,
  idTypeProblem,
  itemNameProblem,
  previewIndexes,
  toTemplateForm,
  toTemplateItems,
} from '../lib/template-form';

export interface TemplateFormTarget {
  prefix: IdentifierPrefix;
  /** The template to edit; a new one when absent. */
  template?: IdentifierTemplate;
}

const reject = (message: string | undefined) => (message ? Promise.reject(new Error(message)) : Promise.resolve());

/**
 * Creates or edits a metadata template: its name and items (name, idType, value type and its rule,
 * required, 计入统计, in use).
 * Items keep their Handle index; new ones get the next free index from 2000 when saved (shown ahead).
 * Saving an edit makes a new version; records keep the version they were written with.
 */
export function TemplateFormDrawer({ target, onClose }: { target: TemplateFormTarget | null; onClose(): void }) {
  const [form] = Form.useForm<TemplateFormValues>();
  const template = target?.template;
  const versions = useTemplateVersions(template?.id);
  const create = useCreateTemplate();
  const update = useUpdateTemplate();
  // `preserve`: the rows' idIndex has no field of its own, and it tells existing items from new ones.
  const initial = template ? toTemplateForm(template) : EMPTY_TEMPLATE_FORM;
  // Until the form has mounted the watch is empty: the initial rows stand in, so existing items never flash as new.
  const rows = (Form.useWatch('items', { form, preserve: true }) ?? initial.items) as Partial<ItemRow>[];
  // Indexes of every earlier version: an idType that comes back gets its old index, new ones go after all.
  const earlier = useMemo(() => (versions.data ?? []).flatMap((v) => v.items).concat(template?.items ?? []), [versions.data, template]);
  const indexes = previewIndexes(rows, earlier);
  const error = (template ? update.error : create.error)?.message;

  const submit = async () => {
    try {
      await form.validateFields();
    } catch (err) {
      scrollToFirstError(form, err);
      return;
    }
    // Every value of the store, with the indexes of existing items (they have no field).
    const values = form.getFieldsValue(true) as TemplateFormValues;
    const items = toTemplateItems(values.items);
    try {
      const result = template
        ? await update.mutateAsync({ id: template.id, input: { name: values.name.trim(), items } })
        : await create.mutateAsync({ prefix: target?.prefix.prefix ?? '', name: values.name.trim(), items });
      notify.success(result.msg);
      onClose();
    } catch {
      // The server's reason shows at the top of the form (and as the API client's toast).
    }
  };

  return (
    <Drawer
      title={
        <span className="template-form__title">
          {template ? `编辑模板「${template.name}」` : '新建模板'}
          {template && <Tag color="blue">当前版本 v{template.version}</Tag>}
        </span>
      }
      open={target !== null}
      size="min(1080px, 100vw)"
      onClose={onClose}
      destroyOnHidden
      mask={{ closable: false }}
      afterOpenChange={(open) => {
        if (!open) {
          create.reset();
          update.reset();
        }
      }}
      footer={
        <div className="identifier-admin__drawer-footer">
          <Button onClick={onClose}>取消</Button>
          <Button type="primary" loading={create.isPending || update.isPending} onClick={() => void submit()}>
            {template ? '保存为新版本' : '创建模板'}
          </Button>
        </div>
      }
    >
      <Form form={form} layout="vertical" initialValues={initial} clearOnDestroy>
        {error && <Alert type="error" showIcon title={error} className="identifier-admin__form-error" />}
        <div className="template-form__head">
          <Form.Item
            name="name"
            label="模板名称"
            className="template-form__name"
            rules={[
              { required: true, whitespace: true, message: TemplateFormMessage.nameRequired },
              { max: MAX_TEMPLATE_NAME, message: TemplateFormMessage.nameTooLong },
            ]}
          >
            <Input placeholder="如：工程机械整机" maxLength={MAX_TEMPLATE_NAME} />
          </Form.Item>
          <Form.Item label="标识前缀">
            <Typography.Text>
              {target?.prefix.prefix} {target?.prefix.name}
            </Typography.Text>
          </Form.Item>
        </div>
        {template && (
          <Alert
            type="info"
            showIcon
            className="template-form__notice"
            title={`保存后成为版本 v${template.version + 1}：已有的 ${template.recordCount} 个标识仍按写入时的版本显示，编辑时升级到新版本，也可在模板列表中“批量迁移”。已有数据项的类型标识是标识数据的键，不能修改；不再使用的数据项请停用，而不是删除。`}
          />
        )}
        <Form.List
          name="items"
          rules={[
            {
              validator: (_, items: unknown[] | undefined) =>
                reject(
                  !items?.length
                    ? TemplateFormMessage.noItems
                    : items.length > MAX_TEMPLATE_ITEMS
                      ? TemplateFormMessage.tooManyItems
                      : undefined,
                ),
            },
          ]}
        >
          {(fields, { add, remove, move }, { errors }) => (
            <div className="template-items" role="group" aria-label="数据项">
              <div className="template-items__row template-items__row--head" aria-hidden>
                <span>索引</span>
                <span>名称</span>
                <span>类型标识</span>
                <span>值类型</span>
                <span>取值</span>
                <span>必填</span>
                <Tooltip title="标识统计按此数据项的取值统计查询次数，如产品型号">
                  <span>计入统计</span>
                </Tooltip>
                <span>在用</span>
                <span>操作</span>
              </div>
              {fields.map((field, i) => {
                const row = rows[i];
                const isNew = row?.idIndex === undefined;
                const n = i + 1;
                return (
                  <div key={field.key} className="template-items__row" role="group" aria-label={`第 ${n} 项`}>
                    <span className="template-items__index">
                      <span className="template-items__mobile-label">索引</span>
                      {isNew ? (
                        <Tooltip title="新数据项的索引在保存时分配">
                          <Typography.Text type="secondary">{indexes[i]}</Typography.Text> <Tag color="green">新</Tag>
                        </Tooltip>
                      ) : (
                        <Typography.Text>{indexes[i]}</Typography.Text>
                      )}
                    </span>
                    <Form.Item
                      name={[field.name, 'name']}
                      className="template-items__name"
                      label={<span className="template-items__mobile-label">名称</span>}
                      validateFirst
                      rules={[{ validator: () => reject(itemNameProblem(form.getFieldValue('items') ?? [], i)) }]}
                    >
                      <Input placeholder="如：产品名称" aria-label={`第 ${n} 项 名称`} />
                    </Form.Item>
                    <Form.Item
                      name={[field.name, 'idType']}
                      className="template-items__type"
                      label={<span className="template-items__mobile-label">类型标识</span>}
                      rules={[{ validator: () => reject(idTypeProblem(form.getFieldValue('items') ?? [], i)) }]}
                    >
                      <Input placeholder="如：productName" aria-label={`第 ${n} 项 类型标识`} disabled={!isNew} />
                    </Form.Item>
                    <ValueTypeField name={field.name} n={n} />
                    <ItemRuleFields form={form} name={field.name} index={i} valueType={row?.valueType} />
                    <Form.Item
                      name={[field.name, 'required']}
                      valuePropName="checked"
                      className="template-items__check template-items__required"
                    >
                      <Checkbox aria-label={`第 ${n} 项 必填`}>
                        <span className="template-items__mobile-label">必填</span>
                      </Checkbox>
                    </Form.Item>
                    <Form.Item
                      name={[field.name, 'analytics']}
                      valuePropName="checked"
                      className="template-items__check template-items__analytics"
                    >
                      <Checkbox aria-label={`第 ${n} 项 计入统计`}>
                        <span className="template-items__mobile-label">计入统计</span>
                      </Checkbox>
                    </Form.Item>
                    <Form.Item
                      name={[field.name, 'active']}
                      valuePropName="checked"
                      className="template-items__check template-items__active"
                    >
                      <Switch size="small" checkedChildren="在用" unCheckedChildren="停用" aria-label={`第 ${n} 项 在用`} />
                    </Form.Item>
                    <span className="template-items__actions">
                      <Button
                        type="text"
                        size="small"
                        icon={<ArrowUpOutlined />}
                        aria-label={`第 ${n} 项 上移`}
                        disabled={i === 0}
                        onClick={() => move(i, i - 1)}
                      />
                      <Button
                        type="text"
                        size="small"
                        icon={<ArrowDownOutlined />}
                        aria-label={`第 ${n} 项 下移`}
                        disabled={i === fields.length - 1}
                        onClick={() => move(i, i + 1)}
                      />
                      <Tooltip title={isNew ? undefined : '已发布的数据项建议停用而不是删除'}>
                        <Button
                          type="text"
                          size="small"
                          danger
                          icon={<DeleteOutlined />}
                          aria-label={`第 ${n} 项 删除`}
                          onClick={() => remove(field.name)}
                        />
                      </Tooltip>
                    </span>
                  </div>
                );
              })}
              <Form.ErrorList errors={errors} />
              <Button
                type="dashed"
                block
                icon={<PlusOutlined />}
                disabled={fields.length >= MAX_TEMPLATE_ITEMS}
                onClick={() => add({ ...NEW_ITEM_ROW })}
                className="template-items__add"
              >
                添加数据项
              </Button>
            </div>
          )}
        </Form.List>
      </Form>
    </Drawer>
  );
}
