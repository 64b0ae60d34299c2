import type { IdentifierStats } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { buildApp, type PortalApp } from '../../../app.js';
import { chinaDate } from '../../../platform/lib/china-time.js';
import { createTestApp, createTestDatabase, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';

const FOUND = '88.118.8/EX-2024-000123';
const MISSING = '88.118.8/TWO-INSTANCES-1';

describe.each(testDialects())('counting lookups on %s', (dialect) => {
  it('adds the counts of two instances sharing one database: none counted twice, none lost at a graceful shutdown', async () => {
    // An hour's interval: only the shutdown writes what the instances counted.
    const shared = await createTestDatabase(dialect, { IDENTIFIER_STATS_FLUSH_SECONDS: '3600' });
    const secondConnection = await shared.connectAgain();
    const apps: PortalApp[] = [];
    const instance = async (database = shared.database) => {
      const app = await buildApp({ config: shared.config, database, logger: false });
      apps.push(app);
      return app;
    };
    try {
      const a = await instance();
      const b = await instance(secondConnection);
      const statsOf = async (app: PortalApp) => {
        const token = await tokenFor({ ...shared, app, close: async () => undefined } as TestApp, 'operator');
        const [summary, handles] = await Promise.all([
          app.inject({ url: '/web-api/identity/v1/stats?days=7', headers: { authorization: token } }),
          app.inject({ url: '/web-api/identity/v1/stats/export?days=7&table=handles', headers: { authorization: token } }),
        ]);
        const stats: IdentifierStats = summary.json().data[0];
        const missing = await app.inject({
          url: '/web-api/identity/v1/stats/export?days=7&table=missing',
          headers: { authorization: token },
        });
        const count = (body: string, key: string) =>
          Number(
            body
              .split('\r\n')
              .find((line) => line.startsWith(`${key},`))
              ?.split(',')
              .at(-1) ?? 0,
          );
        return {
          today: stats.daily.find((d) => d.day === chinaDate(new Date()))!,
          found: count(handles.body, FOUND),
          missing: count(missing.body, MISSING),
        };
      };
      const before = await statsOf(a);

      const lookups = [
        [a, `/web-api/portal/v1/identity/query?handle=${FOUND}`],
        [a, `/web-api/portal/v1/identity/query?handle=${FOUND}&src=qr`],
        [a, `/api/handles/${MISSING}`],
        [b, `/web-api/portal/v1/identity/query?handle=${FOUND}`],
        [b, `/web-api/portal/v1/identity/query?handle=${FOUND}&src=qr`],
        [b, `/web-api/portal/v1/identity/query?handle=${FOUND}&src=qr`],
        [b, `/api/handles/${FOUND}`],
        [b, `/web-api/portal/v1/identity/query?handle=${MISSING}`],
      ] as const;
      for (const [app, url] of lookups) expect((await app.inject({ url })).statusCode).toBeLessThan(500);
      // Counted in memory only: no lookup wrote anything.
      expect(await statsOf(a)).toEqual(before);

      // Both stop; their last counts are written as they close. On PostgreSQL at the same time; two
      // SQLite connections in one process would block each other's event loop, so one after the other.
      apps.length = 0;
      if (dialect === 'postgres') await Promise.all([a.close(), b.close()]);
      else for (const app of [a, b]) await app.close();
      const after = await statsOf(await instance());
      expect(after).toEqual({
        today: {
          ...before.today,
          web: before.today.web + 3,
          qr: before.today.qr + 3,
          api: before.today.api + 2,
        },
        found: before.found + 6,
        missing: before.missing + 2,
      });
    } finally {
      for (const app of apps) await app.close();
      await secondConnection.destroy();
      await shared.drop();
    }
  });

  it('takes the client’s address from the socket unless TRUST_PROXY trusts a proxy in front', async () => {
    const t = await createTestApp(dialect);
    try {
      const operator = await tokenFor(t, 'operator');
      const regions = async () => {
        const res = await t.app.inject({
          url: '/web-api/identity/v1/stats/export?days=7&table=regions',
          headers: { authorization: operator },
        });
        return new Map(
          res.body
            .slice(1)
            .split('\r\n')
            .slice(1)
            .filter(Boolean)
            .map((line) => [line.split(',')[0], Number(line.split(',')[1])] as const),
        );
      };
      const before = await regions();
      // A forged X-Forwarded-For from a client in Beijing, with no proxy trusted.
      await t.app.inject({ url: `/api/handles/${FOUND}`, remoteAddress: '202.106.0.20', headers: { 'x-forwarded-for': '202.96.128.86' } });
      await expect.poll(async () => (await regions()).get('北京') ?? 0, { timeout: 5000 }).toBe((before.get('北京') ?? 0) + 1);
      expect((await regions()).get('广东') ?? 0).toBe(before.get('广东') ?? 0);
    } finally {
      await t.close();
    }
  });
});
