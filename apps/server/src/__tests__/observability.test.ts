import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type PortalApp } from '../app.js';
import { loadConfig, REPO_ROOT } from '../platform/config.js';
import { loggerOptions } from '../platform/lib/logger.js';
import { DEMO_PASSWORD } from '../seed/accounts-seed.js';
import { createTestDatabase, type TestDatabase, testDialects, tokenFor } from '../testing/test-app.js';
import { freePort, listen, TestBrowser } from '../testing/test-browser.js';

const METRICS_TOKEN = 'scrape-token-0123456789abcdef';
const SCRAPE = { authorization: `Bearer ${METRICS_TOKEN}` };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface LogLine {
  msg: string;
  reqId?: string;
  req?: { url: string };
  res?: { statusCode: number };
}

/** The value of one sample of a scrape (0 when the series does not exist yet). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(match[3]);
  }
  return 0;
}

describe.each(testDialects())('metrics, readiness and request ids on %s', (dialect) => {
  let db: TestDatabase;
  let app: PortalApp;
  let base: string;
  const lines: LogLine[] = [];

  beforeAll(async () => {
    // The one proxy in front is trusted (its X-Request-Id too); pages are served without the renderer (WEB_SSR=0).
    db = await createTestDatabase(dialect, {
      METRICS_TOKEN,
      TRUST_PROXY: '1',
      ACCESS_LOG: 'all',
      WEB_SSR: '0',
      LOGIN_ATTEMPTS_PER_MINUTE: '1000',
    });
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as LogLine);
        callback();
      },
    });
    const options = loggerOptions('info');
    if (typeof options !== 'object') throw new Error('the portal logs through pino options');
    app = await buildApp({ config: db.config, database: db.database, logger: { ...options, stream } });
    base = await listen(app);
  });
  afterAll(async () => {
    await app.close();
    await db.drop();
  });

  const scrape = async () => {
    const res = await app.inject({ url: '/metrics', headers: SCRAPE });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.body;
  };

  it('refuses a scrape without the token or with another one (401), and answers the right one from any Host', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong-token-0123456789abcdef' }, { authorization: METRICS_TOKEN }]) {
      const res = await app.inject({ url: '/metrics', headers });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ code: 1, msg: '指标接口需要正确的访问令牌' });
      expect(res.body).not.toContain('portal_');
    }
    const byAddress = await app.inject({ url: '/metrics', headers: { ...SCRAPE, host: '10.0.0.5:8070' } });
    expect(byAddress.statusCode).toBe(200);
    expect(byAddress.body).toContain('portal_process_cpu_user_seconds_total');
  });

  it('counts a CAS sign-in into the portal: attempts, tickets, validation, the portal session, requests by route and queries', async () => {
    const before = await scrape();
    const browser = new TestBrowser(base);
    await browser.portalLogin('admin', DEMO_PASSWORD);
    expect(browser.cookies.has('PORTAL_SESSION')).toBe(true);
    const wrong = await new TestBrowser(base).casLogin('admin', 'not-the-password');
    expect(wrong[0]?.status).toBe(401);
    const after = await scrape();
    const moved = (name: string, labels: Record<string, string>) => sample(after, name, labels) - sample(before, name, labels);

    expect(moved('portal_sign_ins_total', { protocol: 'cas', result: 'success' })).toBe(1);
    expect(moved('portal_sign_ins_total', { protocol: 'cas', result: 'failure' })).toBe(1);
    expect(moved('portal_sign_ins_total', { protocol: 'portal', result: 'success' })).toBe(1);
    expect(moved('portal_tickets_issued_total', { kind: 'cas_tgt' })).toBe(1);
    expect(moved('portal_tickets_issued_total', { kind: 'cas_service_ticket' })).toBe(1);
    expect(moved('portal_tickets_validated_total', { kind: 'cas_service_ticket', result: 'success' })).toBe(1);
    // The portal validated its ticket over HTTP: counted under the route's pattern, never its URL.
    const validations = { method: 'GET', route: '/cas/p3/serviceValidate', status: '200' };
    expect(moved('portal_http_request_duration_seconds_count', validations)).toBe(1);
    expect(moved('portal_http_request_duration_seconds_count', { method: 'POST', route: '/cas/login', status: '401' })).toBe(1);
    expect(after).not.toMatch(/route="[^"]*(\?|ticket=|ST-)/);
    expect(moved('portal_db_query_duration_seconds_count', { result: 'ok' })).toBeGreaterThan(0);
    if (dialect === 'postgres') expect(after).toMatch(/^portal_db_pool_connections\{state="idle"\} \d+$/m);
  });

  it('exposes every metric the Grafana dashboard draws', async () => {
    const names = new Set<string>();
    for (const [, name, type] of (await scrape()).matchAll(/^# TYPE (\w+) (\w+)$/gm)) {
      for (const suffix of type === 'histogram' ? ['_bucket', '_count', '_sum'] : ['']) names.add(`${name}${suffix}`);
    }
    const dashboard = fs.readFileSync(path.join(REPO_ROOT, 'docs/deploy/grafana-dashboard.json'), 'utf8');
    const drawn = new Set(dashboard.match(/\bportal_\w+/g));
    // The pool exists on PostgreSQL only (SQLite has one connection).
    if (dialect === 'sqlite') drawn.delete('portal_db_pool_connections');
    expect(drawn.size).toBeGreaterThan(10);
    expect([...drawn].filter((name) => !names.has(name))).toEqual([]);
  });

  it('counts identifier lookups by channel and outcome', async () => {
    const before = await scrape();
    expect((await app.inject({ url: '/api/handles/88.999.1%2Fno-such-handle' })).statusCode).toBe(404);
    const after = await scrape();
    const labels = { channel: 'api', outcome: 'not_found' };
    expect(sample(after, 'portal_identifier_lookups_total', labels) - sample(before, 'portal_identifier_lookups_total', labels)).toBe(1);
  });

  it('is ready when the database answers, every migration is applied and the renderer is loaded or off', async () => {
    const ready = await app.inject({ url: '/readyz', headers: { host: '10.0.0.5:8070' } });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', reason: '', checks: { database: 'ok', migrations: 'ok', renderer: 'off' } });
    expect(ready.headers['cache-control']).toBe('private, no-store');
  });

  it('is not ready (503, with the reason) when a migration of this code is missing from the database', async () => {
    const name = '0027-audit-request-id';
    const row = await sql<Record<string, unknown>>`select * from kysely_migration where name = ${name}`.execute(db.database.db);
    await sql`delete from kysely_migration where name = ${name}`.execute(db.database.db);
    try {
      const res = await app.inject({ url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({
        status: 'not_ready',
        checks: { database: 'ok', migrations: `数据库结构未更新，缺少迁移：${name}` },
      });
    } finally {
      const [restored] = row.rows;
      if (restored)
        await db.database.db
          .insertInto('kysely_migration' as never)
          .values(restored as never)
          .execute();
    }
    expect((await app.inject({ url: '/readyz' })).statusCode).toBe(200);
  });

  it('takes the trusted proxy’s X-Request-Id, returns it, logs the request under it and records it in 操作日志', async () => {
    const id = 'f3b2c1d0e9a87654321fedcba0987654';
    const admin = await tokenFor({ ...db, app, close: async () => undefined }, 'admin');
    const exported = await app.inject({ url: '/web-api/console/v1/audit/export', headers: { authorization: admin, 'x-request-id': id } });
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['x-request-id']).toBe(id);
    // The access log line of that request carries the same id.
    expect(lines.find((l) => l.msg === 'request' && l.req?.url === '/web-api/console/v1/audit/export')?.reqId).toBe(id);
    // Its audit row records it: 操作日志 shows it and finds the row by it, and the CSV export has it.
    const found = await app.inject({
      url: `/web-api/console/v1/audit/page/list?requestId=${id}`,
      headers: { authorization: admin },
    });
    expect(found.statusCode, found.body).toBe(200);
    const [page] = found.json<{ data: { total: number; rows: { action: string; requestId: string }[] }[] }>().data;
    expect(page?.total).toBe(1);
    expect(page?.rows[0]).toMatchObject({ action: 'audit.export', requestId: id });
    const csv = await app.inject({ url: `/web-api/console/v1/audit/export?requestId=${id}`, headers: { authorization: admin } });
    const [header, first] = csv.body.replace(/^\uFEFF/, '').split('\r\n');
    expect(header?.split(',').at(-1)).toBe('"请求编号"');
    expect(first?.split(',').at(-1)).toBe(`"${id}"`);
  });

  it('makes its own id (a UUID) for a request without a sane one, and answers every request with its id', async () => {
    for (const given of [undefined, 'has spaces in it', 'x'.repeat(65), 'short', 'id\u0007bell0']) {
      const res = await app.inject({ url: '/healthz', headers: given === undefined ? {} : { 'x-request-id': given } });
      expect(res.headers['x-request-id']).toMatch(UUID);
    }
    // Refused before any route (unknown Host, unknown API): the id is there too.
    const misdirected = await app.inject({ url: '/web-api/portal/v1/site', headers: { host: 'elsewhere.example' } });
    expect(misdirected.statusCode).toBe(421);
    expect(misdirected.headers['x-request-id']).toMatch(UUID);
    const malformed = await app.inject({ url: '/web-api/portal/v1/%E0%A4%A' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.headers['x-request-id']).toMatch(UUID);
    const missing = await app.inject({ url: '/web-api/no-such-call' });
    expect(missing.statusCode).toBe(404);
    const line = lines.find((l) => l.msg === 'request' && l.req?.url === '/web-api/no-such-call');
    expect(line?.reqId).toBe(missing.headers['x-request-id']);
  });

  it('with METRICS_PORT: /metrics only on that port, not on the site; a direct client cannot choose its request id; not ready without the renderer', async () => {
    const port = await freePort();
    // The same database, as a second instance configured the other way (no proxy, renderer expected but not built).
    const config = loadConfig({ PORT: '80', METRICS_PORT: String(port) });
    const other = await buildApp({
      config: { ...db.config, host: '127.0.0.1', trustProxy: false, webSsrEntry: config.webSsrEntry, metrics: config.metrics },
      database: db.database,
      logger: false,
    });
    try {
      await listen(other);
      expect((await other.inject({ url: '/metrics' })).statusCode).toBe(404);
      const scraped = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(scraped.status).toBe(200);
      expect(await scraped.text()).toContain('# TYPE portal_http_request_duration_seconds histogram');
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(404);

      const direct = await other.inject({ url: '/healthz', headers: { 'x-request-id': 'f3b2c1d0e9a87654321fedcba0987654' } });
      expect(direct.headers['x-request-id']).toMatch(UUID);

      const notReady = await other.inject({ url: '/readyz' });
      expect(notReady.statusCode).toBe(503);
      expect(notReady.json()).toMatchObject({ status: 'not_ready', checks: { database: 'ok', migrations: 'ok' } });
      expect(notReady.json<{ reason: string }>().reason).toContain('页面渲染器未加载');
    } finally {
      await other.close();
    }
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
  });

  it('is not ready (503) when its database is gone, and says so', async () => {
    const database = await db.connectAgain();
    const gone = await buildApp({ config: db.config, database, logger: false });
    try {
      await database.destroy();
      const res = await gone.inject({ url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ status: 'not_ready', checks: { database: '数据库不可用' } });
      expect(res.json<{ reason: string }>().reason).toContain('数据库不可用');
    } finally {
      await gone.close();
    }
  });
});

describe('metrics configuration', () => {
  it('refuses a short METRICS_TOKEN and a METRICS_PORT equal to PORT, and has no endpoint by default', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
    expect(() => loadConfig({ PORT: '8070', METRICS_PORT: '8070' })).toThrow(/METRICS_PORT/);
    expect(loadConfig({}).metrics).toEqual({ port: undefined, token: undefined });
  });
});
