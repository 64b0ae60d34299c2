import http, { type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Strategy as CasStrategy } from '@coursetable/passport-cas';
import httpCasClient from 'http-cas-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../../seed/accounts-seed.js';
import { createTestApp, type TestApp, testDialects } from '../../../testing/test-app.js';
import { listen, TestBrowser } from '../../../testing/test-browser.js';

/**
 * The embedded CAS server against two independent CAS clients from npm (protocols.md):
 * `http-cas-client` (CAS 3, single logout) and `@coursetable/passport-cas` (version CAS3.0).
 */

type CasHandler = ReturnType<typeof httpCasClient>;
interface Principal {
  user: string;
  attributes?: Record<string, string | string[]>;
}

/** A tiny application protected by http-cas-client: answers the principal as JSON. */
function startClientApp() {
  let handler: CasHandler | undefined;
  const server = http.createServer((req, res) => {
    void (async () => {
      try {
        if (!handler || !(await handler(req, res, {}))) {
          res.end();
          return;
        }
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify((req as IncomingMessage & { principal?: Principal }).principal));
      } catch (err) {
        res.statusCode = 401;
        res.end(`validation failed: ${(err as Error).message}`);
      }
    })();
  });
  return {
    server,
    setHandler(h: CasHandler) {
      handler = h;
    },
    async start(): Promise<string> {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
  };
}

/** Drives a passport strategy the way passport does: one outcome per authenticate() call. */
function authenticate(strategy: CasStrategy, url: string): Promise<{ kind: 'success' | 'fail' | 'redirect' | 'error'; value: unknown }> {
  return new Promise((resolve) => {
    const s = strategy as unknown as Record<string, (arg: unknown) => void>;
    s.success = (user) => resolve({ kind: 'success', value: user });
    s.fail = (info) => resolve({ kind: 'fail', value: info });
    s.redirect = (location) => resolve({ kind: 'redirect', value: location });
    s.error = (err) => resolve({ kind: 'error', value: err });
    const parsed = new URL(url, 'http://placeholder');
    const request = {
      url: parsed.pathname + parsed.search,
      originalUrl: parsed.pathname + parsed.search,
      query: Object.fromEntries(parsed.searchParams),
      headers: { host: 'placeholder' },
      protocol: 'http',
    };
    strategy.authenticate(request as never);
  });
}

describe.each(testDialects())('independent CAS clients against the embedded CAS on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  const clientApp = startClientApp();
  let appBase: string;

  beforeAll(async () => {
    appBase = await clientApp.start();
    t = await createTestApp(dialect, { CAS_SERVICES: appBase, LOGIN_ATTEMPTS_PER_MINUTE: '1000' });
    base = await listen(t.app);
    clientApp.setHandler(httpCasClient({ cas: 3, casServerUrlPrefix: `${base}/cas`, serverName: appBase }));
  });
  afterAll(async () => {
    await new Promise((resolve) => clientApp.server.close(resolve));
    await t.close();
  });

  /** Logs in at the CAS for `service` and answers the ticket from the 303 (not followed). */
  async function ticketFor(service: string, browser = new TestBrowser(base)) {
    const form = await browser.fetch(`/cas/login?service=${encodeURIComponent(service)}`);
    const execution = /name="execution" value="([^"]+)"/.exec(form.text)?.[1] ?? '';
    const res = await browser.fetch(`/cas/login?service=${encodeURIComponent(service)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: 'admin', password: DEMO_PASSWORD, execution }).toString(),
    });
    expect(res.status).toBe(303);
    return new URL(res.location ?? '').searchParams.get('ticket') ?? '';
  }
  const failureCode = async (service: string, ticket: string) => {
    const res = await fetch(`${base}/cas/p3/serviceValidate?${new URLSearchParams({ service, ticket, format: 'JSON' }).toString()}`);
    return (await res.json()) as { serviceResponse: { authenticationFailure?: { code: string } } };
  };

  it('http-cas-client: unauthenticated → CAS login → ticket → CAS 3 validation with attributes', async () => {
    const browser = new TestBrowser(base);
    const first = await browser.fetch(`${appBase}/reports?month=11`);
    expect(first.status).toBe(302);
    const login = new URL(first.location ?? '');
    expect(`${login.origin}${login.pathname}`).toBe(`${base}/cas/login`);
    expect(login.searchParams.get('service')).toBe(`${appBase}/reports?month=11`);

    const hops = await browser.casLogin('admin', DEMO_PASSWORD, login.searchParams.get('service') ?? '');
    const answer = hops.at(-1);
    expect(answer?.url).toBe(`${appBase}/reports?month=11`);
    const principal = JSON.parse(answer?.text ?? '{}') as Principal;
    expect(principal.user).toBe('admin');
    expect(principal.attributes).toMatchObject({ name: '张伟', enterpriseName: '徐州恒岳重工机械有限公司', telephone: '13800000001' });
  });

  it('http-cas-client: a reused ticket is refused (INVALID_TICKET)', async () => {
    const service = `${appBase}/orders`;
    const ticket = await ticketFor(service);
    const browser = new TestBrowser(base);
    const ok = await browser.navigate(`${service}?ticket=${ticket}`);
    expect(JSON.parse(ok.at(-1)?.text ?? '{}')).toMatchObject({ user: 'admin' });
    const replay = await new TestBrowser(base).fetch(`${service}?ticket=${ticket}`);
    expect(replay.status).toBe(401);
    expect((await failureCode(service, ticket)).serviceResponse.authenticationFailure?.code).toBe('INVALID_TICKET');
  });

  it('http-cas-client: a ticket presented to another service fails and is void for its own (INVALID_SERVICE)', async () => {
    const service = `${appBase}/orders`;
    const ticket = await ticketFor(service);
    const elsewhere = await new TestBrowser(base).fetch(`${appBase}/other?ticket=${ticket}`);
    expect(elsewhere.status).toBe(401);
    const own = await new TestBrowser(base).fetch(`${service}?ticket=${ticket}`);
    expect(own.status).toBe(401);
    const second = await ticketFor(service);
    expect((await failureCode(`${appBase}/other`, second)).serviceResponse.authenticationFailure?.code).toBe('INVALID_SERVICE');
    expect((await failureCode(service, second)).serviceResponse.authenticationFailure?.code).toBe('INVALID_TICKET');
  });

  it('http-cas-client: an expired ticket is refused (INVALID_TICKET)', async () => {
    const service = `${appBase}/orders`;
    const ticket = await ticketFor(service);
    await t.database.db
      .updateTable('cas_st')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', ticket)
      .execute();
    expect((await new TestBrowser(base).fetch(`${service}?ticket=${ticket}`)).status).toBe(401);
    const other = await ticketFor(service);
    await t.database.db
      .updateTable('cas_st')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', other)
      .execute();
    expect((await failureCode(service, other)).serviceResponse.authenticationFailure?.code).toBe('INVALID_TICKET');
  });

  it('http-cas-client: single logout reaches the application and ends its session', async () => {
    const browser = new TestBrowser(base);
    const hops = await browser.navigate(`${appBase}/dashboard`);
    expect(hops.at(-1)?.url).toBe(`${base}/cas/login?service=${encodeURIComponent(`${appBase}/dashboard`)}`);
    const loggedIn = await browser.casLogin('admin', DEMO_PASSWORD, `${appBase}/dashboard`);
    expect(JSON.parse(loggedIn.at(-1)?.text ?? '{}')).toMatchObject({ user: 'admin' });
    // The application's own session cookie keeps the user in.
    const again = await browser.fetch(`${appBase}/dashboard`);
    expect(again.status).toBe(200);

    await browser.fetch('/cas/logout');
    const after = await browser.fetch(`${appBase}/dashboard`);
    expect(after.status).toBe(302);
    expect(after.location).toContain('/cas/login');
  });

  it('single logout also reaches the portal and ends its session', async () => {
    const browser = new TestBrowser(base);
    await browser.portalLogin('admin', DEMO_PASSWORD, '/');
    expect((await browser.json('/web/portal/menu/list')).body.data).toHaveLength(1);
    await browser.fetch('/cas/logout');
    expect((await browser.json('/web/portal/menu/list')).body.data).toEqual([]);
  });

  it('@coursetable/passport-cas (CAS3.0): redirect to login, then success with attributes; a reused ticket fails', async () => {
    const strategy = new CasStrategy(
      { version: 'CAS3.0', ssoBaseURL: `${base}/cas`, serverBaseURL: appBase, callbackURL: '/passport/login' },
      (profile, done) => done(null, profile),
    );
    const redirect = await authenticate(strategy, '/passport/login');
    expect(redirect.kind).toBe('redirect');
    const location = new URL(String(redirect.value));
    expect(`${location.origin}${location.pathname}`).toBe(`${base}/cas/login`);
    expect(location.searchParams.get('service')).toBe(`${appBase}/passport/login`);

    const ticket = await ticketFor(`${appBase}/passport/login`);
    const success = await authenticate(strategy, `/passport/login?ticket=${ticket}`);
    expect(success.kind).toBe('success');
    expect(success.value).toMatchObject({ user: 'admin', attributes: { name: '张伟' } });
    expect((success.value as Principal).attributes?.['enterpriseName'] ?? (success.value as Principal).attributes?.['enterprisename']).toBe(
      '徐州恒岳重工机械有限公司',
    );

    const reused = await authenticate(strategy, `/passport/login?ticket=${ticket}`);
    expect(reused.kind).toBe('error');
    expect(String((reused.value as Error).cause)).toContain('INVALID_TICKET');
  });
});
