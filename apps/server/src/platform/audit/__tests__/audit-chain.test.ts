import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import zlib, { createGunzip } from 'node:zlib';
import type { AuditChainVerification, SecurityPolicy } from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, secondInstance, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';
import { appendAuditLog, appendLoginLog } from '../audit-chain-repository.js';
import { VERIFICATIONS_PER_MINUTE, verifyChainLines } from '../audit-chain-service.js';
import { inTransaction } from '../../db/transaction.js';
import { AuditArchive } from '../audit-archive.js';
import { AuditChainRepository } from '../audit-chain-repository.js';
import { insertAuditEntry } from '../audit-entry-repository.js';
import { RetentionRepository } from '../../retention/retention-repository.js';
import { RetentionService } from '../../retention/retention-service.js';

const BASE = '/web-api/console/v1';
const CHAIN_WRITER = fileURLToPath(new URL('../../../testing/chain-writer.ts', import.meta.url));
const AUDIT_VERIFY = fileURLToPath(new URL('../../../cli/audit-verify.ts', import.meta.url));

/** `npm run audit:verify -- ARGS` as an operator runs it: its exit status and what it prints. */
function auditVerify(args: string[], env: Record<string, string> = {}): Promise<{ status: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', AUDIT_VERIFY, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, out, err }));
  });
}

describe('npm run audit:verify with bad input', () => {
  it('exits 2 with one line and no stack trace', async () => {
    const dir = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'audit-verify-'));
    const file = (name: string, lines: unknown[]) => {
      const at = path.join(dir, name);
      fs.writeFileSync(at, lines.map((l) => JSON.stringify(l)).join('\n'));
      return at;
    };
    const header = { kind: 'header', format: 'portal-audit-chain/1', log: 'login', enterpriseId: 1, from: null, to: null };
    const cases = [
      ['--file', path.join(dir, 'missing.jsonl')],
      ['--file', file('no-anchor.jsonl', [header, { kind: 'end', seq: 0, hash: '' }])],
      ['--file', file('null-line.jsonl', [{ ...header, anchor: { seq: 0, hash: '' } }, null])],
      ['--file', file('unknown-log.jsonl', [{ ...header, log: 'mail', anchor: { seq: 0, hash: '' } }])],
      ['--enterprise', '1', '--from', '2026-13-45T99:00:00Z'],
      ['--enterprise', ''],
    ];
    const results = await Promise.all(cases.map((args) => auditVerify(args)));
    for (const [i, result] of results.entries()) {
      expect(result.status, `${cases[i]!.join(' ')}: ${result.err}`).toBe(2);
      expect(result.err.trim().split('\n'), cases[i]!.join(' ')).toEqual([expect.stringMatching(/^audit:verify: \S/)]);
      expect(result.err).not.toMatch(/\n\s+at /);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
const DAY = 86_400_000;

/** Lines of a (gzip) file, as `npm run audit:verify -- --file` reads them. */
function fileLines(file: string): AsyncIterable<string> {
  const input = fs.createReadStream(file);
  return readline.createInterface({ input: file.endsWith('.gz') ? input.pipe(createGunzip()) : input, crlfDelay: Infinity });
}

async function* asLines(items: AsyncIterable<unknown>): AsyncGenerator<string> {
  for await (const item of items) yield JSON.stringify(item);
}

describe.each(testDialects())('tamper-evident audit on %s', (dialect) => {
  let t: TestApp;
  let other: Awaited<ReturnType<typeof secondInstance>>;
  let admin: string;
  let rcadmin: string;
  let operator: string;
  let hengyue: number;
  let rc: number;

  const call = async (token: string, method: 'GET' | 'PUT', url: string, payload?: object) =>
    t.app.inject({
      method,
      url: `${BASE}${url}`,
      headers: { 'x-requested-with': 'XMLHttpRequest', authorization: token },
      ...(payload ? { payload } : {}),
    });
  const verify = async (token: string, log: 'login-log' | 'audit', query = '') => {
    const res = await call(token, 'GET', `/${log}/verify${query ? `?${query}` : ''}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: AuditChainVerification[] }>().data[0]!;
  };
  /** Sign-in attempts of an enterprise, through the one write path the central login uses. */
  const signIns = async (app: TestApp['app'], enterpriseId: number, count: number, username = 'chain-user') => {
    for (let i = 0; i < count; i++) {
      await app.loginLogRepository.record(app.log, {
        accountId: null,
        username: `${username}-${i}`,
        enterpriseId,
        result: i % 3 === 0 ? 'failure' : 'success',
        ...(i % 3 === 0 ? { reason: 'bad-password' as const } : {}),
        ip: '192.0.2.33',
        userAgent: 'chain-test',
      });
    }
  };
  const rowsOf = (enterpriseId: number, like: string) =>
    t.database.db
      .selectFrom('login_log')
      .selectAll()
      .where('enterprise_id', '=', enterpriseId)
      .where('username', 'like', like)
      .orderBy('chain_seq')
      .execute();

  beforeAll(async () => {
    t = await createTestApp(dialect);
    other = await secondInstance(t);
    [admin, rcadmin, operator] = await Promise.all([tokenFor(t, 'admin'), tokenFor(t, 'rcadmin'), tokenFor(t, 'operator')]);
    const ids = await t.database.db
      .selectFrom('account')
      .select(['username', 'enterprise_id'])
      .where('username', 'in', ['admin', 'rcadmin'])
      .execute();
    hengyue = ids.find((a) => a.username === 'admin')!.enterprise_id!;
    rc = ids.find((a) => a.username === 'rcadmin')!.enterprise_id!;
  });
  afterAll(async () => {
    await other.close();
    await t.close();
  });

  it('verifies an intact period, and names the first row altered, removed or inserted in the database directly', async () => {
    await signIns(t.app, hengyue, 6, 'tamper');
    const rows = await rowsOf(hengyue, 'tamper-%');
    expect(rows).toHaveLength(6);
    // Each row holds the previous row's hash.
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.prev_hash).toBe(rows[i - 1]!.row_hash);

    const intact = await verify(admin, 'login-log');
    expect(intact).toMatchObject({ intact: true, problem: null });
    expect(intact.checked).toBeGreaterThanOrEqual(6);

    const db = t.database.db;
    const [, second, third, , fifth] = rows;
    // Altered: a failure made a success.
    expect(rows[3]!.result).toBe('failure');
    await db.updateTable('login_log').set({ result: 'success', reason: '' }).where('id', '=', rows[3]!.id).execute();
    expect((await verify(admin, 'login-log')).problem).toMatchObject({
      kind: 'altered',
      kindText: '被篡改',
      rowId: rows[3]!.id,
      seq: rows[3]!.chain_seq,
    });
    await db.updateTable('login_log').set({ result: 'failure', reason: rows[3]!.reason }).where('id', '=', rows[3]!.id).execute();
    expect((await verify(admin, 'login-log')).intact).toBe(true);

    // Removed: the row after the gap is named.
    await db.deleteFrom('login_log').where('id', '=', second!.id).execute();
    expect((await verify(admin, 'login-log')).problem).toMatchObject({ kind: 'removed', kindText: '被删除', rowId: third!.id });
    await db.insertInto('login_log').values(second!).execute();

    // Removed at the end of the chain (the newest row).
    const newest = rows.at(-1)!;
    await db.deleteFrom('login_log').where('id', '=', newest.id).execute();
    expect((await verify(admin, 'login-log')).problem).toMatchObject({ kind: 'removed', rowId: null, seq: newest.chain_seq });
    await db.insertInto('login_log').values(newest).execute();

    // Inserted: a row put in without the chain, and a copy of a row's place.
    const forged = await db
      .insertInto('login_log')
      .values({ enterprise_id: hengyue, username: 'tamper-forged', result: 'success', created_at: new Date().toISOString() })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect((await verify(admin, 'login-log')).problem).toMatchObject({ kind: 'inserted', kindText: '被插入', rowId: forged.id });
    await db.deleteFrom('login_log').where('id', '=', forged.id).execute();
    const { id: _id, ...copy } = fifth!;
    const duplicate = await db.insertInto('login_log').values(copy).returning('id').executeTakeFirstOrThrow();
    expect((await verify(admin, 'login-log')).problem).toMatchObject({ kind: 'inserted', rowId: duplicate.id });
    await db.deleteFrom('login_log').where('id', '=', duplicate.id).execute();

    expect(await verify(admin, 'login-log')).toMatchObject({ intact: true, problem: null });
    // Another enterprise's verification neither sees nor is touched by this enterprise's rows.
    await db.updateTable('login_log').set({ ip: '203.0.113.66' }).where('id', '=', third!.id).execute();
    expect((await verify(rcadmin, 'login-log')).intact).toBe(true);
    expect((await verify(admin, 'login-log')).problem).toMatchObject({ kind: 'altered', rowId: third!.id });
    // An operator verifies a named enterprise.
    expect((await verify(operator, 'login-log', `enterpriseId=${hengyue}`)).problem).toMatchObject({ kind: 'altered', rowId: third!.id });
    await db.updateTable('login_log').set({ ip: third!.ip }).where('id', '=', third!.id).execute();
  });

  it('chains 操作日志 the same way, and a period outside the break verifies', async () => {
    // Two earlier rows of the chain (a second apart), then a console write of the enterprise and its audit row.
    await inTransaction(t.database.db, (trx) =>
      appendAuditLog(
        trx,
        [2000, 1000].map((ago) => ({
          enterprise_id: hengyue,
          username: 'admin',
          action: 'login',
          ip: '192.0.2.9',
          outcome: 'success' as const,
          created_at: new Date(Date.now() - ago).toISOString(),
        })),
      ),
    );
    const policy = (await call(admin, 'GET', '/security/policy')).json<{ data: SecurityPolicy[] }>().data[0]!;
    expect((await call(admin, 'PUT', '/security/policy', { ...policy, auditRetentionDays: 365 })).statusCode).toBe(200);
    const before = await verify(admin, 'audit');
    expect(before).toMatchObject({ intact: true, problem: null });
    const row = await t.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('enterprise_id', '=', hengyue)
      .where('action', '=', 'security.policy')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(row.detail).toContain('审计日志保留365天');
    await t.database.db.updateTable('audit_log').set({ detail: '审计日志保留180天' }).where('id', '=', row.id).execute();
    expect((await verify(admin, 'audit')).problem).toMatchObject({ kind: 'altered', rowId: row.id });
    // A period that ends before the altered row (and whose following row is intact) verifies.
    const early = await verify(admin, 'audit', new URLSearchParams({ filterEndTime: '2000-01-01 00:00:00' }).toString());
    expect(early).toMatchObject({ intact: true, checked: 0, problem: null });
    // A period that ends two rows before the altered one: its rows check, and the row read after it is intact.
    const earlier = await t.database.db
      .selectFrom('audit_log')
      .select(['created_at', 'chain_seq'])
      .where('enterprise_id', '=', hengyue)
      .where('chain_seq', '=', row.chain_seq! - 2)
      .executeTakeFirstOrThrow();
    const upTo = await t.app.auditChainService.verify('audit', hengyue, { to: earlier.created_at });
    expect(upTo).toMatchObject({ intact: true, problem: null, lastSeq: earlier.chain_seq });
    expect(upTo.checked).toBeGreaterThan(0);
    await t.database.db.updateTable('audit_log').set({ detail: row.detail }).where('id', '=', row.id).execute();
    expect((await verify(admin, 'audit')).intact).toBe(true);

    const bad = await call(
      admin,
      'GET',
      `/audit/verify?${new URLSearchParams({ filterStartTime: '2026-02-01 00:00:00', filterEndTime: '2026-01-01 00:00:00' })}`,
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 1, msg: '开始时间不能晚于结束时间' });
  });

  it('keeps one chain when two instances append to it at once', async () => {
    // The other instance: on PostgreSQL one in this process (its own pool); on SQLite another process on
    // the same file, since an in-process connection's wait for the file's write lock would hold this thread.
    const elsewhere =
      dialect === 'postgres'
        ? signIns(other.app, rc, 25, 'race-b')
        : new Promise<void>((resolve, reject) => {
            const child = spawn(process.execPath, ['--import', 'tsx', CHAIN_WRITER, t.config.sqliteFile, String(rc), '25', 'race-b'], {
              stdio: ['ignore', 'ignore', 'inherit'],
            });
            child.on('error', reject);
            child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`chain writer exited with ${code}`))));
          });
    await Promise.all([signIns(t.app, rc, 25, 'race-a'), elsewhere, signIns(t.app, rc, 25, 'race-c')]);
    const rows = await t.database.db.selectFrom('login_log').select(['chain_seq', 'username']).where('enterprise_id', '=', rc).execute();
    expect(rows.filter((r) => r.username.startsWith('race-'))).toHaveLength(75);
    const places = rows.map((r) => Number(r.chain_seq));
    expect(new Set(places).size).toBe(places.length);
    const result = await verify(rcadmin, 'login-log');
    expect(result).toMatchObject({ intact: true, problem: null });
    expect(result.checked).toBe(rows.length);
    expect(result.lastSeq).toBe(Math.max(...places));
  });

  it('a sign-in and a console write of one enterprise, writing the two logs in either order at once, never deadlock', async () => {
    const db = t.database.db;
    const now = () => new Date().toISOString();
    const login = (tag: string) => ({ enterprise_id: rc, username: `mixed-${tag}`, result: 'success' as const, created_at: now() });
    const audit = (tag: string) => ({
      enterprise_id: rc,
      username: `mixed-${tag}`,
      action: 'login',
      ip: '192.0.2.5',
      outcome: 'success' as const,
      created_at: now(),
    });
    // Without the retry inTransaction adds: a deadlock would fail the write here.
    const signIn = (i: number) =>
      db.transaction().execute(async (trx) => {
        await appendLoginLog(trx, [login(`s${i}`)]);
        await appendAuditLog(trx, [audit(`s${i}`)]);
      });
    const consoleWrite = (i: number) =>
      db.transaction().execute(async (trx) => {
        await appendAuditLog(trx, [audit(`c${i}`)]);
        await appendLoginLog(trx, [login(`c${i}`)]);
      });
    await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? signIn(i) : consoleWrite(i))));
    expect(await db.selectFrom('login_log').select('id').where('username', 'like', 'mixed-%').execute()).toHaveLength(20);
    expect(await db.selectFrom('audit_log').select('id').where('username', 'like', 'mixed-%').execute()).toHaveLength(20);
    expect(await t.app.auditChainService.verify('login', rc, {})).toMatchObject({ intact: true });
    expect(await t.app.auditChainService.verify('audit', rc, {})).toMatchObject({ intact: true });
  });

  it('exports a period with its anchors; the file verifies, and a changed or dropped line does not', async () => {
    const lines: string[] = [];
    for await (const line of asLines(t.app.auditChainService.exportRange('login', rc, {}))) lines.push(line);
    const result = await verifyChainLines(
      asLines(
        (async function* () {
          yield* lines.map((l) => JSON.parse(l) as unknown);
        })(),
      ),
    );
    expect(result).toMatchObject({ intact: true, log: 'login', enterpriseId: rc });
    expect(result.rows).toBeGreaterThanOrEqual(75);
    const check = async (changed: string[]) => {
      async function* gen() {
        yield* changed;
      }
      return verifyChainLines(gen());
    };
    const altered = [...lines];
    altered[3] = altered[3]!.replace('192.0.2.33', '192.0.2.34');
    expect((await check(altered)).problem).toMatchObject({ kind: 'altered' });
    const dropped = lines.filter((_, i) => i !== 5);
    expect((await check(dropped)).problem).toMatchObject({ kind: 'removed' });
    expect((await check(lines.slice(0, -1))).intact).toBe(false);
  });

  it('stores and hashes text as the database keeps it: an emoji cut at each length, a lone surrogate', async () => {
    const emoji = '😀';
    await t.app.loginLogRepository.record(t.app.log, {
      accountId: null,
      username: `${'a'.repeat(63)}${emoji}`,
      enterpriseId: null,
      name: `${'n'.repeat(31)}${emoji}`,
      result: 'failure',
      reason: 'bad-password',
      applicationName: `${'p'.repeat(63)}${emoji}`,
      ip: '\ud800',
      userAgent: `${'u'.repeat(499)}${emoji}`,
    });
    await insertAuditEntry(t.database.db, {
      accountId: null,
      username: `${'a'.repeat(63)}${emoji}`,
      enterpriseId: hengyue,
      action: 'login',
      target: `${'t'.repeat(199)}${emoji}`,
      ip: '192.0.2.8',
      outcome: 'failure',
      detail: `${'d'.repeat(499)}${emoji}\udc00`,
      requestId: `${'r'.repeat(63)}${emoji}`,
    });
    const stored = await t.database.db
      .selectFrom('login_log')
      .selectAll()
      .where('enterprise_id', 'is', null)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    // Within each length counted in characters (code points): the emoji is kept whole, the lone surrogate replaced.
    expect(stored).toMatchObject({
      username: `${'a'.repeat(63)}${emoji}`,
      name: `${'n'.repeat(31)}${emoji}`,
      application_name: `${'p'.repeat(63)}${emoji}`,
      ip: '\ufffd',
      user_agent: `${'u'.repeat(499)}${emoji}`,
    });
    // The chain of sign-ins of no enterprise (the operator's) and the enterprise's 操作日志 still verify.
    expect(await t.app.auditChainService.verify('login', 0, {})).toMatchObject({ intact: true, problem: null });
    expect(await t.app.auditChainService.verify('audit', hengyue, {})).toMatchObject({ intact: true, problem: null });
    // A text past its length is cut between characters.
    await t.app.loginLogRepository.record(t.app.log, {
      accountId: null,
      username: `${'a'.repeat(64)}${emoji}`,
      enterpriseId: null,
      result: 'failure',
      ip: '192.0.2.8',
      userAgent: 'x',
    });
    const whole = await t.database.db.selectFrom('login_log').select('username').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(whole.username).toBe('a'.repeat(64));
    expect(await t.app.auditChainService.verify('login', 0, {})).toMatchObject({ intact: true, problem: null });
  });

  it('finds rows placed past the head, at or before the anchor, old-id rows put in later, and a deleted head', async () => {
    const db = t.database.db;
    const now = new Date().toISOString();
    const { id: e } = await db
      .insertInto('enterprise')
      .values({
        name: '链校验企业',
        certification_status: 'none',
        created_at: now,
        credit_code: null,
        certified_at: null,
        updated_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const check = () => t.app.auditChainService.verify('login', e, {});
    await signIns(t.app, e, 3, 'gap');
    expect(await check()).toMatchObject({ intact: true, checked: 3 });
    const forge = async (values: { chain_seq: number | null; id?: number; created_at?: string }) =>
      (
        await db
          .insertInto('login_log')
          .values({ enterprise_id: e, username: 'forged', result: 'success', created_at: now, ...values })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    for (const seq of [9, 0, -4]) {
      const id = await forge({ chain_seq: seq });
      expect((await check()).problem, `chain_seq ${seq}`).toMatchObject({ kind: 'inserted', rowId: id });
      await db.deleteFrom('login_log').where('id', '=', id).execute();
    }
    // A row without a place, with an id from before the chain began, that claims a time after it began.
    const oldId = await forge({ chain_seq: null, id: -7 });
    expect((await check()).problem).toMatchObject({ kind: 'inserted', rowId: oldId });
    await db.deleteFrom('login_log').where('id', '=', oldId).execute();
    expect((await check()).intact).toBe(true);
    // The head deleted: the chain's rows are there, its end is not.
    const head = await db
      .selectFrom('audit_chain')
      .selectAll()
      .where('log', '=', 'login')
      .where('enterprise_key', '=', e)
      .executeTakeFirstOrThrow();
    await db.deleteFrom('audit_chain').where('log', '=', 'login').where('enterprise_key', '=', e).execute();
    expect(await check()).toMatchObject({ intact: false, problem: { kind: 'removed' } });
    await db.insertInto('audit_chain').values(head).execute();
    expect((await check()).intact).toBe(true);
  });

  it('keeps retention going when archives cannot be written', async () => {
    const blocker = path.join(path.dirname(t.config.retention.auditArchiveDir), 'not-a-directory');
    fs.writeFileSync(blocker, 'x');
    const archive = new AuditArchive(
      new AuditChainRepository(t.database.db),
      { dir: path.join(blocker, 'archives'), defaultDays: 180 },
      t.app.log,
    );
    const service = new RetentionService(new RetentionRepository(t.database.db, dialect), t.app.config.retention, t.app.log, archive);
    const db = t.database.db;
    const { id: e } = await db
      .insertInto('enterprise')
      .values({
        name: '归档失败企业',
        certification_status: 'none',
        created_at: new Date().toISOString(),
        credit_code: null,
        certified_at: null,
        updated_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const old = new Date(Date.now() - 400 * DAY).toISOString();
    await inTransaction(db, (trx) =>
      appendLoginLog(trx, [{ enterprise_id: e, username: 'unarchivable', result: 'success', created_at: old }]),
    );
    // The run ends (the other tables are pruned after the archive); the rows stay for the next run.
    const counts = await service.prune(new Date());
    expect(counts.loginLog).toBe(0);
    expect(await db.selectFrom('login_log').select('id').where('enterprise_id', '=', e).execute()).toHaveLength(1);
    expect(await t.app.auditChainService.verify('login', e, {})).toMatchObject({ intact: true, checked: 1 });
    // Out of the later archive test's way: the enterprise's chain goes whole.
    await db.deleteFrom('login_log').where('enterprise_id', '=', e).execute();
    await db.deleteFrom('audit_chain').where('enterprise_key', '=', e).execute();
    fs.rmSync(blocker, { force: true });
  });

  it('an enterprise that never chose a retention keeps the platform’s, whatever it is', async () => {
    const db = t.database.db;
    const { id: e } = await db
      .insertInto('enterprise')
      .values({
        name: '平台留存企业',
        certification_status: 'none',
        created_at: new Date().toISOString(),
        credit_code: null,
        certified_at: null,
        updated_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // A policy saved by a client that does not send the field (as rows that existed before the setting).
    const { auditRetentionDays: _days, ...withoutRetention } = t.app.config.securityDefaults;
    await inTransaction(db, (trx) => t.app.securityPolicyRepository.save(trx, e, withoutRetention));
    expect((await t.app.securityPolicyRepository.ofEnterprise(e)).auditRetentionDays).toBe(
      t.app.config.securityDefaults.auditRetentionDays,
    );
    const old = new Date(Date.now() - 200 * DAY).toISOString();
    await inTransaction(db, (trx) =>
      appendLoginLog(trx, [{ enterprise_id: e, username: 'platform-kept', result: 'success', created_at: old }]),
    );
    // A platform that keeps 365 days keeps this enterprise's 200-day-old row.
    const dir = path.join(path.dirname(t.config.retention.auditArchiveDir), 'archive-365');
    const archive = new AuditArchive(new AuditChainRepository(db), { dir, defaultDays: 365 }, t.app.log);
    expect((await archive.run(new Date())).loginLog).toBe(0);
    expect(await db.selectFrom('login_log').select('id').where('enterprise_id', '=', e).execute()).toHaveLength(1);
    // Out of the later archive test's way.
    await db.deleteFrom('login_log').where('enterprise_id', '=', e).execute();
    await db.deleteFrom('audit_chain').where('enterprise_key', '=', e).execute();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('archives rows older than each enterprise’s retention to a file that verifies, then purges them; the chain still verifies', async () => {
    const db = t.database.db;
    const now = new Date();
    const enterprise = async (name: string) =>
      (
        await db
          .insertInto('enterprise')
          .values({
            name,
            certification_status: 'none',
            created_at: now.toISOString(),
            credit_code: null,
            certified_at: null,
            updated_at: null,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    // One keeps the platform's 180 days, the other saved 365.
    const [short, long] = [await enterprise('留存短企业'), await enterprise('留存长企业')];
    await inTransaction(db, (trx) =>
      t.app.securityPolicyRepository.save(trx, long, { ...t.app.config.securityDefaults, auditRetentionDays: 365 }),
    );
    const aged = (enterpriseId: number, daysAgo: number, n: number, tag: string) =>
      Array.from({ length: n }, (_, i) => ({
        enterprise_id: enterpriseId,
        username: `${tag}-${daysAgo}-${i}`,
        result: 'success' as const,
        created_at: new Date(now.getTime() - daysAgo * DAY + i).toISOString(),
      }));
    // Written before the chain began (no place; an id below its start): archived all the same.
    const legacyId =
      (await db.selectFrom('audit_chain_start').select('first_id').where('log', '=', 'login').executeTakeFirstOrThrow()).first_id - 1;
    await db.deleteFrom('login_log').where('id', '=', legacyId).execute();
    await db
      .insertInto('login_log')
      .values({ ...aged(short, 300, 1, 'legacy')[0]!, id: legacyId })
      .execute();
    // Rows as written over time: old ones first, then recent ones.
    await inTransaction(db, (trx) => appendLoginLog(trx, [...aged(short, 200, 30, 'aged'), ...aged(long, 200, 5, 'aged')]));
    await inTransaction(db, (trx) =>
      appendAuditLog(trx, [
        {
          enterprise_id: short,
          username: 'aged',
          action: 'login',
          ip: '192.0.2.1',
          outcome: 'success',
          created_at: new Date(now.getTime() - 400 * DAY).toISOString(),
        },
      ]),
    );
    await inTransaction(db, (trx) => appendLoginLog(trx, [...aged(short, 10, 3, 'recent'), ...aged(long, 10, 3, 'recent')]));
    const untouched = await db
      .selectFrom('login_log')
      .select(['id', 'row_hash'])
      .where('enterprise_id', 'not in', [short, long])
      .orderBy('id')
      .execute();

    const counts = await t.app.retentionService.prune(now);
    expect(counts.loginLog).toBe(31);
    expect(counts.auditLog).toBe(1);

    const left = async (enterpriseId: number) =>
      (await db.selectFrom('login_log').select('username').where('enterprise_id', '=', enterpriseId).orderBy('chain_seq').execute()).map(
        (r) => r.username,
      );
    // The short one's old rows went; the long one keeps its 200-day-old rows; other enterprises' rows are as they were.
    expect(await left(short)).toEqual(['recent-10-0', 'recent-10-1', 'recent-10-2']);
    expect(await left(long)).toHaveLength(8);
    expect(
      await db.selectFrom('login_log').select(['id', 'row_hash']).where('enterprise_id', 'not in', [short, long]).orderBy('id').execute(),
    ).toEqual(untouched);

    const dir = t.config.retention.auditArchiveDir;
    const files = fs.readdirSync(dir).sort();
    expect(files).toEqual([
      expect.stringMatching(new RegExp(`^audit-log-enterprise-${short}-.*\\.jsonl\\.gz$`)),
      expect.stringMatching(new RegExp(`^login-log-enterprise-${short}-.*-1-30\\.jsonl\\.gz$`)),
    ]);
    const archive = await verifyChainLines(fileLines(path.join(dir, files[1]!)));
    expect(archive).toMatchObject({ intact: true, log: 'login', enterpriseId: short, rows: 30, unchained: 1, problem: null });
    expect(await verifyChainLines(fileLines(path.join(dir, files[0]!)))).toMatchObject({ intact: true, log: 'audit', rows: 1 });
    // The documented command says the same of the archive, and names a row changed in a copy of it.
    const archived = path.join(dir, files[1]!);
    const ok = await auditVerify(['--file', archived]);
    expect(ok.status, ok.out).toBe(0);
    expect(ok.out).toContain(`${archived}: 完整 (login log, enterprise ${short}, 30 rows`);
    const copy = path.join(path.dirname(dir), 'changed.jsonl');
    const text = zlib.gunzipSync(fs.readFileSync(archived)).toString('utf8');
    fs.writeFileSync(copy, text.replace('"aged-200-7"', '"aged-200-X"'));
    const changed = await auditVerify([copy]);
    expect(changed.status).toBe(1);
    expect(changed.out).toMatch(/被篡改: 记录内容与其哈希不符（记录 id \d+，序号 8）/);

    // What remains still verifies: its first row follows the archive's end (the chain's new anchor).
    expect(await t.app.auditChainService.verify('login', short, {})).toMatchObject({ intact: true, checked: 3, problem: null });
    expect((await t.app.auditChainService.repo.head('login', short))?.anchorHash).toBe(archive.end?.hash);
    expect(await t.app.auditChainService.verify('login', long, {})).toMatchObject({ intact: true, checked: 8 });
    // A second run finds nothing more to archive, and removes what a run that died left half written.
    fs.writeFileSync(path.join(dir, `login-log-enterprise-${short}-dead.jsonl.gz.part`), 'half');
    expect((await t.app.retentionService.prune(now)).loginLog).toBe(0);
    expect(fs.readdirSync(dir)).toHaveLength(2);
    // A row put in at an archived place is named, and no run deletes it (only archived ids are purged).
    const { id: forged } = await db
      .insertInto('login_log')
      .values({
        enterprise_id: short,
        username: 'forged',
        result: 'success',
        created_at: aged(short, 250, 1, 'x')[0]!.created_at,
        chain_seq: 5,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect((await t.app.auditChainService.verify('login', short, {})).problem).toMatchObject({ kind: 'inserted', rowId: forged });
    expect((await t.app.retentionService.prune(now)).loginLog).toBe(0);
    expect(await db.selectFrom('login_log').select('id').where('id', '=', forged).execute()).toHaveLength(1);
    await db.deleteFrom('login_log').where('id', '=', forged).execute();
  });

  it('keeps the audit retention within 180–3650 days', async () => {
    const policy = (await call(admin, 'GET', '/security/policy')).json<{ data: SecurityPolicy[] }>().data[0]!;
    expect(policy.auditRetentionDays).toBe(365);
    const res = await call(admin, 'PUT', '/security/policy', { ...policy, auditRetentionDays: 90 });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 1, msg: '审计日志保留天数须为 180-3650 之间的整数' });
    // A body without the field keeps the saved value.
    const { auditRetentionDays: _days, ...withoutRetention } = policy;
    expect((await call(admin, 'PUT', '/security/policy', withoutRetention)).statusCode).toBe(200);
    expect((await call(admin, 'GET', '/security/policy')).json<{ data: SecurityPolicy[] }>().data[0]!.auditRetentionDays).toBe(365);
  });

  it('limits 校验完整性 per enterprise and log, with a clear answer', async () => {
    for (let i = 0; i < VERIFICATIONS_PER_MINUTE; i++) expect((await call(rcadmin, 'GET', '/audit/verify')).statusCode).toBe(200);
    const refused = await call(rcadmin, 'GET', '/audit/verify');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 1, msg: expect.stringMatching(/^完整性校验过于频繁，请 \d+ 秒后再试$/) });
    // Another log, and another enterprise, count on their own.
    expect((await call(rcadmin, 'GET', '/login-log/verify')).statusCode).toBe(200);
    expect((await call(admin, 'GET', '/audit/verify')).statusCode).toBe(200);
  });
});
