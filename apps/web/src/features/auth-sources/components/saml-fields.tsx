import {
  AuthSourceRules,
  type SamlIdpMetadata,
  SAML_BINDING_LABELS,
  SAML_NAME_ID,
  SAML_SOURCE_NAME_ID_LABELS,
  SAML_TEXT_MAX,
  type SamlSpEndpoints,
} from '@portal/shared';
import { Button, Form, type FormInstance, Input, type InputProps, Select, Space, Switch, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useOrgOptions } from '@/api/get-org-options';
import { tenantRule } from '@/lib/form-rules';
import { notify } from '@/lib/notify';
import { useReadSamlMetadata } from '../api/auth-sources';
import type { AuthSourceFormValues } from '../lib/auth-source-form';
import { ProviderChangeWarning, SignInTest } from './oidc-fields';

const messageOf = (err: unknown, fallback: string) => (err instanceof Error && err.message ? err.message : fallback);

/** The certificates as one text box: PEM blocks one after another (or one bare Base64 body). */
const certificatesText = (value: unknown) => ({ value: Array.isArray(value) ? value.join('\n') : '' });
const certificatesOf = (text: string) => text.split(/\n(?=-----BEGIN CERTIFICATE-----)/);
const checkCertificates = (values: unknown) =>
  AuthSourceRules.samlCertificates((Array.isArray(values) ? (values as string[]) : []).map((v) => v.trim()).filter(Boolean));

/** 元数据地址 with its 读取 button beside it (the form item's value is the address). */
function MetadataUrlInput({
  loading,
  onRead,
  ...input
}: {
  loading: boolean;
  onRead(): void;
} & Omit<InputProps, 'placeholder' | 'maxLength'>) {
  // The form item's props (value, onChange, id, aria-invalid, aria-describedby) go to the input itself.
  return (
    <Space.Compact block>
      <Input {...input} placeholder="https://idp.example.com/FederationMetadata/2007-06/FederationMetadata.xml" maxLength={SAML_TEXT_MAX} />
      <Button loading={loading} onClick={onRead}>
        读取
      </Button>
    </Space.Compact>
  );
}

const SP_ROWS: { key: keyof SamlSpEndpoints; label: string }[] = [
  { key: 'entityId', label: 'SP 实体 ID（Entity ID）' },
  { key: 'acsUrl', label: '断言消费地址（ACS，HTTP-POST）' },
  { key: 'sloUrl', label: '单点登出地址（SLO）' },
  { key: 'metadataUrl', label: 'SP 元数据地址' },
];

/**
 * A SAML 2.0 source's settings: the IdP's metadata read by its address or from pasted / uploaded XML
 * (which fills the IdP's entity ID, SSO and SLO addresses and signing certificates, all editable), the
 * NameID format, the attribute mapping, the email domains, JIT and its default 账号组, the forced
 * provider, and, once saved, what to register at the IdP (our entity ID, ACS, SLO, metadata to download)
 * with 测试登录 in a popup.
 */
export function SamlFields({
  form,
  sourceId,
  serviceProvider,
}: {
  form: FormInstance<AuthSourceFormValues>;
  sourceId: number | undefined;
  serviceProvider: SamlSpEndpoints | null;
}) {
  const read = useReadSamlMetadata();
  const [xmlShown, setXmlShown] = useState(false);
  const [xml, setXml] = useState('');
  const groups = useOrgOptions();

  const fill = (meta: SamlIdpMetadata) => {
    form.setFieldsValue({ saml: { ...form.getFieldValue('saml'), ...meta } });
    void form.validateFields([
      ['saml', 'idpEntityId'],
      ['saml', 'ssoUrl'],
      ['saml', 'sloUrl'],
      ['saml', 'certificates'],
    ]);
    notify.success('已读取 IdP 元数据');
  };
  const readBy = async (body: { url: string } | { xml: string }) => {
    try {
      fill(await read.mutateAsync(body));
      if ('xml' in body) form.setFieldValue(['saml', 'metadataUrl'], '');
    } catch (err) {
      const message = messageOf(err, '读取元数据失败');
      if ('url' in body) form.setFields([{ name: ['saml', 'metadataUrl'], errors: [message] }]);
      else notify.error(message);
    }
  };
  const readUrl = async () => {
    try {
      await form.validateFields([['saml', 'metadataUrl']]);
    } catch {
      return;
    }
    const url = String(form.getFieldValue(['saml', 'metadataUrl']) ?? '').trim();
    if (!url) {
      form.setFields([{ name: ['saml', 'metadataUrl'], errors: ['请输入元数据地址'] }]);
      return;
    }
    await readBy({ url });
  };

  return (
    <>
      <section className="auth-sources__section" aria-label="IdP 元数据">
        <h3 className="auth-sources__section-title">IdP 元数据</h3>
        <Form.Item
          name={['saml', 'metadataUrl']}
          label="元数据地址"
          rules={[tenantRule((v) => AuthSourceRules.samlUrl(v, false))]}
          extra="IdP 公布的 SAML 元数据地址（经出站地址规则访问）；读取后自动填写下方各项，也可手动填写"
        >
          <MetadataUrlInput loading={read.isPending && !xmlShown} onRead={() => void readUrl()} />
        </Form.Item>
        {xmlShown ? (
          <div className="auth-sources__saml-xml">
            <Input.TextArea
              aria-label="元数据 XML"
              rows={5}
              value={xml}
              onChange={(event) => setXml(event.target.value)}
              placeholder="<EntityDescriptor …>"
            />
            <Space wrap>
              <Button loading={read.isPending} disabled={!xml.trim()} onClick={() => void readBy({ xml })}>
                解析 XML
              </Button>
              <Upload
                accept=".xml,application/xml,text/xml"
                showUploadList={false}
                beforeUpload={(file) => {
                  void file.text().then((text) => {
                    setXml(text);
                    void readBy({ xml: text });
                  });
                  return false;
                }}
              >
                <Button>上传元数据文件</Button>
              </Upload>
            </Space>
          </div>
        ) : (
          <Button type="link" className="auth-sources__link-button" onClick={() => setXmlShown(true)}>
            粘贴或上传元数据 XML
          </Button>
        )}
      </section>

      <section className="auth-sources__section" aria-label="IdP 设置">
        <h3 className="auth-sources__section-title">IdP 设置</h3>
        <Form.Item
          name={['saml', 'idpEntityId']}
          label="IdP 实体 ID（Entity ID）"
          required
          rules={[tenantRule(AuthSourceRules.samlEntityId)]}
          {...(sourceId !== undefined ? { extra: <ProviderChangeWarning /> } : {})}
        >
          <Input maxLength={SAML_TEXT_MAX} />
        </Form.Item>
        <div className="auth-sources__pair">
          <Form.Item
            name={['saml', 'ssoUrl']}
            label="单点登录地址（SSO URL）"
            required
            rules={[tenantRule((v) => AuthSourceRules.samlUrl(v, true))]}
            className="auth-sources__grow"
          >
            <Input maxLength={SAML_TEXT_MAX} />
          </Form.Item>
          <Form.Item name={['saml', 'ssoBinding']} label="绑定">
            <Select
              aria-label="绑定"
              options={Object.entries(SAML_BINDING_LABELS).map(([value, label]) => ({ value, label }))}
              className="auth-sources__binding"
            />
          </Form.Item>
        </div>
        <Form.Item
          name={['saml', 'sloUrl']}
          label="单点登出地址（SLO URL）"
          rules={[tenantRule((v) => AuthSourceRules.samlUrl(v, false))]}
          extra="可为空；填写后，在本平台退出时也会通知 IdP 退出"
        >
          <Input maxLength={SAML_TEXT_MAX} />
        </Form.Item>
        <Form.Item
          name={['saml', 'certificates']}
          label="签名证书"
          required
          getValueProps={certificatesText}
          normalize={(text: string) => certificatesOf(text)}
          rules={[
            {
              validator: (_rule, value) =>
                checkCertificates(value) ? Promise.reject(new Error(checkCertificates(value))) : Promise.resolve(),
            },
          ]}
          extra="IdP 用于签名的 X.509 证书（PEM），多个证书依次粘贴；IdP 轮换证书时可同时保留新旧两个"
        >
          <Input.TextArea rows={4} className="auth-sources__mono" placeholder="-----BEGIN CERTIFICATE-----" />
        </Form.Item>
        <div className="auth-sources__pair">
          <Form.Item name={['saml', 'nameIdFormat']} label="NameID 格式" className="auth-sources__grow">
            <Select
              aria-label="NameID 格式"
              options={Object.entries(SAML_SOURCE_NAME_ID_LABELS).map(([value, label]) => ({ value, label }))}
            />
          </Form.Item>
          <Form.Item name={['saml', 'wantAssertionsSigned']} label="要求断言签名" valuePropName="checked">
            <Switch />
          </Form.Item>
        </div>
      </section>

      <section className="auth-sources__section" aria-label="属性映射">
        <h3 className="auth-sources__section-title">属性映射</h3>
        <Typography.Text type="secondary" className="auth-sources__meta">
          填写 IdP 断言中属性的名称（Name，常为 URI）；用户名可填 {SAML_NAME_ID} 表示使用 NameID
        </Typography.Text>
        <div className="auth-sources__mapping">
          <Form.Item
            name={['saml', 'mapping', 'username']}
            label="用户名"
            required
            rules={[tenantRule((v) => AuthSourceRules.samlAttribute(v, true))]}
          >
            <Input maxLength={SAML_TEXT_MAX} />
          </Form.Item>
          <Form.Item name={['saml', 'mapping', 'name']} label="姓名" rules={[tenantRule((v) => AuthSourceRules.samlAttribute(v))]}>
            <Input maxLength={SAML_TEXT_MAX} />
          </Form.Item>
          <Form.Item name={['saml', 'mapping', 'email']} label="邮箱" rules={[tenantRule((v) => AuthSourceRules.samlAttribute(v))]}>
            <Input maxLength={SAML_TEXT_MAX} />
          </Form.Item>
          <Form.Item name={['saml', 'mapping', 'phone']} label="手机号" rules={[tenantRule((v) => AuthSourceRules.samlAttribute(v))]}>
            <Input maxLength={SAML_TEXT_MAX} />
          </Form.Item>
        </div>
      </section>

      <section className="auth-sources__section" aria-label="登录与账号">
        <h3 className="auth-sources__section-title">登录与账号</h3>
        <Form.Item
          name={['saml', 'domains']}
          label="邮箱域名"
          rules={[
            {
              validator: (_r, v: string[] = []) =>
                AuthSourceRules.domains(v) ? Promise.reject(new Error(AuthSourceRules.domains(v))) : Promise.resolve(),
            },
          ]}
          extra="登录页输入这些域名的邮箱时，直接跳转到该 IdP 登录"
        >
          <Select mode="tags" aria-label="邮箱域名" tokenSeparators={[',', ' ', '，']} placeholder="如 corp.example.com" open={false} />
        </Form.Item>
        <Form.Item name={['saml', 'jit']} label="首次登录自动创建账号" valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name={['saml', 'groupIds']} label="默认账号组" extra="自动创建的账号加入这些账号组">
          <Select
            mode="multiple"
            aria-label="默认账号组"
            loading={groups.isLoading}
            options={(groups.data?.groups ?? []).map((g) => ({ value: g.id, label: g.name }))}
            optionFilterProp="label"
          />
        </Form.Item>
        <Form.Item
          name={['saml', 'enforce']}
          label="仅允许通过该 IdP 登录"
          valuePropName="checked"
          extra="开启后，关联账号不能再用密码登录（企业管理员保留密码登录）"
        >
          <Switch />
        </Form.Item>
      </section>

      <section className="auth-sources__callback" aria-label="在 IdP 登记的信息">
        <Typography.Text strong>在 IdP 登记的信息</Typography.Text>
        {serviceProvider ? (
          <>
            <dl className="auth-sources__sp">
              {SP_ROWS.map(({ key, label }) => (
                <div key={key}>
                  <dt>{label}</dt>
                  <dd>
                    <Typography.Text code copyable={{ text: serviceProvider[key], tooltips: ['复制', '已复制'] }}>
                      {serviceProvider[key]}
                    </Typography.Text>
                  </dd>
                </div>
              ))}
            </dl>
            <Space wrap>
              <Button href={`${serviceProvider.metadataUrl}?download=1`} download>
                下载 SP 元数据
              </Button>
            </Space>
            <Typography.Text type="secondary" className="auth-sources__meta">
              在 IdP 中新建 SAML 应用（信赖方）：导入 SP 元数据，或填写实体 ID、ACS 与 SLO 地址；本平台的登录请求已签名
            </Typography.Text>
          </>
        ) : (
          <Typography.Text type="secondary" className="auth-sources__meta">
            保存后显示本平台的 SP 实体 ID、ACS 与 SLO 地址，再将它们登记到 IdP
          </Typography.Text>
        )}
      </section>
      {sourceId !== undefined && <SignInTest sourceId={sourceId} />}
    </>
  );
}
