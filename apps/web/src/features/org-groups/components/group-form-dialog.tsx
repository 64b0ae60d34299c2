import { type AccountGroupBody, type AccountGroupRow, DESCRIPTION_MAX, NAME_MAX, TenantRules } from '@portal/shared';
import { Alert, Form, Input, Modal, Select } from 'antd';
import { tenantRule } from '@/lib/form-rules';
import { notify } from '@/lib/notify';
import { useCreateGroup, useUpdateGroup } from '../api/groups';
import { useOrgOptions } from '@/api/get-org-options';

interface GroupFormValues {
  name: string;
  description: string;
  roleIds: number[];
}

/** 新建 or 编辑 an account group: its name, description and the roles its members hold through it. */
export function GroupFormDialog({ editing, onClose }: { editing: AccountGroupRow | 'new' | null; onClose(): void }) {
  const [form] = Form.useForm<GroupFormValues>();
  const options = useOrgOptions(editing !== null);
  const create = useCreateGroup();
  const update = useUpdateGroup();
  const existing = editing !== null && editing !== 'new' ? editing : null;
  const error = (existing ? update.error : create.error)?.message;

  const submit = async () => {
    let values: GroupFormValues;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    const body: AccountGroupBody = {
      name: values.name.trim(),
      description: (values.description ?? '').trim(),
      roleIds: values.roleIds ?? [],
    };
    try {
      notify.success(existing ? await update.mutateAsync({ id: existing.id, body }) : await create.mutateAsync(body));
      onClose();
    } catch {
      // The server's reason shows in the dialog (and as the API client's toast); the dialog stays open.
    }
  };

  return (
    <Modal
      title={existing ? `编辑账号组「${existing.name}」` : '新建账号组'}
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
          existing
            ? { name: existing.name, description: existing.description, roleIds: existing.roles.map((r) => r.id) }
            : { name: '', description: '', roleIds: [] }
        }
      >
        {error && <Alert type="error" showIcon title={error} className="org-groups__form-error" />}
        <Form.Item name="name" label="名称" required rules={[tenantRule(TenantRules.groupName)]}>
          <Input placeholder="如：质量部" maxLength={NAME_MAX} showCount />
        </Form.Item>
        <Form.Item name="description" label="描述" rules={[tenantRule(TenantRules.description)]}>
          <Input.TextArea placeholder="账号组的用途" maxLength={DESCRIPTION_MAX} showCount autoSize={{ minRows: 2, maxRows: 5 }} />
        </Form.Item>
        <Form.Item name="roleIds" label="角色" extra="组内成员都拥有这些角色的权限">
          <Select
            mode="multiple"
            allowClear
            aria-label="角色"
            placeholder="选择角色"
            showSearch={{ optionFilterProp: 'label' }}
            loading={options.isPending}
            options={(options.data?.roles ?? []).map((r) => ({ value: r.id, label: r.name }))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
