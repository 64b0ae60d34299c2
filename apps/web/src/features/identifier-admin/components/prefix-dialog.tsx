import { type IdentifierPrefix, REGISTERED_PREFIX, REGISTERED_PREFIX_MESSAGE } from '@portal/shared';
import { Alert, Form, Input, Modal, Select } from 'antd';
import { notify } from '@/lib/notify';
import { useCreatePrefix, useEnterprises, useUpdatePrefix } from '../api/prefixes';

interface PrefixFormValues {
  prefix: string;
  name: string;
  enterpriseId?: number;
}

export const PrefixFormMessage = {
  prefixRequired: '请输入标识前缀',
  nameRequired: '请输入前缀名称',
  nameTooLong: '前缀名称不能超过 100 个字符',
  enterpriseRequired: '请选择所属企业',
} as const;

/** The server assigns prefixes only to certified enterprises. */
const UNCERTIFIED_MARK = '未认证';

/**
 * Operators assign a prefix (obtained by the enterprise from the national top-level node) to an
 * enterprise, rename it or move it to another enterprise with its templates and records. Only a
 * certified enterprise can receive one; an existing prefix may stay with its enterprise regardless.
 */
export function PrefixDialog({ editing, onClose }: { editing: IdentifierPrefix | 'new' | null; onClose(): void }) {
  const [form] = Form.useForm<PrefixFormValues>();
  const enterprises = useEnterprises(editing !== null);
  const create = useCreatePrefix();
  const update = useUpdatePrefix();
  const existing = editing !== null && editing !== 'new' ? editing : null;
  const enterpriseId = Form.useWatch('enterpriseId', form);
  const error = (existing ? update.error : create.error)?.message;

  const submit = async () => {
    let values: PrefixFormValues;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    const enterprise = values.enterpriseId ?? 0;
    try {
      const msg = existing
        ? await update.mutateAsync({ prefix: existing.prefix, input: { name: values.name.trim(), enterpriseId: enterprise } })
        : await create.mutateAsync({ prefix: values.prefix.trim(), name: values.name.trim(), enterpriseId: enterprise });
      notify.success(msg);
      onClose();
    } catch {
      // The server's reason shows in the dialog (and as the API client's toast); the dialog stays open.
    }
  };

  return (
    <Modal
      title={existing ? `编辑标识前缀 ${existing.prefix}` : '分配标识前缀'}
      open={editing !== null}
      onCancel={onClose}
      onOk={() => void submit()}
      okText="保存"
      cancelText="取消"
      confirmLoading={create.isPending || update.isPending}
      width={{ xs: '100%', sm: 520 }}
      destroyOnHidden
      afterClose={() => {
        create.reset();
        update.reset();
      }}
      mask={{ closable: false }}
    >
      <Form
        form={form}
        layout="vertical"
        clearOnDestroy
        initialValues={
          existing ? { prefix: existing.prefix, name: existing.name, enterpriseId: existing.enterpriseId } : { prefix: '', name: '' }
        }
      >
        {error && <Alert type="error" showIcon title={error} className="identifier-admin__form-error" />}
        <Form.Item
          name="prefix"
          label="标识前缀"
          extra={existing ? '前缀分配后不能修改' : '企业在国家顶级节点申请到的前缀，如 88.118.8'}
          rules={[
            { required: true, whitespace: true, message: PrefixFormMessage.prefixRequired },
            { pattern: REGISTERED_PREFIX, message: REGISTERED_PREFIX_MESSAGE, transform: (v: string) => v.trim() },
          ]}
        >
          <Input placeholder="如 88.118.8" maxLength={64} disabled={Boolean(existing)} />
        </Form.Item>
        <Form.Item
          name="name"
          label="前缀名称"
          rules={[
            { required: true, whitespace: true, message: PrefixFormMessage.nameRequired },
            { max: 100, message: PrefixFormMessage.nameTooLong },
          ]}
        >
          <Input placeholder="如：恒岳重工工程机械产品标识" maxLength={100} />
        </Form.Item>
        <Form.Item
          name="enterpriseId"
          label="所属企业"
          extra="只能分配给已通过企业认证的企业"
          rules={[{ required: true, message: PrefixFormMessage.enterpriseRequired }]}
        >
          <Select
            showSearch={{ optionFilterProp: 'label' }}
            placeholder="选择企业"
            loading={enterprises.isPending}
            options={(enterprises.data ?? []).map((e) => {
              const certified = e.certificationStatus === 'certified';
              return {
                value: e.id,
                label: certified ? e.name : `${e.name}（${UNCERTIFIED_MARK}）`,
                disabled: !certified && e.id !== existing?.enterpriseId,
              };
            })}
          />
        </Form.Item>
        {existing && enterpriseId !== undefined && enterpriseId !== existing.enterpriseId && (
          <Alert
            type="warning"
            showIcon
            title={`更换所属企业后，该前缀下的 ${existing.templateCount} 个模板和 ${existing.recordCount} 个标识随之归属新企业，原企业不再能管理它们。`}
          />
        )}
      </Form>
    </Modal>
  );
}
