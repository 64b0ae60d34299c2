import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';

describe.each(testDialects())('操作日志 export of a long log on %s', (dialect) => {
  let t: TestApp;
  let operator: string;
  const ROWS = 2_500;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    operator = await tokenFor(t, 'operator');
    // Many entries share one instant: the export pages by (time, id) and must neither skip nor repeat.
    await t.database.db
      .insertInto('audit_log')
      .values(
        Array.from({ length: ROWS }, (_, i) => ({
          account_id: null,
          username: 'bulk',
          enterprise_id: null,
          action: 'login',
          target: `#${i}`,
          ip: '10.0.0.1',
          outcome: 'success' as const,
          detail: '',
          created_at: `2026-03-0${1 + Math.floor(i / 1000)}T00:00:00.000Z`,
        })),
      )
      .execute();
  });
  afterAll(() => t.close());

  it('streams every matching entry once, newest first, across its internal batches', async () => {
    const res = await t.app.inject({
      url: '/web-api/console/v1/audit/export?username=bulk',
      headers: { 'x-requested-with': 'XMLHttpRequest', authorization: operator },
    });
    expect(res.statusCode).toBe(200);
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter(Boolean);
    expect(lines).toHaveLength(ROWS + 1);
    const targets = lines.slice(1).map((l) => Number(/"#(\d+)"/.exec(l)?.[1]));
    // Newest day first; within a day the later insert (higher id) first.
    const expected = Array.from({ length: ROWS }, (_, i) => i).sort((a, b) => Math.floor(b / 1000) - Math.floor(a / 1000) || b - a);
    expect(targets).toEqual(expected);
  });
});
