import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { chinaDate } from '../../lib/china-time.js';
import { queryPlan } from '../../../testing/query-plan.js';
import { createTestApp, secondInstance, type TestApp, testDialects } from '../../../testing/test-app.js';
import { RETENTION_TARGETS, RetentionRepository } from '../retention-repository.js';
import { PRUNE_BATCH } from '../retention-service.js';

const DAY = 86_400_000;

/** The index each target's delete must find its rows by (never a scan of the table). */
const PRUNE_INDEX: Record<string, RegExp> = {
  ssoSessions: /cas_tgt_expires/,
  portalSessions: /portal_session_expires/,
  oidcModels: /oidc_model_expires/,
  smsCodes: /sms_code_time/,
  loginFailures: /login_failure_time/,
  lookupHandles: /idf_lookup_handle_day/,
  rateLimits: /rate_limit_hit_expires/,
  samlSourceMessages: /saml_source_message_expires/,
  samlSourceSessions: /saml_source_session_expires/,
};

describe.each(testDialects())('retention on %s', (dialect) => {
  let t: TestApp;
  let other: Awaited<ReturnType<typeof secondInstance>>;
  const now = new Date();
  const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
  const later = (ms: number) => new Date(now.getTime() + ms).toISOString();

  beforeAll(async () => {
    // Sign-ins kept 200 days here: the configured age, not the default, decides (its earlier name still counts).
    t = await createTestApp(dialect, { LOGIN_LOG_RETENTION_DAYS: '200', RETENTION_INTERVAL_MINUTES: '60' });
    other = await secondInstance(t);
  });
  afterAll(async () => {
    await other.close();
    await t.close();
  });

  it('one instance of two prunes per interval: old and expired rows go, newer ones stay', async () => {
    const db = t.database.db;
    const account = await db.selectFrom('account').select('id').where('username', '=', 'staff').executeTakeFirstOrThrow();
    // More old sign-ins than one batch deletes, so the run must go on batch after batch.
    const oldLogins = Array.from({ length: PRUNE_BATCH + 5 }, (_, i) => ({
      username: `old-${i}`,
      result: 'failure' as const,
      created_at: ago(210 * DAY + i),
    }));
    await db.insertInto('login_log').values(oldLogins).execute();
    await db
      .insertInto('login_log')
      .values({ username: 'kept-190', result: 'success', created_at: ago(190 * DAY) })
      .execute();
    await db
      .insertInto('cas_tgt')
      .values([
        { id: 'TGT-ret-expired', account_id: account.id, created_at: ago(DAY), last_used_at: ago(DAY), expires_at: ago(60_000) },
        { id: 'TGT-ret-live', account_id: account.id, created_at: ago(60_000), last_used_at: ago(60_000), expires_at: later(3_600_000) },
      ])
      .execute();
    await db
      .insertInto('cas_st')
      .values([
        { id: 'ST-ret-expired', tgt_id: 'TGT-ret-expired', service: 'http://app.test/', created_at: ago(DAY), expires_at: ago(DAY) },
        { id: 'ST-ret-live', tgt_id: 'TGT-ret-live', service: 'http://app.test/', created_at: ago(DAY), expires_at: ago(DAY) },
      ])
      .execute();
    await db
      .insertInto('portal_session')
      .values([
        { id: 'ps-ret-expired', account_id: account.id, service_ticket: 'ST-x', created_at: ago(DAY), expires_at: ago(1000) },
        { id: 'ps-ret-live', account_id: account.id, service_ticket: 'ST-y', created_at: ago(1000), expires_at: later(3_600_000) },
      ])
      .execute();
    await db
      .insertInto('oidc_model')
      .values([
        { kind: 'AuthorizationCode', id: 'ret-expired', payload: '{}', expires_at: ago(1000) },
        { kind: 'AuthorizationCode', id: 'ret-live', payload: '{}', expires_at: later(60_000) },
        { kind: 'Grant', id: 'ret-unbounded', payload: '{}', expires_at: null },
      ])
      .execute();
    const sms = (phone: string, created: string) => ({
      purpose: 'register',
      phone,
      ip: '192.0.2.9',
      code_hash: 'x',
      created_at: created,
      expires_at: created,
    });
    await db
      .insertInto('sms_code')
      .values([sms('13900000001', ago(8 * DAY)), sms('13900000002', ago(2 * DAY))])
      .execute();
    await db
      .insertInto('login_failure')
      .values([
        { username: 'ip:198.51.100.1', failures: 2, last_failed_at: ago(31 * DAY), locked_until: null },
        { username: 'ip:198.51.100.2', failures: 5, last_failed_at: ago(31 * DAY), locked_until: later(3_600_000) },
        { username: 'ip:198.51.100.3', failures: 2, last_failed_at: ago(29 * DAY), locked_until: null },
      ])
      .execute();
    const day = (daysAgo: number) => chinaDate(new Date(now.getTime() - daysAgo * DAY));
    await db
      .insertInto('idf_lookup_handle')
      .values([
        { day: day(181), prefix: '88.999', outcome: 'found', handle: '88.999/ret-old', lookups: 3 },
        { day: day(179), prefix: '88.999', outcome: 'found', handle: '88.999/ret-new', lookups: 4 },
      ])
      .execute();
    await db
      .insertInto('rate_limit_hit')
      .values([
        { bucket: 'cas-login|ret-ended', hits: 3, expires_at: now.getTime() - 1000 },
        { bucket: 'cas-login|ret-running', hits: 3, expires_at: now.getTime() + 30_000 },
      ])
      .execute();

    // Both instances find the run due at once: one takes it.
    const runs = await Promise.all([t.app.retentionService.tick(now), other.app.retentionService.tick(now)]);
    expect(runs.filter(Boolean)).toHaveLength(1);
    expect(runs.find(Boolean)?.loginLog).toBeGreaterThanOrEqual(PRUNE_BATCH + 5);

    const logins = await db.selectFrom('login_log').select('username').where('username', 'in', ['old-0', 'old-1004', 'kept-190']).execute();
    expect(logins.map((r) => r.username)).toEqual(['kept-190']);
    const ids = async (table: 'cas_tgt' | 'cas_st' | 'portal_session', like: string) =>
      (await db.selectFrom(table).select('id').where('id', 'like', like).orderBy('id').execute()).map((r) => r.id);
    expect(await ids('cas_tgt', 'TGT-ret-%')).toEqual(['TGT-ret-live']);
    // A live SSO session keeps its tickets (single logout names them); an expired one's go with it.
    expect(await ids('cas_st', 'ST-ret-%')).toEqual(['ST-ret-live']);
    expect(await ids('portal_session', 'ps-ret-%')).toEqual(['ps-ret-live']);
    const models = await db.selectFrom('oidc_model').select('id').where('id', 'like', 'ret-%').orderBy('id').execute();
    expect(models.map((r) => r.id)).toEqual(['ret-live', 'ret-unbounded']);
    const phones = await db.selectFrom('sms_code').select('phone').where('phone', 'like', '139000000%').execute();
    expect(phones.map((r) => r.phone)).toEqual(['13900000002']);
    const failures = await db
      .selectFrom('login_failure')
      .select('username')
      .where('username', 'like', 'ip:198.51.100.%')
      .orderBy('username')
      .execute();
    expect(failures.map((r) => r.username)).toEqual(['ip:198.51.100.2', 'ip:198.51.100.3']);
    const handles = await db.selectFrom('idf_lookup_handle').select('handle').where('prefix', '=', '88.999').execute();
    expect(handles.map((r) => r.handle)).toEqual(['88.999/ret-new']);
    const windows = await db.selectFrom('rate_limit_hit').select('bucket').where('bucket', 'like', '%|ret-%').execute();
    expect(windows.map((r) => r.bucket)).toEqual(['cas-login|ret-running']);

    // Within the interval neither instance runs again; once it has passed, one does.
    await db
      .insertInto('login_log')
      .values({ username: 'old-again', result: 'failure', created_at: ago(300 * DAY) })
      .execute();
    expect(await t.app.retentionService.tick(new Date(now.getTime() + 59 * 60_000))).toBeUndefined();
    expect(await other.app.retentionService.tick(new Date(now.getTime() + 59 * 60_000))).toBeUndefined();
    expect(await db.selectFrom('login_log').select('id').where('username', '=', 'old-again').execute()).toHaveLength(1);
    const next = await Promise.all([
      t.app.retentionService.tick(new Date(now.getTime() + 60 * 60_000)),
      other.app.retentionService.tick(new Date(now.getTime() + 60 * 60_000)),
    ]);
    expect(next.filter(Boolean)).toHaveLength(1);
    expect(await db.selectFrom('login_log').select('id').where('username', '=', 'old-again').execute()).toHaveLength(0);
  });

  it('finds the rows to delete through an index, in batches, never by scanning a table', async () => {
    const repo = new RetentionRepository(t.database.db, dialect);
    for (const target of RETENTION_TARGETS) {
      const statement = repo.pruneStatement(target, t.app.retentionService.cutoff(target, now), PRUNE_BATCH, now);
      const plan = await queryPlan(t.database.db, dialect, statement.compile(t.database.db));
      expect(plan, target).toMatch(PRUNE_INDEX[target]!);
      expect(plan, target).toMatch(dialect === 'sqlite' ? /SEARCH \w+ USING INTEGER PRIMARY KEY \(rowid=\?\)/ : /Tid Scan/);
      expect(plan, target).not.toMatch(/\bSCAN |Seq Scan/);
    }
  });

  it('refuses a sign-in log kept for less than the six months 等保 asks', () => {
    expect(() => loadConfig({ LOGIN_LOG_RETENTION_DAYS: '90' })).toThrow('LOGIN_LOG_RETENTION_DAYS must be at least 180');
    expect(() => loadConfig({ AUDIT_RETENTION_DAYS: '179' })).toThrow('AUDIT_RETENTION_DAYS must be at least 180');
    expect(loadConfig({}).securityDefaults.auditRetentionDays).toBe(180);
    expect(loadConfig({ LOGIN_LOG_RETENTION_DAYS: '200' }).securityDefaults.auditRetentionDays).toBe(200);
    expect(loadConfig({}).retention).toMatchObject({
      intervalMinutes: 10,
      lookupHandleDays: 180,
      smsCodeDays: 7,
      loginFailureDays: 30,
    });
  });
});
