import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  APP_CATEGORY_MAX,
  APP_DESCRIPTION_MAX,
  APP_NAME_MAX,
  APP_URL_MAX,
  ATTRIBUTE_LABELS,
  MAX_SERVICE_PREFIXES,
  RELEASABLE_ATTRIBUTES,
  SSO_APPLICATION_STATUS_LABELS,
  SSO_PROTOCOLS,
  type SsoApplicationRow,
  type SsoApplicationStatus,
  SsoRules,
  type SsoProtocol,
} from '@portal/shared';
import { Button, Checkbox, Drawer, Form, Input, Radio, Select } from 'antd';
import { useState } from 'react';
import { ImageUpload } from '@/components/image-upload';
import { tenantRule } from '@/lib/form-rules';
import { notify } from '@/lib/notify';
import { useCreateSsoApp, useUpdateSsoApp } from '../api/sso-apps';
import {
  type SsoAppFormValues,
  editSsoAppForm,
  fieldOfMessage,
  newSsoAppForm,
  servicePrefixListProblem,
  ssoAppBody,
} from '../lib/sso-app-form';

/** What the drawer is open for: a new application, or the application to edit. */
export type SsoAppFormTarget = { app?: SsoApplicationRow };

const PROTOCOL_OPTIONS = (Object.keys(SSO_PROTOCOLS) as SsoProtocol[]).map((p) => ({ value: p, label: SSO_PROTOCOLS[p] }));
const STATUS_OPTIONS = (Object.keys(SSO_APPLICATION_STATUS_LABELS) as SsoApplicationStatus[]).map((s) => ({
  value: s,
  label: SSO_APPLICATION_STATUS_LABELS[s],
}));
const ATTRIBUTE_OPTIONS = RELEASABLE_ATTRIBUTES.map((a) => ({ value: a, label: ATTRIBUTE_LABELS[a] }));

/**
 * 新增 / 编辑 an application (应用列表): 名称, 图标, 分类, 描述, 协议, 服务地址 (1 to
 * MAX_SERVICE_PREFIXES URL prefixes), 注销地址, 返回属性 and 状态. The shared rules check every field
 * before sending; the server checks again and its refusal shows under the field it names, or as a toast.
 */
export function SsoAppFormDrawer({ target, onClose }: { target: SsoAppFormTarget | null; onClose(): void }) {
  const [form] = Form.useForm<SsoAppFormValues>();
  const create = useCreateSsoApp();
  const update = useUpdateSsoApp();
  const [saving, setSaving] = useState(false);
  const app = target?.app;

  const submit = async () => {
    let values: SsoAppFormValues;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    try {
      const body = ssoAppBody(values);
      notify.success(app ? await update.mutateAsync({ id: app.id, body }) : await create.mutateAsync(body));
      onClose();
    } catch (err) {
      const message = err instanceof Error && err.message ? err.message : '保存失败';
      const field = fieldOfMessage(message);
      if (field) form.setFields([{ name: field, errors: [message] }]);
      else notify.error(message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Drawer
      title={app ? `编辑应用 ${app.name}` : '新增应用'}
      open={target !== null}
      size="min(600px, 100vw)"
      onClose={onClose}
      destroyOnHidden
      mask={{ closable: false }}
      footer={
        <div className="sso-apps__drawer-footer">
          <Button onClick={onClose}>取消</Button>
          <Button type="primary" loading={saving} onClick={() => void submit()}>
            保存
          </Button>
        </div>
      }
    >
      <Form<SsoAppFormValues>
        form={form}
        layout="vertical"
        clearOnDestroy
        autoComplete="off"
        initialValues={app ? editSsoAppForm(app) : newSsoAppForm()}
      >
        <Form.Item name="name" label="名称" required rules={[tenantRule(SsoRules.name)]}>
          <Input maxLength={APP_NAME_MAX} />
        </Form.Item>
        <Form.Item name="icon" label="图标">
          <ImageUpload hint="方形图标，显示在我的应用中；PNG、JPEG、GIF 或 WebP，不超过 5 MB" />
        </Form.Item>
        <Form.Item name="category" label="分类" rules={[tenantRule(SsoRules.category)]}>
          <Input maxLength={APP_CATEGORY_MAX} placeholder="如：生产管理、办公协同" />
        </Form.Item>
        <Form.Item name="description" label="描述" rules={[tenantRule(SsoRules.description)]}>
          <Input.TextArea maxLength={APP_DESCRIPTION_MAX} showCount autoSize={{ minRows: 2, maxRows: 5 }} />
        </Form.Item>
        <Form.Item name="protocol" label="协议" required extra="兼容 CAS 2.0 与 CAS 1.0 的票据校验">
          <Select options={PROTOCOL_OPTIONS} />
        </Form.Item>
        <Form.List
          name="servicePrefixes"
          rules={[
            {
              validator: async (_rule, values: string[] | undefined) => {
                const problem = servicePrefixListProblem(values ?? []);
                if (problem) throw new Error(problem);
              },
            },
          ]}
        >
          {(fields, { add, remove }, { errors }) => (
            <Form.Item
              label="服务地址"
              required
              extra={`应用的访问地址前缀（协议、主机、端口和路径），以此开头的地址才能获得票据；须为 https（仅 localhost 与 127.0.0.1 可使用 http），最多 ${MAX_SERVICE_PREFIXES} 个`}
            >
              {fields.map((field, index) => (
                <div key={field.key} className="sso-apps__prefix-row">
                  <Form.Item
                    name={field.name}
                    rules={[tenantRule(SsoRules.servicePrefix)]}
                    validateTrigger={['onChange', 'onBlur']}
                    className="sso-apps__prefix-input"
                  >
                    <Input
                      aria-label={`服务地址 ${index + 1}`}
                      placeholder="https://app.example.com/"
                      inputMode="url"
                      maxLength={APP_URL_MAX}
                    />
                  </Form.Item>
                  <Button
                    icon={<DeleteOutlined />}
                    aria-label={`删除服务地址 ${index + 1}`}
                    disabled={fields.length <= 1}
                    onClick={() => remove(field.name)}
                  />
                </div>
              ))}
              <Button type="dashed" icon={<PlusOutlined />} disabled={fields.length >= MAX_SERVICE_PREFIXES} onClick={() => add('')} block>
                添加服务地址
              </Button>
              <Form.ErrorList errors={errors} />
            </Form.Item>
          )}
        </Form.List>
        <Form.Item
          name="logoutUrl"
          label="注销地址"
          rules={[tenantRule(SsoRules.logoutUrl)]}
          extra="单点登出时统一身份认证向此地址发送注销通知（后台通道）；留空则发往签发票据时的服务地址"
        >
          <Input placeholder="https://app.example.com/logout" inputMode="url" maxLength={APP_URL_MAX} />
        </Form.Item>
        <Form.Item name="attributes" label="返回属性" extra="票据校验（CAS 3.0）时随账号一并返回给应用的属性">
          <Checkbox.Group options={ATTRIBUTE_OPTIONS} className="sso-apps__attributes" />
        </Form.Item>
        <Form.Item name="status" label="状态" extra="停用后该应用不能再通过统一身份认证登录">
          <Radio.Group options={STATUS_OPTIONS} optionType="button" />
        </Form.Item>
      </Form>
    </Drawer>
  );
}
