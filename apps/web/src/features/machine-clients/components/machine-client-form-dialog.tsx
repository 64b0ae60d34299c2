import {
  MACHINE_CLIENT_ID_PATTERN,
  MACHINE_CLIENT_NAME_MAX,
  MACHINE_SCOPE_LABELS,
  MACHINE_SCOPES,
  type MachineClientRow,
  type MachineClientSecret,
  MachineClientMessage,
} from '@portal/shared';
import { Button, Checkbox, Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { tenantRule } from '@/lib/form-rules';
import { notify } from '@/lib/notify';
import { useCreateMachineClient, useUpdateMachineClient } from '../api/machine-clients';
import { SecretPanel } from './secret-panel';

/** What the dialog is open for: a new client, or the client to edit. */
export type MachineClientFormTarget = { client?: MachineClientRow };

interface FormValues {
  name: string;
  clientId: string;
  scopes: string[];
}

const SCOPE_OPTIONS = MACHINE_SCOPES.map((s) => ({ value: s, label: `${MACHINE_SCOPE_LABELS[s]}（${s}）` }));

/** The field a refusal of the server names, to show it there. */
function fieldOf(message: string): keyof FormValues | undefined {
  if (message.includes('客户端 ID')) return 'clientId';
  if (message.includes('名称')) return 'name';
  if (message.includes('授权范围')) return 'scopes';
  return undefined;
}

/**
 * 新增 / 编辑 a machine client: 名称, 客户端 ID (fixed once created) and 授权范围. A new client's secret
 * is shown once, in the same dialog, in place of the form.
 */
export function MachineClientFormDialog({ target, onClose }: { target: MachineClientFormTarget | null; onClose(): void }) {
  const [form] = Form.useForm<FormValues>();
  const create = useCreateMachineClient();
  const update = useUpdateMachineClient();
  const [saving, setSaving] = useState(false);
  const [created, setCreated] = useState<(MachineClientSecret & { name: string }) | null>(null);
  const client = target?.client;

  const submit = async () => {
    let values: FormValues;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    try {
      const body = { name: values.name.trim(), scopes: values.scopes };
      if (client) {
        notify.success(await update.mutateAsync({ id: client.id, body }));
        onClose();
      } else {
        const { msg, secret } = await create.mutateAsync({ ...body, clientId: values.clientId.trim() });
        notify.success(msg);
        setCreated({ ...secret, name: body.name });
      }
    } catch (err) {
      const message = err instanceof Error && err.message ? err.message : '保存失败';
      const field = fieldOf(message);
      if (field) form.setFields([{ name: field, errors: [message] }]);
      else notify.error(message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      title={created ? `机器客户端已创建：${created.name}` : client ? `编辑机器客户端 ${client.name}` : '新增机器客户端'}
      open={target !== null}
      onCancel={onClose}
      onOk={() => void submit()}
      afterClose={() => setCreated(null)}
      okText="保存"
      cancelText="取消"
      confirmLoading={saving}
      width={{ xs: '100%', sm: created ? 640 : 560 }}
      destroyOnHidden
      mask={{ closable: false }}
      {...(created
        ? {
            footer: (
              <Button type="primary" onClick={onClose}>
                我已保存密钥
              </Button>
            ),
          }
        : {})}
    >
      {created ? (
        <SecretPanel secret={created} />
      ) : (
        <Form<FormValues>
          form={form}
          layout="vertical"
          clearOnDestroy
          autoComplete="off"
          initialValues={
            client ? { name: client.name, clientId: client.clientId, scopes: client.scopes } : { name: '', clientId: '', scopes: [] }
          }
        >
          <Form.Item
            name="name"
            label="名称"
            required
            rules={[tenantRule((v) => (v.length < 1 || v.length > MACHINE_CLIENT_NAME_MAX ? MachineClientMessage.nameLength : undefined))]}
          >
            <Input maxLength={MACHINE_CLIENT_NAME_MAX} placeholder="如：恒岳MES" />
          </Form.Item>
          <Form.Item
            name="clientId"
            label="客户端 ID"
            required
            extra={client ? '创建后不可修改' : '系统调用令牌接口时使用；创建后不可修改'}
            rules={client ? [] : [tenantRule((v) => (MACHINE_CLIENT_ID_PATTERN.test(v) ? undefined : MachineClientMessage.clientIdFormat))]}
          >
            <Input maxLength={64} disabled={Boolean(client)} placeholder="如：hengyue-mes" inputMode="url" />
          </Form.Item>
          <Form.Item
            name="scopes"
            label="授权范围"
            required
            extra="令牌只能调用所选范围内的本企业接口"
            rules={[
              {
                validator: async (_r, v: string[] | undefined) =>
                  v?.length ? undefined : Promise.reject(new Error(MachineClientMessage.scopeRequired)),
              },
            ]}
          >
            <Checkbox.Group options={SCOPE_OPTIONS} className="machine-clients__scopes" />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
