import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  APP_CATEGORY_MAX,
  APP_DESCRIPTION_MAX,
  APP_NAME_MAX,
  APP_URL_MAX,
  ATTRIBUTE_LABELS,
  MAX_OIDC_REDIRECT_URIS,
  MAX_SERVICE_PREFIXES,
  OIDC_APP_SCOPES,
  OIDC_CLIENT_TYPE_LABELS,
  OIDC_SCOPE_LABELS,
  type OidcClientType,
  type OidcLifetime,
  OidcRules,
  RELEASABLE_ATTRIBUTES,
  SAML_NAME_ID_FORMATS,
  type SamlNameIdFormat,
  SSO_APPLICATION_STATUS_LABELS,
  SSO_PROTOCOLS,
  type SsoApplicationRow,
  type SsoApplicationStatus,
  SsoRules,
  type SsoProtocol,
} from '@portal/shared';
import { Button, Checkbox, Drawer, Form, type FormRule, Input, InputNumber, Radio, Space } from 'antd';
import { useState } from 'react';
import { ImageUpload } from '@/components/image-upload';
import { tenantRule } from '@/lib/form-rules';
import { notify } from '@/lib/notify';
import { readSamlMetadata, useCreateSsoApp, useUpdateSsoApp } from '../api/sso-apps';
import {
  OIDC_FORM_LIFETIMES,
  type SsoAppFormValues,
  editSsoAppForm,
  fieldOfMessage,
  newSsoAppForm,
  servicePrefixListProblem,
  ssoAppBody,
} from '../lib/sso-app-form';
import type { ShownSecret } from './client-secret-dialog';

const NAME_ID_OPTIONS = (Object.keys(SAML_NAME_ID_FORMATS) as SamlNameIdFormat[]).map((f) => ({
  value: f,
  label: SAML_NAME_ID_FORMATS[f],
}));

/** What the drawer is open for: a new application, or the application to edit. */
export type SsoAppFormTarget = { app?: SsoApplicationRow };

const PROTOCOL_OPTIONS = (Object.keys(SSO_PROTOCOLS) as SsoProtocol[]).map((p) => ({ value: p, label: SSO_PROTOCOLS[p] }));
const STATUS_OPTIONS = (Object.keys(SSO_APPLICATION_STATUS_LABELS) as SsoApplicationStatus[]).map((s) => ({
  value: s,
  label: SSO_APPLICATION_STATUS_LABELS[s],
}));
const ATTRIBUTE_OPTIONS = RELEASABLE_ATTRIBUTES.map((a) => ({ value: a, label: ATTRIBUTE_LABELS[a] }));
const CLIENT_TYPE_OPTIONS = (Object.keys(OIDC_CLIENT_TYPE_LABELS) as OidcClientType[]).map((t) => ({
  value: t,
  label: OIDC_CLIENT_TYPE_LABELS[t],
}));
// openid is always held: shown checked and fixed.
const SCOPE_OPTIONS = OIDC_APP_SCOPES.map((s) => ({ value: s, label: OIDC_SCOPE_LABELS[s], disabled: s === 'openid' }));

/** A lifetime in the form's unit checked by the shared rule in seconds. */
const lifetimeRule = (which: OidcLifetime, secondsPerUnit: number): FormRule => ({
  validator: async (_rule, value: number | null | undefined) => {
    const problem = OidcRules.lifetime(which, Math.round((value ?? 0) * secondsPerUnit));
    if (problem) throw new Error(problem);
  },
});

/** An OIDC address list (回调地址, 登出回调地址): rows to fill, each checked alone, the list as a whole. */
function AddressList({
  name,
  label,
  required,
  extra,
  placeholder,
}: {
  name: 'redirectUris' | 'postLogoutRedirectUris';
  label: string;
  required: boolean;
  extra: string;
  placeholder: string;
}) {
  return (
    <Form.List
      name={['oidc', name]}
      rules={[
        {
          validator: async (_rule, values: string[] | undefined) => {
            const list = values ?? [];
            if (list.some((v) => OidcRules.address(label, v))) return;
            const problem = OidcRules.addresses(label, list, required);
            if (problem) throw new Error(problem);
          },
        },
      ]}
    >
      {(fields, { add, remove }, { errors }) => (
        <Form.Item label={label} required={required} extra={extra}>
          {fields.map((field, index) => (
            <div key={field.key} className="sso-apps__prefix-row">
              <Form.Item
                name={field.name}
                rules={[tenantRule((v) => OidcRules.address(label, v))]}
                validateTrigger={['onChange', 'onBlur']}
                className="sso-apps__prefix-input"
              >
                <Input aria-label={`${label} ${index + 1}`} placeholder={placeholder} inputMode="url" maxLength={APP_URL_MAX} />
              </Form.Item>
              <Button
                icon={<DeleteOutlined />}
                aria-label={`删除${label} ${index + 1}`}
                disabled={required && fields.length <= 1}
                onClick={() => remove(field.name)}
              />
            </div>
          ))}
          <Button type="dashed" icon={<PlusOutlined />} disabled={fields.length >= MAX_OIDC_REDIRECT_URIS} onClick={() => add('')} block>
            添加{label}
          </Button>
          <Form.ErrorList errors={errors} />
        </Form.Item>
      )}
    </Form.List>
  );
}

/**
 * An OpenID Connect application's fields: 客户端 ID and 客户端类型 (fixed after creation), its addresses,
 * the scopes it may ask for and its token lifetimes within the shared bounds.
 */
function OidcFields({ editing }: { editing: boolean }) {
  const lifetimes = OIDC_FORM_LIFETIMES;
  return (
    <>
      <Form.Item
        name={['oidc', 'clientId']}
        label="客户端 ID"
        rules={[tenantRule(OidcRules.clientId)]}
        extra={editing ? '创建后不能修改' : '应用向统一身份认证表明身份的 client_id；留空则自动生成，创建后不能修改'}
      >
        <Input placeholder="留空则自动生成，如 hengyue-inspection" maxLength={64} disabled={editing} />
      </Form.Item>
      <Form.Item
        name={['oidc', 'clientType']}
        label="客户端类型"
        required
        extra="机密：服务端应用，持有客户端密钥；公开：单页或移动应用，没有密钥，须使用 PKCE。创建后不能修改"
      >
        <Radio.Group options={CLIENT_TYPE_OPTIONS} optionType="button" disabled={editing} />
      </Form.Item>
      <AddressList
        name="redirectUris"
        label="回调地址"
        required
        placeholder="https://app.example.com/callback"
        extra={`授权码发往此地址（redirect_uri 须与其中之一完全一致）；须为 https（仅 localhost、127.0.0.1 与 [::1] 可使用 http），最多 ${MAX_OIDC_REDIRECT_URIS} 个`}
      />
      <AddressList
        name="postLogoutRedirectUris"
        label="登出回调地址"
        required={false}
        placeholder="https://app.example.com/"
        extra="应用发起退出后可跳回的地址（post_logout_redirect_uri），可不填"
      />
      <Form.Item
        name={['oidc', 'backchannelLogoutUri']}
        label="后端登出地址"
        rules={[tenantRule((v) => OidcRules.address('后端登出地址', v))]}
        extra="单点登出时统一身份认证向此地址发送 logout_token（OIDC 后端通道登出）；留空则不通知"
      >
        <Input placeholder="https://app.example.com/backchannel-logout" inputMode="url" maxLength={APP_URL_MAX} />
      </Form.Item>
      <Form.Item
        name={['oidc', 'initiateLoginUri']}
        label="发起登录地址"
        rules={[tenantRule(OidcRules.initiateLoginUri)]}
        extra="我的应用由此打开应用，由应用发起登录（须为 https）；留空则打开回调地址所在站点"
      >
        <Input placeholder="https://app.example.com/login" inputMode="url" maxLength={APP_URL_MAX} />
      </Form.Item>
      <Form.Item name={['oidc', 'scopes']} label="授权范围" extra="应用可申请的范围，决定 ID 令牌与用户信息中返回的声明">
        <Checkbox.Group options={SCOPE_OPTIONS} className="sso-apps__attributes" />
      </Form.Item>
      <div className="sso-apps__lifetimes">
        <Form.Item
          name={['oidc', 'accessTokenMinutes']}
          label="访问令牌有效期"
          rules={[lifetimeRule('accessTokenSeconds', 60)]}
          extra={`${lifetimes.accessTokenMinutes.min}～${lifetimes.accessTokenMinutes.max} 分钟`}
        >
          <InputNumber min={lifetimes.accessTokenMinutes.min} max={lifetimes.accessTokenMinutes.max} precision={0} suffix="分钟" />
        </Form.Item>
        <Form.Item
          name={['oidc', 'idTokenMinutes']}
          label="ID 令牌有效期"
          rules={[lifetimeRule('idTokenSeconds', 60)]}
          extra={`${lifetimes.idTokenMinutes.min}～${lifetimes.idTokenMinutes.max} 分钟`}
        >
          <InputNumber min={lifetimes.idTokenMinutes.min} max={lifetimes.idTokenMinutes.max} precision={0} suffix="分钟" />
        </Form.Item>
        <Form.Item
          name={['oidc', 'refreshTokenHours']}
          label="刷新令牌有效期"
          rules={[lifetimeRule('refreshTokenSeconds', 3600)]}
          extra={`${lifetimes.refreshTokenHours.min}～${lifetimes.refreshTokenHours.max} 小时，且不超过登录会话`}
        >
          <InputNumber min={lifetimes.refreshTokenHours.min} max={lifetimes.refreshTokenHours.max} precision={0} suffix="小时" />
        </Form.Item>
      </div>
    </>
  );
}

/**
 * 新增 / 编辑 an application (应用列表): 名称, 图标, 分类, 描述, 协议 (chosen at creation only), then for
 * CAS 3.0 服务地址 (1 to MAX_SERVICE_PREFIXES URL prefixes), 注销地址 and 返回属性, for OpenID Connect
 * its client settings; and 状态. The shared rules check every field before sending; the server checks
 * again and its refusal shows under the field it names, or as a toast. A new confidential OIDC
 * application's secret goes to `onSecret`, to be shown once.
 */
export function SsoAppFormDrawer({
  target,
  onClose,
  onSecret,
}: {
  target: SsoAppFormTarget | null;
  onClose(): void;
  onSecret(secret: ShownSecret): void;
}) {
  const [form] = Form.useForm<SsoAppFormValues>();
  const create = useCreateSsoApp();
  const update = useUpdateSsoApp();
  const [saving, setSaving] = useState(false);
  const app = target?.app;
  const protocol = Form.useWatch('protocol', form) ?? app?.protocol ?? 'cas3';

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
      if (app) {
        notify.success(await update.mutateAsync({ id: app.id, body }));
        onClose();
        return;
      }
      const { msg, created } = await create.mutateAsync(body);
      notify.success(msg);
      onClose();
      if (created?.clientSecret)
        onSecret({ appName: body.name, clientId: created.clientId, clientSecret: created.clientSecret, reset: false });
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
        <Form.Item
          name="protocol"
          label="协议"
          required
          extra={
            (app ? '协议创建后不能修改。' : '') +
            (protocol === 'oidc'
              ? '授权码 + PKCE，签发 ID 令牌与访问令牌'
              : protocol === 'saml2'
                ? 'SP 发起（HTTP-Redirect、HTTP-POST）与 IdP 发起的登录，签名响应经 HTTP-POST 发往断言消费地址'
                : '兼容 CAS 2.0 与 CAS 1.0 的票据校验')
          }
        >
          <Radio.Group options={PROTOCOL_OPTIONS} optionType="button" disabled={app !== undefined} />
        </Form.Item>
        {protocol === 'oidc' ? <OidcFields editing={app !== undefined} /> : protocol === 'saml2' ? <SamlFields /> : <CasFields />}
        <Form.Item name="status" label="状态" extra="停用后该应用不能再通过统一身份认证登录">
          <Radio.Group options={STATUS_OPTIONS} optionType="button" />
        </Form.Item>
      </Form>
    </Drawer>
  );
}

/** A CAS 3.0 application's fields: 服务地址, 注销地址 and 返回属性. */
function CasFields() {
  return (
    <>
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
    </>
  );
}

/**
 * A SAML 2.0 application's fields: its SP settings (typed, or read from its metadata, uploaded or
 * fetched by the platform from its address) and 返回属性.
 */
function SamlFields() {
  const form = Form.useFormInstance<SsoAppFormValues>();
  const [metadataUrl, setMetadataUrl] = useState('');
  const [fetching, setFetching] = useState(false);
  const fill = (found: Awaited<ReturnType<typeof readSamlMetadata>>) =>
    form.setFieldsValue({ saml: { ...form.getFieldValue('saml'), ...found } });
  const upload = async (file: File | undefined) => {
    if (!file) return;
    fill(await readSamlMetadata({ xml: await file.text() }));
  };
  const fetchMetadata = async () => {
    setFetching(true);
    try {
      fill(await readSamlMetadata({ url: metadataUrl.trim() }));
    } finally {
      setFetching(false);
    }
  };
  return (
    <>
      <Form.Item
        label="SP 元数据"
        extra="上传应用（服务提供方）的 SAML 元数据 XML，自动填写下面的实体 ID、断言消费地址、单点登出地址与证书"
      >
        <input
          type="file"
          accept=".xml,application/xml,text/xml,application/samlmetadata+xml"
          aria-label="上传 SP 元数据"
          onChange={(e) => void upload(e.target.files?.[0]).catch(() => undefined)}
        />
      </Form.Item>
      <Form.Item
        label="SP 元数据地址"
        htmlFor="sso-app-saml-metadata-url"
        extra="或填写元数据的地址，由平台获取并自动填写（不跟随重定向；10 秒、200 KB 以内）"
      >
        <Space.Compact block>
          <Input
            id="sso-app-saml-metadata-url"
            value={metadataUrl}
            onChange={(e) => setMetadataUrl(e.target.value)}
            placeholder="https://app.example.com/saml/metadata"
            inputMode="url"
            maxLength={APP_URL_MAX}
            onPressEnter={(e) => {
              e.preventDefault();
              if (metadataUrl.trim()) void fetchMetadata().catch(() => undefined);
            }}
          />
          <Button loading={fetching} disabled={!metadataUrl.trim()} onClick={() => void fetchMetadata().catch(() => undefined)}>
            获取
          </Button>
        </Space.Compact>
      </Form.Item>
      <Form.Item name={['saml', 'entityId']} label="SP 实体 ID" required extra="AuthnRequest 的 Issuer；响应的 Audience">
        <Input placeholder="https://app.example.com/saml/metadata" maxLength={APP_URL_MAX} />
      </Form.Item>
      <Form.Item
        name={['saml', 'acsUrl']}
        label="断言消费地址（ACS）"
        required
        extra="签名响应只经 HTTP-POST 发往此地址；须为 https（仅 localhost 与 127.0.0.1 可使用 http）"
      >
        <Input placeholder="https://app.example.com/saml/acs" inputMode="url" maxLength={APP_URL_MAX} />
      </Form.Item>
      <Form.Item name={['saml', 'sloUrl']} label="单点登出地址" extra="会话结束时平台向此地址发送签名的 LogoutRequest；留空则不通知">
        <Input placeholder="https://app.example.com/saml/slo" inputMode="url" maxLength={APP_URL_MAX} />
      </Form.Item>
      <Form.Item name={['saml', 'certificate']} label="SP 证书" extra="应用签名请求所用的 X.509 证书（PEM）；要求请求签名时必填">
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} placeholder="-----BEGIN CERTIFICATE-----" />
      </Form.Item>
      <Form.Item name={['saml', 'nameIdFormat']} label="NameID 格式">
        <Radio.Group options={NAME_ID_OPTIONS} />
      </Form.Item>
      <Form.Item label="签名" extra="RSA-SHA256；响应与断言至少签名其一">
        <Form.Item name={['saml', 'signResponse']} valuePropName="checked" noStyle>
          <Checkbox>签名响应</Checkbox>
        </Form.Item>
        <Form.Item name={['saml', 'signAssertion']} valuePropName="checked" noStyle>
          <Checkbox>签名断言</Checkbox>
        </Form.Item>
        <Form.Item name={['saml', 'wantRequestsSigned']} valuePropName="checked" noStyle>
          <Checkbox>要求请求签名</Checkbox>
        </Form.Item>
      </Form.Item>
      <Form.Item name="attributes" label="返回属性" extra="以同名 SAML 属性（如 name、email、groups）随断言返回给应用">
        <Checkbox.Group options={ATTRIBUTE_OPTIONS} className="sso-apps__attributes" />
      </Form.Item>
    </>
  );
}
