import { ENTERPRISE_NAME_MAX, EnterpriseRules, NAME_MAX, type TenantCreateBody, TenantRules } from '@portal/shared';
import { Alert, Button, Form, Input, Modal } from 'antd';
import { tenantRule } from '@/lib/form-rules';
import { notify } from '@/lib/notify';
import { useCreateTenant } from '../api/tenants';
import { newTenantForm, tenantBody, tenantFieldOf } from '../lib/tenant-form';

/**
 * 新建企业 (operators): the enterprise's name and 统一社会信用代码 and its first administrator. The
 * shared rules check each field before sending (the credit code with its check character, as
 * certification does); the server checks again, and a taken name, code, username or phone shows under
 * its field. The administrator's initial password is random and goes out by SMS.
 */
export function TenantCreateDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const [form] = Form.useForm<TenantCreateBody>();
  const create = useCreateTenant();

  const submit = async () => {
    let values: TenantCreateBody;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    try {
      notify.success(await create.mutateAsync(tenantBody(values)));
      onClose();
    } catch (err) {
      const message = err instanceof Error && err.message ? err.message : '操作失败';
      const field = tenantFieldOf(message);
      if (field) form.setFields([{ name: field, errors: [message] }]);
      else notify.error(message);
    }
  };

  return (
    <Modal
      title="新建企业"
      open={open}
      onCancel={onClose}
      width={{ xs: '100%', sm: 560 }}
      destroyOnHidden
      mask={{ closable: false }}
      footer={[
        <Button key="cancel" onClick={onClose}>
          取消
        </Button>,
        <Button key="ok" type="primary" loading={create.isPending} onClick={() => void submit()}>
          创建
        </Button>,
      ]}
    >
      <Form<TenantCreateBody> form={form} layout="vertical" clearOnDestroy autoComplete="off" initialValues={newTenantForm()}>
        <Form.Item name="name" label="企业名称" required rules={[tenantRule(EnterpriseRules.name)]}>
          <Input maxLength={ENTERPRISE_NAME_MAX} />
        </Form.Item>
        <Form.Item
          name="creditCode"
          label="统一社会信用代码"
          required
          rules={[tenantRule(EnterpriseRules.creditCode)]}
          extra="18 位，含最后一位校验码"
        >
          <Input maxLength={18} />
        </Form.Item>
        <h4 className="tenants__section-title">企业管理员</h4>
        <Form.Item name="adminName" label="管理员姓名" required rules={[tenantRule(TenantRules.personName)]}>
          <Input maxLength={NAME_MAX} />
        </Form.Item>
        <Form.Item
          name="adminUsername"
          label="管理员账号"
          required
          rules={[tenantRule(TenantRules.username)]}
          extra="3-32 位字母、数字或下划线，以字母开头；创建后不能修改"
        >
          <Input maxLength={32} />
        </Form.Item>
        <Form.Item name="adminPhone" label="管理员手机号" required rules={[tenantRule(TenantRules.phone)]}>
          <Input inputMode="tel" maxLength={11} />
        </Form.Item>
        <Alert type="info" showIcon title="初始密码随机生成，通过短信发送到管理员手机号；管理员首次登录时须修改密码。" />
      </Form>
    </Modal>
  );
}
