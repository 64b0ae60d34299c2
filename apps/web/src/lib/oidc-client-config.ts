import type { OidcAppScope, OidcClientType, OidcEndpoints } from '@portal/shared';

/** One file of a relying party's configuration, ready to copy. */
export interface OidcConfigFile {
  name: string;
  language: 'yaml' | 'javascript' | 'python';
  code: string;
}

/** The configuration of one OpenID Connect client library for one application. */
export interface OidcClientGuide {
  key: 'spring' | 'node' | 'python';
  label: string;
  /** What the integrator must know besides the files (a sentence or two). */
  note: string;
  files: OidcConfigFile[];
}

/** What the samples are built from: the application's settings and the provider's addresses. */
export interface OidcGuideInput {
  name: string;
  clientId: string;
  clientType: OidcClientType;
  /** The registered 回调地址 the samples use (the first one). */
  redirectUri: string;
  /** The registered 登出回调地址 ('' for none). */
  postLogoutRedirectUri: string;
  scopes: readonly OidcAppScope[];
  endpoints: OidcEndpoints;
}

/** A string literal for YAML, JavaScript and Python alike (all read JSON's double-quoted strings). */
const quoted = (value: string) => JSON.stringify(value);

/** An address as a URL, or undefined (the console shows what was registered, checked by the server). */
function parsed(address: string): URL | undefined {
  try {
    return new URL(address);
  } catch {
    return undefined;
  }
}
const pathOf = (address: string) => parsed(address)?.pathname ?? '/callback';
const originOf = (address: string) => parsed(address)?.origin ?? address;

function springGuide(input: OidcGuideInput): OidcClientGuide {
  const confidential = input.clientType === 'confidential';
  const yaml = `# 统一身份认证（OpenID Connect）：${input.name}
# 依赖：org.springframework.boot:spring-boot-starter-oauth2-client
spring:
  security:
    oauth2:
      client:
        provider:
          portal:
            # 由发现文档 ${input.endpoints.discoveryUrl} 取得各端点与签名公钥
            issuer-uri: ${input.endpoints.issuer}
        registration:
          portal:
            provider: portal
            client-id: ${input.clientId}
${
  confidential
    ? `            # 客户端密钥只在创建或重置时显示一次：放在环境变量中，不要写进代码库
            client-secret: \${PORTAL_CLIENT_SECRET}
            client-authentication-method: client_secret_basic`
    : `            # 公开客户端：没有密钥，Spring Security 自动使用 PKCE（S256）
            client-authentication-method: none`
}
            authorization-grant-type: authorization_code
            # 须与登记的回调地址完全一致
            redirect-uri: ${quoted(input.redirectUri)}
            scope: ${input.scopes.join(',')}`;
  return {
    key: 'spring',
    label: 'Java · Spring Security',
    note: `写入 application.yml 后，在 SecurityFilterChain 中启用 http.oauth2Login()；Spring Security 默认在 /login/oauth2/code/portal 接收回调，登记的回调地址须与上面的 redirect-uri 一致。${
      input.postLogoutRedirectUri ? '退出时可用 OidcClientInitiatedLogoutSuccessHandler 跳转到结束会话地址。' : ''
    }`,
    files: [{ name: 'application.yml', language: 'yaml', code: yaml }],
  };
}

function nodeGuide(input: OidcGuideInput): OidcClientGuide {
  const confidential = input.clientType === 'confidential';
  const code = `// 统一身份认证（OpenID Connect）：${input.name}
// npm install openid-client@6 express@5 express-session
import express from 'express';
import session from 'express-session';
import * as client from 'openid-client';

const config = await client.discovery(
  new URL(${quoted(input.endpoints.issuer)}),
  ${quoted(input.clientId)},
${confidential ? '  process.env.PORTAL_CLIENT_SECRET, // 客户端密钥：只在创建或重置时显示一次' : '  undefined,\n  client.None(), // 公开客户端：没有密钥，以 PKCE 证明'}
);
const REDIRECT_URI = ${quoted(input.redirectUri)}; // 须与登记的回调地址完全一致

const app = express();
app.use(session({ secret: process.env.SESSION_SECRET, resave: false, saveUninitialized: false }));

app.get('/login', async (req, res) => {
  // 授权码 + PKCE（S256）：验证码只留在服务端会话中
  const verifier = client.randomPKCECodeVerifier();
  req.session.oidc = { verifier, state: client.randomState() };
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT_URI,
    scope: ${quoted(input.scopes.join(' '))},
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state: req.session.oidc.state,
  });
  res.redirect(url.href);
});

app.get(${quoted(pathOf(input.redirectUri))}, async (req, res) => {
  const { verifier, state } = req.session.oidc ?? {};
  const tokens = await client.authorizationCodeGrant(config, new URL(req.originalUrl, ${quoted(originOf(input.redirectUri))}), {
    pkceCodeVerifier: verifier,
    expectedState: state,
  });
  // ID 令牌已校验签名、签发方与受众；声明按授权范围返回
  req.session.user = tokens.claims();
  res.redirect('/');
});

app.listen(${Number(parsed(input.redirectUri)?.port) || 3000});`;
  return {
    key: 'node',
    label: 'Node.js · openid-client',
    note: 'openid-client 6 由发现文档取得端点并校验 ID 令牌；回调路径须与登记的回调地址一致。',
    files: [{ name: 'server.mjs', language: 'javascript', code }],
  };
}

function pythonGuide(input: OidcGuideInput): OidcClientGuide {
  const confidential = input.clientType === 'confidential';
  const code = `# 统一身份认证（OpenID Connect）：${input.name}
# pip install authlib flask requests
import os
from authlib.integrations.flask_client import OAuth
from flask import Flask, redirect, session

app = Flask(__name__)
app.secret_key = os.environ["SESSION_SECRET"]
oauth = OAuth(app)
oauth.register(
    "portal",
    client_id=${quoted(input.clientId)},
${
  confidential
    ? '    client_secret=os.environ["PORTAL_CLIENT_SECRET"],  # 只在创建或重置时显示一次'
    : '    client_secret=None,  # 公开客户端：没有密钥，以 PKCE 证明'
}
    server_metadata_url=${quoted(input.endpoints.discoveryUrl)},
    client_kwargs={
        "scope": ${quoted(input.scopes.join(' '))},
        "code_challenge_method": "S256",${confidential ? '' : '\n        "token_endpoint_auth_method": "none",'}
    },
)
REDIRECT_URI = ${quoted(input.redirectUri)}  # 须与登记的回调地址完全一致


@app.route("/login")
def login():
    return oauth.portal.authorize_redirect(REDIRECT_URI)


@app.route(${quoted(pathOf(input.redirectUri))})
def callback():
    token = oauth.portal.authorize_access_token()  # 校验 state、PKCE 与 ID 令牌
    session["user"] = token["userinfo"]
    return redirect("/")`;
  return {
    key: 'python',
    label: 'Python · Authlib',
    note: 'Authlib 的 Flask 集成由发现文档取得端点与公钥；Django、FastAPI 的集成用法相同。',
    files: [{ name: 'app.py', language: 'python', code }],
  };
}

/** Spring Security, Node openid-client and Python Authlib configurations for one OpenID Connect application. */
export function oidcClientGuides(input: OidcGuideInput): OidcClientGuide[] {
  return [springGuide(input), nodeGuide(input), pythonGuide(input)];
}

/** The provider's addresses with what a relying party does with each. */
export function oidcEndpointEntries(endpoints: OidcEndpoints): { key: keyof OidcEndpoints; label: string; value: string; note: string }[] {
  return [
    { key: 'issuer', label: 'Issuer', value: endpoints.issuer, note: 'ID 令牌的 iss；多数客户端库只需此项与客户端 ID' },
    { key: 'discoveryUrl', label: '发现文档', value: endpoints.discoveryUrl, note: 'OpenID Connect Discovery：端点、算法与支持的范围' },
    { key: 'authorizationEndpoint', label: '授权端点', value: endpoints.authorizationEndpoint, note: '授权码 + PKCE（S256）' },
    { key: 'tokenEndpoint', label: '令牌端点', value: endpoints.tokenEndpoint, note: '用授权码或刷新令牌换取令牌' },
    { key: 'userinfoEndpoint', label: '用户信息端点', value: endpoints.userinfoEndpoint, note: '用访问令牌读取声明' },
    { key: 'jwksUri', label: 'JWKS', value: endpoints.jwksUri, note: '校验 ID 令牌签名的公钥' },
    { key: 'revocationEndpoint', label: '令牌撤销端点', value: endpoints.revocationEndpoint, note: 'RFC 7009' },
    { key: 'introspectionEndpoint', label: '令牌内省端点', value: endpoints.introspectionEndpoint, note: 'RFC 7662' },
    {
      key: 'endSessionEndpoint',
      label: '结束会话端点',
      value: endpoints.endSessionEndpoint,
      note: '应用发起的退出（RP-Initiated Logout）',
    },
  ];
}
