import { AD_MAPPING, AuthSourceRules, LDAP_DEFAULTS, LDAP_TEXT_MAX, type LdapAttributeMapping, isLdapsUrl } from '@portal/shared';
import { Alert, Button, Form, type FormInstance, type FormRule, Input, Switch } from 'antd';
import type { ReactNode } from 'react';
import { tenantRule } from '@/lib/form-rules';
import type { AuthSourceFormValues } from '../lib/auth-source-form';
import { AD_GROUP_FILTER, AD_USER_FILTER } from '../lib/platforms';
import { SecretField } from './secret-field';

const text = (value: unknown) => (typeof value === 'string' ? value : '');
const sameMapping = (a: Partial<LdapAttributeMapping> | undefined, b: LdapAttributeMapping) =>
  (Object.keys(b) as (keyof LdapAttributeMapping)[]).every((key) => (a?.[key] ?? '').trim() === b[key]);

/** A rule of a field whose check reads another field of the form (`other` is its path). */
function ruleWith(other: (string | number)[], check: (value: string, otherValue: string) => string | undefined): FormRule {
  return ({ getFieldValue }) => ({
    validator: async (_rule, value: unknown) => {
      const message = check(text(value).trim(), text(getFieldValue(other)));
      if (message) throw new Error(message);
    },
  });
}

const MAPPING_FIELDS: { key: keyof LdapAttributeMapping; label: string; extra?: string }[] = [
  { key: 'username', label: '用户名', extra: '登录时按此属性查找用户' },
  { key: 'name', label: '姓名' },
  { key: 'phone', label: '手机号', extra: '平台账号须绑定手机号：没有有效手机号的用户不能同步为账号' },
  { key: 'email', label: '邮箱' },
];

const Section = ({ title, children }: { title: string; children: ReactNode }) => (
  <section className="auth-sources__section" aria-label={title}>
    <h3 className="auth-sources__section-title">{title}</h3>
    {children}
  </section>
);

/**
 * The LDAP / Active Directory settings (as MaxKey's and Keycloak's LDAP screens ask them): where the
 * directory is and how the connection is encrypted, the service account that searches it, where and
 * which users are, which attributes fill the account, and where the groups are.
 */
export function LdapFields({ form, storedSecret }: { form: FormInstance<AuthSourceFormValues>; storedSecret: boolean }) {
  const url = text(Form.useWatch(['ldap', 'url'], form));
  const startTls = Boolean(Form.useWatch(['ldap', 'startTls'], form));
  const adDomain = text(Form.useWatch(['ldap', 'adDomain'], form)).trim();
  const mapping = Form.useWatch(['ldap', 'mapping'], form) as Partial<LdapAttributeMapping> | undefined;
  const ldaps = isLdapsUrl(url);
  const offerAd = adDomain !== '' && !AuthSourceRules.adDomain(adDomain) && !sameMapping(mapping, AD_MAPPING);

  const applyAdSettings = () => {
    const current = form.getFieldValue('ldap') as Partial<AuthSourceFormValues['ldap']>;
    const userFilter = text(current.userFilter).trim();
    const groupFilter = text(current.groupFilter).trim();
    form.setFieldValue(['ldap', 'mapping'], { ...AD_MAPPING });
    // The filters are replaced only while they are still the OpenLDAP defaults (or empty).
    if (!userFilter || userFilter === LDAP_DEFAULTS.userFilter) form.setFieldValue(['ldap', 'userFilter'], AD_USER_FILTER);
    if (!groupFilter || groupFilter === LDAP_DEFAULTS.groupFilter) form.setFieldValue(['ldap', 'groupFilter'], AD_GROUP_FILTER);
  };

  const encryption = ldaps
    ? 'ldaps:// 地址在连接时即使用 TLS 加密'
    : startTls
      ? '连接后以 StartTLS 升级为加密连接'
      : '未加密：绑定密码和用户登录密码将以明文传输，建议使用 ldaps:// 或启用 StartTLS';

  return (
    <>
      <Section title="连接">
        <Form.Item
          name={['ldap', 'url']}
          label="地址"
          required
          rules={[tenantRule(AuthSourceRules.url)]}
          extra="ldap:// 默认端口 389，ldaps:// 默认端口 636"
        >
          <Input placeholder="ldap://ldap.example.com:389" inputMode="url" maxLength={LDAP_TEXT_MAX} />
        </Form.Item>
        <Form.Item label="加密方式" extra={encryption}>
          <div className="auth-sources__inline">
            <Form.Item
              name={['ldap', 'startTls']}
              valuePropName="checked"
              noStyle
              dependencies={[['ldap', 'url']]}
              rules={[
                ({ getFieldValue }) => ({
                  validator: async (_rule, value: unknown) => {
                    const message = AuthSourceRules.startTls(Boolean(value), text(getFieldValue(['ldap', 'url'])));
                    if (message) throw new Error(message);
                  },
                }),
              ]}
            >
              <Switch aria-label="StartTLS" disabled={ldaps} />
            </Form.Item>
            <span aria-hidden>StartTLS</span>
          </div>
        </Form.Item>
        <Form.Item
          name={['ldap', 'bindDn']}
          label="绑定账号（DN）"
          required
          dependencies={[['ldap', 'adDomain']]}
          rules={[ruleWith(['ldap', 'adDomain'], AuthSourceRules.bindDn)]}
          extra={
            adDomain
              ? '用于查询目录的服务账号；Active Directory 也可填写 用户名@域名 或 NetBIOS 域名\\用户名'
              : '用于查询目录的服务账号，只需读取权限'
          }
        >
          <Input placeholder="cn=admin,dc=example,dc=com" maxLength={LDAP_TEXT_MAX} />
        </Form.Item>
        <SecretField type="ldap" stored={storedSecret} />
      </Section>
      <Section title="用户">
        <Form.Item name={['ldap', 'baseDn']} label="用户基准 DN" required rules={[tenantRule(AuthSourceRules.baseDn)]}>
          <Input placeholder="ou=people,dc=example,dc=com" maxLength={LDAP_TEXT_MAX} />
        </Form.Item>
        <Form.Item
          name={['ldap', 'userFilter']}
          label="用户过滤条件"
          required
          rules={[tenantRule(AuthSourceRules.userFilter)]}
          extra="RFC 4515 格式，如 (objectClass=inetOrgPerson)；AD 常用 (&(objectCategory=person)(objectClass=user))"
        >
          <Input placeholder={LDAP_DEFAULTS.userFilter} maxLength={LDAP_TEXT_MAX} className="auth-sources__code-input" />
        </Form.Item>
        <Form.Item
          name={['ldap', 'adDomain']}
          label="AD 域"
          rules={[tenantRule(AuthSourceRules.adDomain)]}
          extra="填写后按 Active Directory 处理（objectGUID、已禁用账号），用户也可用 用户名@域名 登录"
        >
          <Input placeholder="corp.example.com" maxLength={LDAP_TEXT_MAX} />
        </Form.Item>
        {offerAd && (
          <Alert
            className="auth-sources__offer"
            type="info"
            showIcon
            title={`Active Directory 常用的属性映射：用户名 ${AD_MAPPING.username}、姓名 ${AD_MAPPING.name}、手机号 ${AD_MAPPING.phone}、邮箱 ${AD_MAPPING.email}`}
            action={
              <Button size="small" onClick={applyAdSettings}>
                使用 AD 常用设置
              </Button>
            }
          />
        )}
      </Section>
      <Section title="属性映射">
        <div className="auth-sources__mapping">
          {MAPPING_FIELDS.map(({ key, label, extra }) => (
            <Form.Item
              key={key}
              name={['ldap', 'mapping', key]}
              label={label}
              required={key === 'username'}
              rules={[tenantRule(key === 'username' ? AuthSourceRules.usernameAttribute : AuthSourceRules.attribute)]}
              extra={extra}
            >
              <Input placeholder={LDAP_DEFAULTS.mapping[key]} maxLength={LDAP_TEXT_MAX} className="auth-sources__code-input" />
            </Form.Item>
          ))}
        </div>
      </Section>
      <Section title="组（可选）">
        <Form.Item
          name={['ldap', 'groupBaseDn']}
          label="组基准 DN"
          rules={[tenantRule(AuthSourceRules.groupBaseDn)]}
          extra="同步账号组时从此处读取组及其成员；留空则不读取组"
        >
          <Input placeholder="ou=groups,dc=example,dc=com" maxLength={LDAP_TEXT_MAX} />
        </Form.Item>
        <Form.Item
          name={['ldap', 'groupFilter']}
          label="组过滤条件"
          dependencies={[['ldap', 'groupBaseDn']]}
          rules={[ruleWith(['ldap', 'groupBaseDn'], AuthSourceRules.groupFilter)]}
        >
          <Input placeholder={LDAP_DEFAULTS.groupFilter} maxLength={LDAP_TEXT_MAX} className="auth-sources__code-input" />
        </Form.Item>
      </Section>
    </>
  );
}
