import { randomBytes } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseCasXml, sessionIndexOf } from '../identity/portal-auth/cas-client.js';

/** How the application answers a page request (GET). */
export type PageBehaviour =
  /** A CAS-protected application: no session → 302 to the CAS login; `?ticket=` validated at `/p3/serviceValidate`. */
  | { kind: 'cas-client' }
  /** Answers this status (with a body the portal must never quote). */
  | { kind: 'status'; status: number }
  /** Redirects there (e.g. another host the portal must not follow to). */
  | { kind: 'redirect'; location: string; status?: number }
  /** Never answers (the request stays open until the caller gives up or the stand-in closes). */
  | { kind: 'hang' };

/** How it answers a CAS single-logout POST (`logoutRequest=`). */
export type LogoutBehaviour = { kind: 'ok' } | { kind: 'status'; status: number } | { kind: 'redirect'; location: string };

export interface CasClientAppOptions {
  /** `…/cas` of the portal: where logins go and tickets are validated (settable later, once the portal listens). */
  casServerUrlPrefix?: string;
  /** 0 (default): a free port. */
  port?: number;
  /** 127.0.0.1 by default. */
  host?: string;
}

const SESSION_COOKIE = 'STANDIN_SESSION';

/**
 * A stand-in for an enterprise's application on the central login, as a real second HTTP server
 * (API tests of 接入自检 and browser tests start it alike): a CAS 3.0 client that sends visitors to
 * the CAS login, validates tickets over HTTP in XML and takes single-logout messages. Its answers can
 * be switched to failures, and it notes every request it receives. Every body it sends carries
 * `bodyMarker`, which the portal must never echo.
 */
export class CasClientApp {
  casServerUrlPrefix: string | undefined;
  page: PageBehaviour = { kind: 'cas-client' };
  logout: LogoutBehaviour = { kind: 'ok' };
  /** Every request received: method and path with query. */
  readonly requests: { method: string; url: string }[] = [];
  /** The service tickets named by the single-logout messages received (their SessionIndex). */
  readonly logoutTickets: string[] = [];
  readonly bodyMarker = `standin-${randomBytes(6).toString('hex')}`;
  private readonly sessions = new Map<string, string>();
  private base = '';

  private constructor(
    private readonly server: http.Server,
    options: CasClientAppOptions,
  ) {
    this.casServerUrlPrefix = options.casServerUrlPrefix;
  }

  static async start(options: CasClientAppOptions = {}): Promise<CasClientApp> {
    const server = http.createServer();
    const standin = new CasClientApp(server, options);
    server.on('request', (req, res) => {
      standin.handle(req, res).catch(() => standin.send(res, 500, 'stand-in failure'));
    });
    const host = options.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, host, resolve);
    });
    const { port } = server.address() as AddressInfo;
    standin.base = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    return standin;
  }

  /** `http://host:port`. */
  get origin(): string {
    return this.base;
  }

  /** The service address to register in 应用列表. */
  get serviceUrl(): string {
    return `${this.base}/`;
  }

  /** A separate 注销地址 (back-channel logout) to register. */
  get logoutUrl(): string {
    return `${this.base}/cas/back-channel-logout`;
  }

  /** Forget the requests and logout messages seen so far and answer as a healthy CAS client again. */
  reset(): void {
    this.requests.length = 0;
    this.logoutTickets.length = 0;
    this.page = { kind: 'cas-client' };
    this.logout = { kind: 'ok' };
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private send(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}) {
    if (res.headersSent) {
      res.end();
      return;
    }
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
    res.end(`<!doctype html><html><body><p>${text}</p><!-- ${this.bodyMarker} --></body></html>`);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.requests.push({ method: req.method ?? '', url: req.url ?? '' });
    const url = new URL(req.url ?? '/', this.base);
    if (req.method === 'POST') {
      const body = await readBody(req);
      const logoutRequest = new URLSearchParams(body).get('logoutRequest');
      if (!logoutRequest) return this.send(res, 400, 'bad request');
      const ticket = sessionIndexOf(logoutRequest);
      if (ticket) this.logoutTickets.push(ticket);
      for (const [id, sessionTicket] of this.sessions) if (sessionTicket.startsWith(`${ticket}|`)) this.sessions.delete(id);
      const logout = this.logout;
      if (logout.kind === 'status') return this.send(res, logout.status, 'logout failed');
      if (logout.kind === 'redirect') return this.send(res, 302, 'login first', { location: logout.location });
      return this.send(res, 200, 'ok');
    }
    const page = this.page;
    if (page.kind === 'status') return this.send(res, page.status, `internal details ${this.bodyMarker}`);
    if (page.kind === 'redirect') return this.send(res, page.status ?? 302, 'moved', { location: page.location });
    if (page.kind === 'hang') return;
    return this.casClient(req, res, url);
  }

  /** The CAS 3.0 client flow (protocol §2.1, §2.6) of a classic web application. */
  private async casClient(req: IncomingMessage, res: ServerResponse, url: URL) {
    const cas = this.casServerUrlPrefix;
    if (!cas) return this.send(res, 200, 'public page');
    const cookie = /(?:^|;\s*)STANDIN_SESSION=([a-f0-9]+)/.exec(req.headers.cookie ?? '')?.[1];
    const user = cookie ? this.sessions.get(cookie)?.split('|')[1] : undefined;
    if (user) return this.send(res, 200, `signed in as ${user}`);
    const ticket = url.searchParams.get('ticket');
    url.searchParams.delete('ticket');
    const service = url.href;
    if (!ticket) return this.send(res, 302, 'login', { location: `${cas}/login?service=${encodeURIComponent(service)}` });
    const validation = await fetch(`${cas}/p3/serviceValidate?${new URLSearchParams({ service, ticket }).toString()}`);
    const answer = parseCasXml(await validation.text());
    if (!answer?.ok) return this.send(res, 401, `ticket refused: ${answer?.code ?? 'unreadable'}`);
    const session = randomBytes(16).toString('hex');
    this.sessions.set(session, `${ticket}|${answer.user}`);
    return this.send(res, 302, 'signed in', { location: service, 'set-cookie': `${SESSION_COOKIE}=${session}; Path=/; HttpOnly` });
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
      if (body.length > 100_000) req.destroy();
    });
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}

/** Starts the stand-in (see CasClientApp). */
export function startCasClientApp(options: CasClientAppOptions = {}): Promise<CasClientApp> {
  return CasClientApp.start(options);
}
