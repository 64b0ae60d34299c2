import { type ApiReferenceGroup, type ApiReferenceOperation, samlEndpoints } from '@portal/shared';

type Parameter = ApiReferenceOperation['parameters'][number];

const shellQuote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;
const query = (name: string, required: boolean, description: string): Parameter => ({
  name,
  in: 'query',
  required,
  type: 'string',
  description,
});
const MESSAGE = '（HTTP-Redirect：DEFLATE 压缩后 Base64，再 URL 编码；HTTP-POST：Base64 表单字段）';

/**
 * The SAML 2.0 identity provider's endpoints (`{PUBLIC_URL}/saml`) for the API reference, written out
 * like the OpenID provider's (browser bindings, not JSON routes), each with the clause it follows.
 */
export function samlReferenceGroup(portalBase: string): ApiReferenceGroup {
  const e = samlEndpoints(portalBase);
  const operations: ApiReferenceOperation[] = [
    {
      method: 'GET',
      path: '/saml/metadata',
      summary: 'IdP 元数据（SAML Metadata 2.0）',
      description:
        '实体 ID（即本地址）、签名证书（轮换期间新旧证书同时列出）、单点登录与单点登出地址及绑定、支持的 NameID 格式。应用（SP）导入此元数据即可完成 IdP 配置。',
      parameters: [],
      curl: `curl -sS ${shellQuote(e.metadataUrl)}`,
      responseExample:
        `<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${e.entityId}">\n` +
        '  <IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">\n' +
        '    <KeyDescriptor use="signing">…X509Certificate…</KeyDescriptor>\n' +
        `    <SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${e.sloUrl}"/>\n` +
        `    <SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${e.ssoUrl}"/>\n` +
        '  </IDPSSODescriptor>\n</EntityDescriptor>',
    },
    {
      method: 'GET',
      path: '/saml/sso',
      summary: '单点登录（SP 发起，AuthnRequest）',
      description:
        '浏览器访问（SAML Profiles §4.1），HTTP-Redirect（GET）或 HTTP-POST（表单）。Issuer 须为已登记应用的 SP 实体 ID；AssertionConsumerServiceURL 若给出须与登记的一致；' +
        '要求请求签名的应用须签名（RSA-SHA256）；IssueInstant 在 5 分钟内（允许 3 分钟时钟偏差）；同一请求 ID 只受理一次。经统一登录页登录并通过应用授权后，' +
        '签名的响应经 HTTP-POST 发往登记的断言消费地址（ForceAuthn 时重新登录）。不合规的请求只显示错误页，不向任何地址发送响应。',
      parameters: [
        query('SAMLRequest', true, `AuthnRequest${MESSAGE}`),
        query('RelayState', false, '原样随响应返回'),
        query('SigAlg', false, 'HTTP-Redirect 签名算法（要求请求签名时必填）'),
        query('Signature', false, 'HTTP-Redirect 签名（要求请求签名时必填）'),
      ],
      curl: `curl -sS -o /dev/null -w '%{http_code} %{redirect_url}\\n' ${shellQuote(`${e.ssoUrl}?SAMLRequest=…`)}`,
      responseExample: '303 → /cas/login?service=…（统一登录页）；登录后 200：自动提交到断言消费地址的表单（SAMLResponse、RelayState）',
    },
    {
      method: 'GET',
      path: '/saml/slo',
      summary: '单点登出（SP 发起，LogoutRequest）',
      description:
        '浏览器访问（SAML Profiles §4.4），HTTP-Redirect 或 HTTP-POST。SessionIndex 与 NameID 须为该应用的一次登录；结束对应的统一登录会话，' +
        '通知其他应用（单点登出记录），再以签名的 LogoutResponse 经 HTTP-POST 回到应用登记的单点登出地址。会话因其他原因结束时，平台向该地址发送签名的 LogoutRequest（HTTP-POST）。',
      parameters: [
        query('SAMLRequest', true, `LogoutRequest${MESSAGE}`),
        query('RelayState', false, '原样随 LogoutResponse 返回'),
        query('SigAlg', false, 'HTTP-Redirect 签名算法（要求请求签名时必填）'),
        query('Signature', false, 'HTTP-Redirect 签名（要求请求签名时必填）'),
      ],
      curl: `curl -sS ${shellQuote(`${e.sloUrl}?SAMLRequest=…`)}`,
      responseExample: '200：自动提交到应用单点登出地址的表单（SAMLResponse）',
    },
  ];
  return {
    key: 'saml',
    title: '统一身份认证（SAML 2.0）',
    description:
      `门户内置的 SAML 2.0 身份提供方（IdP），实体 ID 为 ${e.entityId}。应用须先由企业管理员在控制台「应用管理 → 应用列表」以 SAML 2.0 协议登记` +
      '（SP 实体 ID、断言消费地址，可上传 SP 元数据），并在「应用授权」中授权账号；与 CAS、OpenID Connect 应用共用同一登录会话与单点登出。',
    operations,
  };
}
