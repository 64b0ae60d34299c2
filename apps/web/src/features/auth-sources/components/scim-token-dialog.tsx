import { SCIM_TOKEN_NAME_MAX, type ScimTokenSecret, ScimMessage } from '@portal/shared';
import { Alert, Button, Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useReauth } from '@/components/reauth-dialog';
import { tenantRule } from '@/lib/form-rules';
import { notify } from '@/lib/notify';
import { useCreateScimToken } from '../api/scim-tokens';

interface FormValues {
  name: string;
}

/**
 * 新建令牌: a name, then the token shown this once (the portal keeps only its digest) with the SCIM address.
 * A token manages the enterprise's people and groups, so the server asks for a recent 验证身份 first.
 */
export function ScimTokenDialog({ open, endpoint, onClose }: { open: boolean; endpoint: string; onClose(): void }) {
  const [form] = Form.useForm<FormValues>();
  const create = useCreateScimToken();
  const [created, setCreated] = useState<ScimTokenSecret | null>(null);
  const reauth = useReauth();

  const submit = async () => {
    let values: FormValues;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    try {
      const { msg, token } = await reauth.run(() => create.mutateAsync(values.name.trim()));
      notify.success(msg);
      setCreated(token);
    } catch (err) {
      const message = err instanceof Error && err.message ? err.message : '创建失败';
      if (message.includes('名称')) form.setFields([{ name: 'name', errors: [message] }]);
      else notify.error(message);
    }
  };

  return (
    <>
      {reauth.dialog}
      <Modal
        title={created ? `SCIM 令牌已创建：${created.name}` : '新建 SCIM 令牌'}
        open={open}
        onCancel={onClose}
        onOk={() => void submit()}
        afterClose={() => setCreated(null)}
        okText="创建"
        cancelText="取消"
        confirmLoading={create.isPending}
        width={{ xs: '100%', sm: created ? 640 : 480 }}
        destroyOnHidden
        mask={{ closable: false }}
        {...(created
          ? {
              footer: (
                <Button type="primary" onClick={onClose}>
                  我已保存令牌
                </Button>
              ),
            }
          : {})}
      >
        {created ? (
          <div className="auth-sources__scim-secret">
            <Alert type="warning" showIcon title={ScimMessage.tokenOnce} />
            <dl className="auth-sources__scim-list">
              {[
                { label: 'SCIM 地址（Tenant URL）', value: endpoint },
                { label: '访问令牌（Secret Token）', value: created.token },
              ].map((entry) => (
                <div key={entry.label} className="auth-sources__scim-item">
                  <dt>{entry.label}</dt>
                  <dd>
                    <Typography.Text
                      code
                      copyable={{ text: entry.value, tooltips: ['复制', '已复制'] }}
                      className="auth-sources__scim-value"
                    >
                      {entry.value}
                    </Typography.Text>
                  </dd>
                </div>
              ))}
            </dl>
          </div>
        ) : (
          <Form<FormValues> form={form} layout="vertical" clearOnDestroy autoComplete="off" initialValues={{ name: '' }}>
            <Form.Item
              name="name"
              label="名称"
              required
              extra="用于区分接入的系统，如：北森 HR、Entra ID"
              rules={[tenantRule((v) => (v.length < 1 || v.length > SCIM_TOKEN_NAME_MAX ? ScimMessage.nameLength : undefined))]}
            >
              <Input maxLength={SCIM_TOKEN_NAME_MAX} placeholder="如：北森 HR" />
            </Form.Item>
          </Form>
        )}
      </Modal>
    </>
  );
}
