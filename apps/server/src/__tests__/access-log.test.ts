import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../platform/config.js';
import { loggerOptions } from '../platform/lib/logger.js';
import { createTestDatabase, type TestDatabase } from '../testing/test-app.js';

/** Builds the app with the production logger options, writing its lines into an array. */
async function appWithLog(env: Record<string, string>) {
  const db: TestDatabase = await createTestDatabase('sqlite', env);
  const lines: { msg: string; reqId?: string; req?: { url: string }; res?: { statusCode: number } }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as (typeof lines)[number]);
      callback();
    },
  });
  const options = loggerOptions('info');
  if (typeof options !== 'object') throw new Error('the portal logs through pino options');
  const app = await buildApp({ config: db.config, database: db.database, logger: { ...options, stream } });
  return {
    app,
    lines,
    close: async () => {
      await app.close();
      await db.drop();
    },
  };
}

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

describe('access log (ACCESS_LOG)', () => {
  it('by default logs only the requests that failed', async () => {
    const t = await appWithLog({});
    close = t.close;
    await t.app.inject({ url: '/healthz' });
    await t.app.inject({ url: '/web-api/no-such-call' });
    const requests = t.lines.filter((l) => l.msg === 'request');
    expect(requests.map((l) => [l.req?.url, l.res?.statusCode])).toEqual([['/web-api/no-such-call', 404]]);
  });

  it('ACCESS_LOG=all logs every request, with secrets in the URL masked', async () => {
    const t = await appWithLog({ ACCESS_LOG: 'all' });
    close = t.close;
    await t.app.inject({ url: '/healthz?ticket=ST-secret&x=1' });
    const requests = t.lines.filter((l) => l.msg === 'request');
    expect(requests.map((l) => l.req?.url)).toEqual(['/healthz?ticket=***&x=1']);
  });

  it("binds each line to its request's id, though a request's logger is built only when it logs", async () => {
    const t = await appWithLog({ ACCESS_LOG: 'all' });
    close = t.close;
    await t.app.inject({ url: '/healthz' });
    await t.app.inject({ url: '/web-api/no-such-call' });
    const ids = t.lines.filter((l) => l.msg === 'request').map((l) => l.reqId);
    expect(ids).toHaveLength(2);
    // Fresh UUIDs: unique across instances and restarts, unlike Fastify's counter.
    expect(ids[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(ids[1]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(ids[0]).not.toBe(ids[1]);
  });

  it('refuses an unknown ACCESS_LOG value at start', () => {
    expect(() => loadConfig({ ACCESS_LOG: 'verbose' })).toThrow(/ACCESS_LOG/);
  });
});
