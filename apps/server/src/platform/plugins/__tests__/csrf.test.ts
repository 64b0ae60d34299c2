import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../testing/test-app.js';

/** Every route answering `method`, as a path (parameters filled in), from Fastify's route tree. */
function routesOf(t: TestApp, method: string): string[] {
  const paths: string[] = [];
  const stack: string[] = [];
  for (const line of t.app.printRoutes({ commonPrefix: false, method }).split('\n')) {
    const at = line.indexOf('── ');
    if (at < 0) continue;
    const depth = (at - 1) / 4;
    const [segment = '', methods = ''] = line.slice(at + 3).split(' (');
    stack.length = depth;
    stack.push(segment);
    if (methods.includes(method))
      paths.push(
        stack
          .join('')
          .replace(/:[A-Za-z]+/g, 'x')
          .replace(/\*$/, 'x'),
      );
  }
  return paths;
}

/**
 * Form posts from other sites (the CAS login with its steps — new password, two-factor, passkeys — and 忘记密码,
 * the CAS back-channel logout, an enterprise provider's back-channel logout token and its SAML HTTP-POST binding, the OpenID provider's endpoints that clients post to and its logout
 * confirmation, SAML's HTTP-POST binding) opt out with `config.csrf`.
 */
const FORM_POSTS = new Set([
  'POST /cas/login',
  'POST /cas/login/password',
  'POST /cas/login/two-factor',
  'POST /cas/login/two-factor/enrol',
  'POST /cas/login/two-factor/continue',
  'POST /cas/login/two-factor/method',
  'POST /cas/login/two-factor/passkey',
  'POST /cas/login/passkey',
  'POST /cas/forgot-password',
  'POST /cas/forgot-password/reset',
  'POST /web/portal/cas/callback',
  'POST /oidc/token',
  'POST /oidc/token/introspection',
  'POST /oidc/token/revocation',
  'POST /oidc/me',
  'POST /oidc/session/end/confirm',
  'POST /saml/sso',
  'POST /saml/slo',
  'POST /cas/login/federation/x/backchannel-logout',
  'POST /cas/login/federation/x/callback',
  'POST /cas/login/saml/x/slo',
]);

describe('CSRF check', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses a state-changing call without X-Requested-With on every such route', async () => {
    const routes = ['POST', 'PUT', 'PATCH', 'DELETE'].flatMap((method) => routesOf(t, method).map((path) => `${method} ${path}`));
    // The route tree really was read (the console writes alone are dozens of routes).
    expect(routes.length).toBeGreaterThan(20);
    for (const route of routes) {
      const [method = '', url = ''] = route.split(' ');
      const res = await t.app.inject({ method: method as 'POST', url });
      if (FORM_POSTS.has(route)) {
        // The OpenID provider answers in OAuth's JSON or with its pages, not in the envelope.
        expect(res.body, route).not.toContain('X-Requested-With');
      } else if (route.includes(' /open-api/enterprise/') || route.includes(' /scim/v2')) {
        // The enterprise API and SCIM take a bearer token only, never a cookie, so a cross-site form carries no credential.
        expect([route, res.statusCode]).toEqual([route, 401]);
      } else {
        expect([route, res.statusCode, res.json<{ msg: string }>().msg]).toEqual([route, 403, '非法请求：缺少 X-Requested-With 请求头']);
      }
    }
  });

  it('lets reads through without the header, and refuses a cross-site write that has it', async () => {
    expect((await t.app.inject({ url: '/healthz' })).statusCode).toBe(200);
    const crossSite = await t.app.inject({
      method: 'POST',
      url: '/web-api/register/v1/sms',
      headers: { 'x-requested-with': 'XMLHttpRequest', 'sec-fetch-site': 'cross-site' },
    });
    expect([crossSite.statusCode, crossSite.json<{ msg: string }>().msg]).toEqual([403, '非法请求：不接受跨站提交']);
  });
});
