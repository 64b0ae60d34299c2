import type { FastifyBaseLogger } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { type AuditActionCode, type AuditEntry, auditBy, recordAudit } from './audit-log.js';
import type { Actor } from '../lib/actor.js';

/** Whose entries a reader sees: every enterprise's, one enterprise's, or (without an enterprise) their own. */
export type AuditScope = { all: true } | { enterpriseId: number } | { accountId: number };

/** Filters of the list and the export; times are ISO instants, both bounds included. */
export interface AuditFilters {
  start?: string | undefined;
  end?: string | undefined;
  username?: string | undefined;
  action?: string | undefined;
  outcome?: 'success' | 'failure' | '' | undefined;
  requestId?: string | undefined;
}

/** Rows read per query while an export streams out. */
const EXPORT_BATCH = 1000;

export function createAuditRepository(db: Kysely<Database>) {
  function filtered(scope: AuditScope, f: AuditFilters) {
    let query = db
      .selectFrom('audit_log')
      .leftJoin('account', 'account.id', 'audit_log.account_id')
      .leftJoin('enterprise', 'enterprise.id', 'audit_log.enterprise_id');
    if ('enterpriseId' in scope) query = query.where('audit_log.enterprise_id', '=', scope.enterpriseId);
    if ('accountId' in scope) query = query.where('audit_log.account_id', '=', scope.accountId);
    if (f.start) query = query.where('audit_log.created_at', '>=', f.start);
    if (f.end) query = query.where('audit_log.created_at', '<=', f.end.replace('.000Z', '.999Z'));
    const username = f.username?.trim();
    if (username) query = query.where((eb) => eb.or([eb('audit_log.username', '=', username), eb('account.name', '=', username)]));
    if (f.action) query = query.where('audit_log.action', '=', f.action);
    if (f.outcome) query = query.where('audit_log.outcome', '=', f.outcome);
    const requestId = f.requestId?.trim();
    if (requestId) query = query.where('audit_log.request_id', '=', requestId);
    return query;
  }

  const rowsOf = (query: ReturnType<typeof filtered>) =>
    query
      .selectAll('audit_log')
      .select(['account.name as accountName', 'enterprise.name as enterpriseName'])
      .orderBy('audit_log.created_at', 'desc')
      .orderBy('audit_log.id', 'desc');

  return {
    /** Never throws: a failure to record is logged. */
    record: (log: FastifyBaseLogger, entry: AuditEntry) => recordAudit(db, log, entry),
    /** Records an action of `actor` outside any write (exports, refusals); never throws. */
    recordBy: (actor: Actor, action: AuditActionCode, target: string, outcome?: AuditEntry['outcome'], detail?: string) =>
      auditBy(db, actor, action, target, outcome, detail),

    /** One page, newest first, and the number of matching entries. */
    async page(scope: AuditScope, filters: AuditFilters, offset: number, limit: number) {
      const query = filtered(scope, filters);
      const [count, rows] = await Promise.all([
        query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
        rowsOf(query).offset(offset).limit(limit).execute(),
      ]);
      return { total: Number(count.n), rows };
    },

    /** At most `max` entries, newest first, read in keyset batches (time, id): each query is short and other requests interleave. */
    async *stream(scope: AuditScope, filters: AuditFilters, max: number) {
      const query = filtered(scope, filters);
      let after: { createdAt: string; id: number } | undefined;
      for (let written = 0; written < max;) {
        const cursor = after;
        const batch = await rowsOf(
          cursor
            ? query.where((eb) =>
                eb.or([
                  eb('audit_log.created_at', '<', cursor.createdAt),
                  eb.and([eb('audit_log.created_at', '=', cursor.createdAt), eb('audit_log.id', '<', cursor.id)]),
                ]),
              )
            : query,
        )
          .limit(Math.min(EXPORT_BATCH, max - written))
          .execute();
        yield* batch;
        written += batch.length;
        const last = batch.at(-1);
        if (!last || batch.length < EXPORT_BATCH) return;
        after = { createdAt: last.created_at, id: last.id };
      }
    },
  };
}

export type AuditRepository = ReturnType<typeof createAuditRepository>;
export type AuditLogEntry = Awaited<ReturnType<AuditRepository['page']>>['rows'][number];

declare module 'fastify' {
  interface FastifyInstance {
    auditRepository: AuditRepository;
  }
}

export default fp(
  async (app) => {
    app.decorate('auditRepository', createAuditRepository(app.database.db));
  },
  { name: 'audit-repository' },
);
