import { type ApiReferenceGroup, type ApiReferenceOperation, oidcEndpoints } from '@portal/shared';

type Parameter = ApiReferenceOperation['parameters'][number];

const shellQuote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

const EXAMPLE_CLIENT = 'hengyue-inspection';
const EXAMPLE_REDIRECT = 'https://inspection.example.cn/callback';
const CLIENT_AUTH = `-u ${shellQuote(`${EXAMPLE_CLIENT}:$CLIENT_SECRET`)}`;

const query = (name: string, required: boolean, description: string, type = 'string'): Parameter => ({
  name,
  in: 'query',
  required,
  type,
  description,
});
const form = (name: string, required: boolean, description: string, type = 'string'): Parameter => ({
  name,
  in: 'body',
  required,
  type,
  description,
});
const BEARER: Parameter = {
  name: 'Authorization',
  in: 'header',
  required: true,
  type: 'string',
  description: 'Bearer 访问令牌',
};
const CLIENT_BASIC: Parameter = {
  name: 'Authorization',
  in: 'header',
  required: false,
  type: 'string',
  description:
    '机密客户端：Basic（客户端 ID 与密钥，client_secret_basic）；也可在请求体中以 client_id、client_secret 提交；公开客户端只提交 client_id',
};

const json = (value: unknown) => JSON.stringify(value, null, 2);

/**
 * The OpenID Connect provider's endpoints (`{PUBLIC_URL}/oidc`) for the API reference. They are the
 * provider's, not routes with schemas in the OpenAPI document, so they are written out here, each with
 * the specification clause it follows; the curl examples are addressed to this deployment's issuer.
 */
export function oidcReferenceGroup(portalBase: string): ApiReferenceGroup {
  const e = oidcEndpoints(`${portalBase}/oidc`);
  const operations: ApiReferenceOperation[] = [
    {
      method: 'GET',
      path: '/oidc/.well-known/openid-configuration',
      summary: '发现文档（OpenID Connect Discovery 1.0）',
      description: '签发方（issuer）、各端点地址、支持的授权范围、声明与签名算法。多数客户端库只需此地址（或 issuer）与客户端 ID。',
      parameters: [],
      curl: `curl -sS ${shellQuote(e.discoveryUrl)}`,
      responseExample: json({
        issuer: e.issuer,
        authorization_endpoint: e.authorizationEndpoint,
        token_endpoint: e.tokenEndpoint,
        userinfo_endpoint: e.userinfoEndpoint,
        jwks_uri: e.jwksUri,
        revocation_endpoint: e.revocationEndpoint,
        introspection_endpoint: e.introspectionEndpoint,
        end_session_endpoint: e.endSessionEndpoint,
        response_types_supported: ['code'],
        code_challenge_methods_supported: ['S256'],
        scopes_supported: ['openid', 'offline_access', 'profile', 'email', 'phone', 'enterprise', 'groups', 'roles'],
        id_token_signing_alg_values_supported: ['ES256', 'RS256'],
      }),
    },
    {
      method: 'GET',
      path: '/oidc/auth',
      summary: '授权端点（授权码 + PKCE）',
      description:
        '浏览器访问（OIDC Core §3.1.2）。经统一登录页登录并通过应用授权后，303 跳转回 redirect_uri 并附 code 与 state；未获授权的账号看到“您无权访问该应用”，不签发授权码。' +
        '只支持 response_type=code；公开客户端必须使用 PKCE（S256）。',
      parameters: [
        query('client_id', true, '应用列表中 OpenID Connect 应用的客户端 ID'),
        query('response_type', true, '固定为 code'),
        query('redirect_uri', true, '须与登记的回调地址之一完全一致'),
        query('scope', true, '空格分隔，须含 openid；只能申请应用持有的范围'),
        query('state', false, '防 CSRF 的随机值，原样返回'),
        query('nonce', false, '写入 ID 令牌，防重放'),
        query('code_challenge', false, 'PKCE：code_verifier 的 SHA-256（base64url）；公开客户端必填'),
        query('code_challenge_method', false, '固定为 S256'),
        query('prompt', false, 'login：重新输入密码；none：不显示页面，未登录时返回 login_required'),
        query('max_age', false, '登录时间超过此秒数则重新登录', 'integer'),
      ],
      curl: `curl -i ${shellQuote(
        `${e.authorizationEndpoint}?${new URLSearchParams({
          client_id: EXAMPLE_CLIENT,
          response_type: 'code',
          redirect_uri: EXAMPLE_REDIRECT,
          scope: 'openid profile',
          state: 'af0ifjsldkj',
          code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
          code_challenge_method: 'S256',
        })}`,
      )}`,
      responseExample: `HTTP/1.1 303 See Other\nLocation: ${EXAMPLE_REDIRECT}?code=…&state=af0ifjsldkj&iss=${encodeURIComponent(e.issuer)}`,
    },
    {
      method: 'POST',
      path: '/oidc/token',
      summary: '令牌端点',
      description:
        '以授权码（authorization_code，带 code_verifier）或刷新令牌（refresh_token，每次使用后轮换，旧令牌再次使用将撤销整个授权）换取令牌（OIDC Core §3.1.3，RFC 6749 §4.1.3、§6）；' +
        '机器客户端以 client_credentials 换取访问令牌。请求体为 application/x-www-form-urlencoded。',
      parameters: [
        CLIENT_BASIC,
        form('grant_type', true, 'authorization_code、refresh_token 或 client_credentials'),
        form('code', false, '授权码（authorization_code 时必填，只能使用一次，60 秒内有效）'),
        form('redirect_uri', false, '与授权请求中的相同（authorization_code 时必填）'),
        form('code_verifier', false, 'PKCE 验证码（授权请求带了 code_challenge 时必填）'),
        form('refresh_token', false, '刷新令牌（refresh_token 时必填）'),
        form('scope', false, 'client_credentials：机器客户端申请的范围'),
      ],
      curl: `curl -sS ${CLIENT_AUTH} ${shellQuote(e.tokenEndpoint)} -d grant_type=authorization_code -d code=… -d ${shellQuote(
        `redirect_uri=${EXAMPLE_REDIRECT}`,
      )} -d code_verifier=…`,
      responseExample: json({
        access_token: '…',
        expires_in: 600,
        id_token: 'eyJhbGciOiJFUzI1NiIsImtpZCI6Ii4uLiJ9.…',
        refresh_token: '…',
        scope: 'openid profile offline_access',
        token_type: 'Bearer',
      }),
    },
    {
      method: 'GET',
      path: '/oidc/me',
      summary: '用户信息端点',
      description:
        '以访问令牌读取账号的声明（OIDC Core §5.3），按授权范围返回；账号失去应用授权后令牌即失效（401 invalid_token）。也接受 POST。',
      parameters: [BEARER],
      curl: `curl -sS -H 'Authorization: Bearer '"$ACCESS_TOKEN" ${shellQuote(e.userinfoEndpoint)}`,
      responseExample: json({
        sub: '10086',
        name: '王芳',
        preferred_username: 'wangfang',
        enterprise_name: '徐州恒岳重工机械有限公司',
        groups: ['质量部'],
      }),
    },
    {
      method: 'GET',
      path: '/oidc/jwks',
      summary: '签名公钥（JWKS）',
      description: '校验 ID 令牌签名用的公钥集合（RFC 7517）。密钥轮换时新公钥先发布、后签名，旧公钥继续发布到其签发的令牌全部过期。',
      parameters: [],
      curl: `curl -sS ${shellQuote(e.jwksUri)}`,
      responseExample: json({ keys: [{ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig', kid: '…', x: '…', y: '…' }] }),
    },
    {
      method: 'POST',
      path: '/oidc/token/revocation',
      summary: '令牌撤销（RFC 7009）',
      description: '撤销本客户端的访问令牌或刷新令牌（撤销刷新令牌同时结束其授权）；无论令牌是否存在都返回 200。',
      parameters: [CLIENT_BASIC, form('token', true, '要撤销的令牌'), form('token_type_hint', false, 'access_token 或 refresh_token')],
      curl: `curl -sS ${CLIENT_AUTH} ${shellQuote(e.revocationEndpoint)} -d token=…`,
      responseExample: '（HTTP 200，空应答体）',
    },
    {
      method: 'POST',
      path: '/oidc/token/introspection',
      summary: '令牌内省（RFC 7662）',
      description:
        '查询本客户端签发的令牌是否有效；其他客户端的令牌、已过期或已撤销的令牌，以及账号已失去应用授权的令牌返回 active: false。',
      parameters: [CLIENT_BASIC, form('token', true, '要查询的令牌'), form('token_type_hint', false, 'access_token 或 refresh_token')],
      curl: `curl -sS ${CLIENT_AUTH} ${shellQuote(e.introspectionEndpoint)} -d token=…`,
      responseExample: json({
        active: true,
        client_id: EXAMPLE_CLIENT,
        sub: '10086',
        scope: 'openid profile',
        token_type: 'Bearer',
        exp: 1764320400,
        iss: e.issuer,
      }),
    },
    {
      method: 'GET',
      path: '/oidc/session/end',
      summary: '结束会话（RP-Initiated Logout 1.0）',
      description:
        '应用发起的退出：确认后结束统一身份认证会话，并向本次会话登录过的其他应用发送单点登出（CAS logoutRequest 与 OIDC 后端登出 logout_token），再跳转到登记的登出回调地址。',
      parameters: [
        query('id_token_hint', false, '应用持有的 ID 令牌'),
        query('client_id', false, '客户端 ID（未带 id_token_hint 时）'),
        query('post_logout_redirect_uri', false, '须与登记的登出回调地址之一完全一致'),
        query('state', false, '原样带回登出回调地址'),
      ],
      curl: `curl -i ${shellQuote(`${e.endSessionEndpoint}?${new URLSearchParams({ client_id: EXAMPLE_CLIENT })}`)}`,
      responseExample: '<!DOCTYPE html><html lang="zh-CN">…确认退出…</html>',
    },
  ];
  return {
    key: 'oidc',
    title: '统一身份认证（OpenID Connect）',
    description:
      '门户内置的 OpenID Connect 提供方与 OAuth 2.1 授权服务器，签发方为 ' +
      `${e.issuer}。应用须先由企业管理员在控制台「应用管理 → 应用列表」以 OpenID Connect 协议登记（客户端 ID、回调地址），并在「应用授权」中授权账号；` +
      '与 CAS 应用共用同一登录会话。',
    operations,
  };
}
