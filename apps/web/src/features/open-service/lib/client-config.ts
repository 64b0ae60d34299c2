import type { ReleasableAttribute, SsoApplicationRow } from '@portal/shared';

/** One file of a client's configuration, ready to copy. */
export interface ClientConfigFile {
  /** Where it goes (pom.xml, application.yml, server.js…). */
  name: string;
  /** For the code block's label. */
  language: 'xml' | 'yaml' | 'properties' | 'java' | 'javascript' | 'python' | 'shell';
  code: string;
}

/** The configuration of one CAS client for one application. */
export interface ClientGuide {
  key: 'java' | 'node' | 'python-django' | 'python-flask';
  label: string;
  /** What the integrator must know besides the files (one or two sentences). */
  note: string;
  files: ClientConfigFile[];
}

/** What the snippets are built from: the application's settings and the CAS addresses the server gave. */
export interface ClientConfigInput {
  name: string;
  /** The service address the client runs at (one of the application's). */
  service: string;
  /** The application's own 注销地址 ('' = the service address receives single logout). */
  logoutUrl: string;
  attributes: readonly ReleasableAttribute[];
  integration: SsoApplicationRow['integration'];
}

/** Java CAS client for Spring Boot 3 (Jakarta); 4.0.3 is its current line's release this guide was checked against. */
const JAVA_CLIENT_VERSION = '4.0.3';

const withoutTrailingSlash = (url: string) => url.replace(/\/+$/, '');

/** A string literal for YAML, Java, JavaScript and Python alike (all read JSON's double-quoted strings). */
const quoted = (value: string) => JSON.stringify(value);

/** The application's origin and path: the Java client builds its service URL from the origin and the request. */
function serviceParts(service: string): { origin: string; path: string } {
  try {
    const url = new URL(service);
    return { origin: url.origin, path: url.pathname || '/' };
  } catch {
    return { origin: service, path: '/' };
  }
}

function attributeList(attributes: readonly ReleasableAttribute[]): string {
  return attributes.length > 0 ? attributes.join('、') : '无（仅账号）';
}

function javaGuide(input: ClientConfigInput): ClientGuide {
  const cas = withoutTrailingSlash(input.integration.casServerUrlPrefix);
  const { origin } = serviceParts(input.service);
  const pom = `<!-- Apereo Java CAS Client：Spring Boot 3（Jakarta）用 4.x -->
<dependency>
  <groupId>org.apereo.cas.client</groupId>
  <artifactId>cas-client-support-springboot</artifactId>
  <version>${JAVA_CLIENT_VERSION}</version>
</dependency>`;
  const yaml = `# 统一身份认证（CAS 3.0）：${input.name}
cas:
  server-url-prefix: ${cas}
  server-login-url: ${input.integration.loginUrl}
  # 应用的访问地址（协议://主机[:端口]），与服务地址 ${input.service} 一致
  client-host-url: ${origin}
  # CAS3：到 ${input.integration.validateUrl} 校验票据并取得返回属性
  validation-type: CAS3
  # 接收统一认证的单点注销请求（POST logoutRequest）
  single-logout:
    enabled: true`;
  const properties = `# 与 application.yml 等价，二选一
cas.server-url-prefix=${cas}
cas.server-login-url=${input.integration.loginUrl}
cas.client-host-url=${origin}
cas.validation-type=CAS3
cas.single-logout.enabled=true`;
  const attributeReads = input.attributes.map((a) => `    // ${a}: principal.getAttributes().get(${quoted(a)})`).join('\n');
  const java = `import org.apereo.cas.client.authentication.AttributePrincipal;
import org.apereo.cas.client.boot.configuration.EnableCasClient;
// 其余为 Spring Boot 与 Servlet 的常用 import

@SpringBootApplication
@EnableCasClient
public class Application {
  public static void main(String[] args) {
    SpringApplication.run(Application.class, args);
  }
}

@RestController
class MeController {
  /** 当前登录的平台账号与返回属性（${attributeList(input.attributes)}）。 */
  @GetMapping("/me")
  Map<String, Object> me(HttpServletRequest request) {
    AttributePrincipal principal = (AttributePrincipal) request.getUserPrincipal();
${attributeReads || '    // 应用未设置返回属性：只有账号 principal.getName()'}
    return Map.of("username", principal.getName(), "attributes", principal.getAttributes());
  }
}`;
  return {
    key: 'java',
    label: 'Java · Spring Boot',
    note: '引入依赖、在启动类加 @EnableCasClient，再写入下面的配置即可；默认保护全部路径。',
    files: [
      { name: 'pom.xml', language: 'xml', code: pom },
      { name: 'application.yml', language: 'yaml', code: yaml },
      { name: 'application.properties', language: 'properties', code: properties },
      { name: 'Application.java', language: 'java', code: java },
    ],
  };
}

function nodeGuide(input: ClientConfigInput): ClientGuide {
  const cas = withoutTrailingSlash(input.integration.casServerUrlPrefix);
  const { path } = serviceParts(input.service);
  const sloPath = input.logoutUrl ? serviceParts(input.logoutUrl).path : path;
  const code = `// 统一身份认证（CAS 3.0）：${input.name}
// npm install express@5 express-session fast-xml-parser
import express from 'express';
import session from 'express-session';
import { XMLParser } from 'fast-xml-parser';

const CAS = ${quoted(cas)};
const SERVICE = ${quoted(input.service)}; // 已登记的服务地址：登录和校验用同一个
const xml = new XMLParser({ removeNSPrefix: true, parseTagValue: false });
const sessionsByTicket = new Map(); // 票据 → 会话，供单点注销使用（多实例部署请改用共享存储）

const app = express();
app.use(express.urlencoded({ extended: false }));
app.use(session({ secret: process.env.SESSION_SECRET, resave: false, saveUninitialized: false }));

// 单点注销（CAS 协议 2.3.3）：统一认证在用户退出时 POST logoutRequest，结束该票据的会话
app.post(${quoted(sloPath)}, (req, res, next) => {
  const request = req.body?.logoutRequest;
  if (!request) return next();
  const ticket = /<samlp:SessionIndex>([^<]+)<\\/samlp:SessionIndex>/.exec(request)?.[1];
  const sid = ticket && sessionsByTicket.get(ticket);
  if (sid) req.sessionStore.destroy(sid, () => sessionsByTicket.delete(ticket));
  res.sendStatus(200);
});

// 未登录：跳到统一登录；带 ticket 回来：到 /p3/serviceValidate 校验并取得返回属性
app.use(async (req, res, next) => {
  if (req.session.user) return next();
  const { ticket } = req.query;
  if (typeof ticket !== 'string') {
    req.session.returnTo = req.originalUrl;
    return res.redirect(\`\${CAS}/login?service=\${encodeURIComponent(SERVICE)}\`);
  }
  const answer = await fetch(\`\${CAS}/p3/serviceValidate?service=\${encodeURIComponent(SERVICE)}&ticket=\${encodeURIComponent(ticket)}\`);
  const result = xml.parse(await answer.text()).serviceResponse;
  const success = result?.authenticationSuccess;
  if (!success) return res.status(401).send(\`统一认证失败：\${result?.authenticationFailure ?? answer.status}\`);
  // 返回属性：${attributeList(input.attributes)}
  req.session.user = { username: success.user, attributes: success.attributes ?? {} };
  sessionsByTicket.set(ticket, req.sessionID);
  res.redirect(req.session.returnTo ?? ${quoted(path)});
});

app.get(${quoted(path)}, (req, res) => res.json(req.session.user));
app.listen(3000);`;
  return {
    key: 'node',
    label: 'Node.js · Express',
    note: '直接调用 /p3/serviceValidate，无需专门的 CAS 库；工号、手机号等按文本读取（parseTagValue: false），不丢前导零。',
    files: [{ name: 'server.mjs', language: 'javascript', code }],
  };
}

function djangoGuide(input: ClientConfigInput): ClientGuide {
  const cas = `${withoutTrailingSlash(input.integration.casServerUrlPrefix)}/`;
  const { origin } = serviceParts(input.service);
  const renames = [
    ...(input.attributes.includes('name') ? ["'name': 'first_name'"] : []),
    ...(input.attributes.includes('email') ? ["'email': 'email'"] : []),
  ];
  const settings = `# 统一身份认证（CAS 3.0）：${input.name}
# pip install django-cas-ng
INSTALLED_APPS += ['django_cas_ng']
MIDDLEWARE += ['django_cas_ng.middleware.CASMiddleware']
AUTHENTICATION_BACKENDS = [
    'django.contrib.auth.backends.ModelBackend',
    'django_cas_ng.backends.CASBackend',
]

CAS_SERVER_URL = ${quoted(cas)}  # 以 / 结尾
CAS_VERSION = '3'  # 到 p3/serviceValidate 校验，带返回属性
CAS_ROOT_PROXIED_AS = ${quoted(origin)}  # 服务地址的协议与主机
CAS_APPLY_ATTRIBUTES_TO_USER = True
CAS_RENAME_ATTRIBUTES = {${renames.join(', ')}}  # 返回属性：${attributeList(input.attributes)}`;
  const urls = `from django.urls import path
from django_cas_ng import views as cas_views

urlpatterns += [
    path('accounts/login/', cas_views.LoginView.as_view(), name='cas_ng_login'),
    path('accounts/logout/', cas_views.LogoutView.as_view(), name='cas_ng_logout'),
]`;
  return {
    key: 'python-django',
    label: 'Python · Django',
    note: `django-cas-ng 在登录地址接收单点注销：应用列表中的注销地址请填 ${origin}/accounts/login/，服务地址须是该地址的前缀。`,
    files: [
      { name: 'settings.py', language: 'python', code: settings },
      { name: 'urls.py', language: 'python', code: urls },
    ],
  };
}

function flaskGuide(input: ClientConfigInput): ClientGuide {
  const cas = `${withoutTrailingSlash(input.integration.casServerUrlPrefix)}/`;
  const { path } = serviceParts(input.service);
  const code = `# 统一身份认证（CAS 3.0）：${input.name}
# pip install python-cas flask
import os

from cas import CASClient
from flask import Flask, abort, redirect, request, session

app = Flask(__name__)
app.secret_key = os.environ['FLASK_SECRET_KEY']
cas = CASClient(
    version=3,  # 到 p3/serviceValidate 校验，带返回属性
    service_url=${quoted(input.service)},  # 已登记的服务地址
    server_url=${quoted(cas)},  # 以 / 结尾
)


@app.route(${quoted(path)})
def index():
    if 'user' in session:
        # 返回属性：${attributeList(input.attributes)}
        return {'username': session['user'], 'attributes': session['attributes']}
    ticket = request.args.get('ticket')
    if not ticket:
        return redirect(cas.get_login_url())
    user, attributes, _ = cas.verify_ticket(ticket)
    if not user:
        abort(401)
    session['user'], session['attributes'] = user, attributes or {}
    return redirect(${quoted(path)})`;
  return {
    key: 'python-flask',
    label: 'Python · Flask',
    note: 'python-cas 适用于任意 Python Web 框架；Flask 默认把会话存在 Cookie 中，需要单点注销时请改用服务端会话并按票据结束会话。',
    files: [{ name: 'app.py', language: 'python', code }],
  };
}

/** Ready-to-copy client configuration for one application: Java (Spring Boot), Node.js and Python. */
export function clientGuides(input: ClientConfigInput): ClientGuide[] {
  return [javaGuide(input), nodeGuide(input), djangoGuide(input), flaskGuide(input)];
}
