import type { AuthSourceType, ChatSourceType } from '@portal/shared';

/** What the type picker says of each kind of source. */
export const SOURCE_TYPE_DESCRIPTIONS: Record<AuthSourceType, string> = {
  ldap: '企业目录（OpenLDAP、Active Directory 等）：账号以目录密码登录，并可同步用户与组',
  wecom: '企业微信扫码登录，同步通讯录的成员与部门',
  dingtalk: '钉钉扫码登录，同步通讯录的成员与部门',
  feishu: '飞书扫码登录，同步通讯录的成员与部门',
  oidc: '企业自己的身份提供方（Entra ID、Okta、Keycloak 等）：按邮箱域名跳转登录，可首次登录自动创建账号',
  saml: '企业自己的 SAML 2.0 身份提供方（ADFS、Entra ID、Okta、Shibboleth 等）：导入元数据，按邮箱域名跳转登录',
};

/** The label of the source's secret in the form: the name its own console gives it. */
export const SECRET_LABELS: Record<AuthSourceType, string> = {
  ldap: '绑定密码',
  wecom: 'Secret',
  dingtalk: 'Client Secret',
  feishu: 'App Secret',
  oidc: '客户端密钥（Client Secret）',
  // SAML keeps no secret: the IdP's certificates are public, our signing key is the portal's.
  saml: '',
};

/** Where the sign-in callback address goes in each platform's console. */
export const CALLBACK_HINTS: Record<ChatSourceType, string> = {
  wecom: '在企业微信管理后台「应用管理 → 自建应用 → 企业微信授权登录」中，将此地址的域名设为授权回调域',
  dingtalk: '在钉钉开发者后台「应用 → 开发配置 → 安全设置」的重定向 URL（回调域名）中填入此地址',
  feishu: '在飞书开发者后台「应用 → 开发配置 → 安全设置」的重定向 URL 中添加此地址',
};

/** The steps 测试连接 goes through, to say what will be tried before the first answer. */
export const TEST_STEPS: Record<'ldap' | 'chat' | 'oidc' | 'saml', string> = {
  ldap: '依次检查：连接服务器、以绑定账号绑定、按用户基准 DN 与过滤条件查询用户',
  chat: '依次检查：以应用凭据获取访问令牌、读取通讯录',
  oidc: '依次检查：读取发现文档、检查端点、读取签名公钥（JWKS）；保存后可“测试登录”，在弹窗中真实登录一次并查看收到的声明',
  saml: '依次检查：获取并解析元数据、核对实体 ID 与签名证书；保存后可“测试登录”，在弹窗中真实登录一次并查看收到的属性',
};

/** Active Directory's usual filters, offered with AD_MAPPING when AD 域 is filled in. */
export const AD_USER_FILTER = '(&(objectCategory=person)(objectClass=user))';
export const AD_GROUP_FILTER = '(objectClass=group)';
