import type { PrefixRequestRow, PrefixRequestStatus } from '@portal/shared';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { chinaTime } from '../../platform/lib/china-time.js';
import { ConflictError } from '../../platform/lib/errors.js';

export interface PendingPrefixRequest {
  id: number;
  enterpriseId: number;
  enterpriseName: string;
  applicantId: number | null;
  prefix: string;
  purpose: string;
}

/** 申请标识前缀: a certified enterprise asks for a prefix, a platform operator decides. */
export class PrefixRequestRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** One page, newest first; `enterpriseId` null: every enterprise's (operators). */
  async page(
    enterpriseId: number | null,
    status: PrefixRequestStatus | undefined,
    offset: number,
    limit: number,
  ): Promise<{ total: number; rows: PrefixRequestRow[] }> {
    let query = this.db
      .selectFrom('idf_prefix_request as r')
      .innerJoin('enterprise', 'enterprise.id', 'r.enterprise_id')
      .leftJoin('account as applicant', 'applicant.id', 'r.applicant_id')
      .leftJoin('account as reviewer', 'reviewer.id', 'r.reviewer_id');
    if (enterpriseId !== null) query = query.where('r.enterprise_id', '=', enterpriseId);
    if (status) query = query.where('r.status', '=', status);
    const [count, rows] = await Promise.all([
      query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      query
        .select([
          'r.id',
          'r.enterprise_id',
          'enterprise.name as enterprise_name',
          'r.prefix',
          'r.purpose',
          'r.status',
          'applicant.name as applicant_name',
          'reviewer.name as reviewer_name',
          'r.reason',
          'r.created_at',
          'r.decided_at',
        ])
        .orderBy('r.created_at', 'desc')
        .orderBy('r.id', 'desc')
        .offset(offset)
        .limit(limit)
        .execute(),
    ]);
    return {
      total: Number(count.n),
      rows: rows.map((r) => ({
        id: r.id,
        enterpriseId: r.enterprise_id,
        enterpriseName: r.enterprise_name,
        prefix: r.prefix,
        purpose: r.purpose,
        status: r.status,
        applicantName: r.applicant_name ?? '',
        reviewerName: r.reviewer_name ?? '',
        reason: r.reason,
        createdAt: chinaTime(new Date(r.created_at)),
        decidedAt: r.decided_at ? chinaTime(new Date(r.decided_at)) : null,
      })),
    };
  }

  /** Whether the prefix is already asked for and not yet decided (by any enterprise). */
  async pendingFor(prefix: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('idf_prefix_request')
      .select('id')
      .where('prefix', '=', prefix)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return row !== undefined;
  }

  async create(
    trx: Kysely<Database>,
    values: { enterpriseId: number; applicantId: number; prefix: string; purpose: string },
  ): Promise<number> {
    const { id } = await trx
      .insertInto('idf_prefix_request')
      .values({
        enterprise_id: values.enterpriseId,
        applicant_id: values.applicantId,
        prefix: values.prefix,
        purpose: values.purpose,
        status: 'pending',
        reviewer_id: null,
        created_at: new Date().toISOString(),
        decided_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  }

  async byId(id: number): Promise<(PendingPrefixRequest & { status: PrefixRequestStatus }) | undefined> {
    const row = await this.db
      .selectFrom('idf_prefix_request as r')
      .innerJoin('enterprise', 'enterprise.id', 'r.enterprise_id')
      .select(['r.id', 'r.enterprise_id', 'enterprise.name', 'r.applicant_id', 'r.prefix', 'r.purpose', 'r.status'])
      .where('r.id', '=', id)
      .executeTakeFirst();
    return (
      row && {
        id: row.id,
        enterpriseId: row.enterprise_id,
        enterpriseName: row.name,
        applicantId: row.applicant_id,
        prefix: row.prefix,
        purpose: row.purpose,
        status: row.status,
      }
    );
  }

  /** Decides a request still pending; one decided meanwhile refuses the decision (and rolls the caller's transaction back). */
  async decide(trx: Kysely<Database>, id: number, status: 'approved' | 'rejected', reviewerId: number, reason: string): Promise<void> {
    const decided = await trx
      .updateTable('idf_prefix_request')
      .set({ status, reviewer_id: reviewerId, reason, decided_at: new Date().toISOString() })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (!decided.numUpdatedRows) throw new ConflictError('该申请已处理');
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    prefixRequestRepository: PrefixRequestRepository;
  }
}

export default fp(
  async (app) => {
    app.decorate('prefixRequestRepository', new PrefixRequestRepository(app.database.db));
  },
  { name: 'prefix-request-repository' },
);
