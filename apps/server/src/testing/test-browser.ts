import { createServer } from 'node:net';
import type { PortalApp } from '../app.js';

interface StoredCookie {
  value: string;
  path: string;
  httpOnly: boolean;
  sameSite: string | undefined;
}

export interface BrowserResponse {
  status: number;
  url: string;
  location: string | null;
  headers: Headers;
  text: string;
}

/**
 * A minimal browser for API tests against a listening server: a cookie jar (paths honoured) and
 * manual redirects, so each hop of a login flow can be asserted.
 */
export class TestBrowser {
  readonly cookies = new Map<string, StoredCookie>();

  constructor(readonly base: string) {}

  cookieHeader(url: string): string {
    const path = new URL(url, this.base).pathname;
    return [...this.cookies.entries()]
      .filter(([, c]) => path === c.path || path.startsWith(c.path.endsWith('/') ? c.path : c.path + '/'))
      .map(([name, c]) => `${name}=${c.value}`)
      .join('; ');
  }

  private store(setCookies: string[]) {
    for (const line of setCookies) {
      const [pair = '', ...attrs] = line.split(';').map((s) => s.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      const attr = (key: string) => attrs.find((a) => a.toLowerCase().startsWith(key.toLowerCase()));
      const expired = /expires=thu, 01 jan 1970/i.test(line) || /max-age=0/i.test(line);
      if (expired || value === '') {
        this.cookies.delete(name);
        continue;
      }
      this.cookies.set(name, {
        value,
        path: attr('path=')?.slice(5) ?? '/',
        httpOnly: attrs.some((a) => a.toLowerCase() === 'httponly'),
        sameSite: attr('samesite=')?.slice(9),
      });
    }
  }

  async fetch(url: string, init: RequestInit = {}): Promise<BrowserResponse> {
    const absolute = new URL(url, this.base).toString();
    const headers = new Headers(init.headers);
    const cookie = this.cookieHeader(absolute);
    if (cookie) headers.set('cookie', cookie);
    const res = await fetch(absolute, { ...init, headers, redirect: 'manual' });
    this.store(res.headers.getSetCookie());
    return { status: res.status, url: absolute, location: res.headers.get('location'), headers: res.headers, text: await res.text() };
  }

  /** Follows redirects like a browser; answers every hop. */
  async navigate(url: string, init: RequestInit = {}, maxHops = 10): Promise<BrowserResponse[]> {
    const hops: BrowserResponse[] = [];
    let next: string | null = url;
    let request = init;
    while (next && hops.length < maxHops) {
      const res = await this.fetch(next, request);
      hops.push(res);
      next = res.status >= 300 && res.status < 400 && res.location ? new URL(res.location, res.url).toString() : null;
      request = {};
    }
    return hops;
  }

  /** The CAS login form: GET it (for the execution token), then POST the credentials. */
  async casLogin(username: string, password: string, service?: string): Promise<BrowserResponse[]> {
    const query = service ? `?service=${encodeURIComponent(service)}` : '';
    const form = await this.fetch(`/cas/login${query}`);
    const execution = /name="execution" value="([^"]+)"/.exec(form.text)?.[1] ?? '';
    return this.navigate(`/cas/login${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username, password, execution }).toString(),
    });
  }

  /**
   * Submits a page's form as a browser would: to its `action` (read as HTML), with its hidden fields
   * and `fields`; follows the redirects and answers every hop. A page with several forms: the first
   * whose action contains `actionPart`.
   */
  async submitForm(page: BrowserResponse, fields: Record<string, string>, actionPart = ''): Promise<BrowserResponse[]> {
    const forms = [...page.text.matchAll(/<form[^>]*\saction="([^"]*)"[^>]*>([\s\S]*?)<\/form>/g)];
    const form = forms.find((f) => unescapeHtml(f[1] ?? '').includes(actionPart));
    if (!form) throw new Error(`no form on the page (${page.status} ${page.url})`);
    const body = new URLSearchParams();
    for (const input of (form[2] ?? '').matchAll(/<input[^>]*type="hidden"[^>]*>/g)) {
      const name = /name="([^"]*)"/.exec(input[0])?.[1];
      const value = /value="([^"]*)"/.exec(input[0])?.[1];
      if (name) body.set(unescapeHtml(name), unescapeHtml(value ?? ''));
    }
    for (const [name, value] of Object.entries(fields)) body.set(name, value);
    return this.navigate(new URL(unescapeHtml(form[1] ?? ''), page.url).toString(), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: body.toString(),
    });
  }

  /**
   * Logs in as the web app does: the portal's login start (its state cookie), the CAS form, the
   * portal callback; answers the hops from the form on.
   */
  async portalLogin(username: string, password: string, target = '/'): Promise<BrowserResponse[]> {
    const start = await this.fetch(`/web/portal/cas/login?target=${encodeURIComponent(target)}`);
    const service = new URL(start.location ?? '', this.base).searchParams.get('service');
    if (start.status !== 303 || !service) throw new Error(`login start answered ${start.status}`);
    return this.casLogin(username, password, service);
  }

  async json<T = { code: number; msg: string; data: unknown[] }>(
    url: string,
    init: RequestInit = {},
  ): Promise<{ status: number; body: T }> {
    const res = await this.fetch(url, init);
    return { status: res.status, body: JSON.parse(res.text) as T };
  }
}

/** Text of an HTML attribute as a browser reads it (the entities escape-html writes). */
function unescapeHtml(text: string): string {
  return text.replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
}

/** Listens on a free loopback port (the portal validates tickets over HTTP); answers the base URL. */
export async function listen(app: PortalApp): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return `http://127.0.0.1:${address.port}`;
}

/** A loopback port free right now: an issuer ({PUBLIC_URL}/oidc) must name the address its clients call. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no address');
  return address.port;
}
