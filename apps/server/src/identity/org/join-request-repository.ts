import { type JoinRequestRow, type JoinRequestStatus, Role } from '@portal/shared';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { chinaTime } from '../../platform/lib/china-time.js';
import { ConflictError } from '../../platform/lib/errors.js';

export interface PendingJoin {
  id: number;
  accountId: number;
  username: string;
  phone: string;
  status: JoinRequestStatus;
}

/** 加入申请: registrations that named an existing enterprise, decided by its administrators. */
export class JoinRequestRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** One page of the enterprise's requests, newest first. */
  async page(
    enterpriseId: number,
    status: JoinRequestStatus | undefined,
    offset: number,
    limit: number,
  ): Promise<{ total: number; rows: JoinRequestRow[] }> {
    let query = this.db
      .selectFrom('join_request')
      .innerJoin('account', 'account.id', 'join_request.account_id')
      .where('join_request.enterprise_id', '=', enterpriseId);
    if (status) query = query.where('join_request.status', '=', status);
    const [count, rows] = await Promise.all([
      query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      query
        .select(['join_request.id', 'account.username', 'account.phone', 'account.email', 'join_request.status', 'join_request.created_at'])
        .orderBy('join_request.created_at', 'desc')
        .orderBy('join_request.id', 'desc')
        .offset(offset)
        .limit(limit)
        .execute(),
    ]);
    return {
      total: Number(count.n),
      rows: rows.map((r) => ({
        id: r.id,
        username: r.username,
        phone: r.phone,
        email: r.email,
        status: r.status,
        createdAt: chinaTime(new Date(r.created_at)),
      })),
    };
  }

  /** A request to the enterprise, or undefined (another enterprise's request is not there for it). */
  async byId(enterpriseId: number, id: number): Promise<PendingJoin | undefined> {
    const row = await this.db
      .selectFrom('join_request')
      .innerJoin('account', 'account.id', 'join_request.account_id')
      .select(['join_request.id', 'join_request.account_id', 'account.username', 'account.phone', 'join_request.status'])
      .where('join_request.id', '=', id)
      .where('join_request.enterprise_id', '=', enterpriseId)
      .executeTakeFirst();
    return row && { id: row.id, accountId: row.account_id, username: row.username, phone: row.phone, status: row.status };
  }

  /** A pending request (registration naming an existing enterprise), in the registration's transaction. */
  async create(trx: Kysely<Database>, enterpriseId: number, accountId: number): Promise<void> {
    await trx
      .insertInto('join_request')
      .values({ enterprise_id: enterpriseId, account_id: accountId, status: 'pending', created_at: new Date().toISOString() })
      .execute();
  }

  /** Decides a request still pending; a request decided meanwhile refuses the decision. */
  private async decide(trx: Kysely<Database>, id: number, status: 'approved' | 'rejected', deciderId: number): Promise<void> {
    const decided = await trx
      .updateTable('join_request')
      .set({ status, decided_at: new Date().toISOString(), decided_by: deciderId })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (!decided.numUpdatedRows) throw new ConflictError('该申请已处理');
  }

  /** 通过: the applicant joins the enterprise as 普通员工 (unless they joined one meanwhile or were deleted). */
  async approve(trx: Kysely<Database>, request: PendingJoin, enterpriseId: number, deciderId: number): Promise<void> {
    await this.decide(trx, request.id, 'approved', deciderId);
    const joined = await trx
      .updateTable('account')
      .set({ enterprise_id: enterpriseId, updated_at: new Date().toISOString() })
      .where('id', '=', request.accountId)
      .where('enterprise_id', 'is', null)
      .where('status', '!=', 'deleted')
      .executeTakeFirst();
    if (!joined.numUpdatedRows) throw new ConflictError('申请人已加入其他企业或账号已删除');
    const staff = await trx
      .selectFrom('role')
      .select('id')
      .where('enterprise_id', 'is', null)
      .where('code', '=', Role.EnterpriseStaff)
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('account_role')
      .values({ account_id: request.accountId, role_id: staff.id })
      .onConflict((oc) => oc.columns(['account_id', 'role_id']).doNothing())
      .execute();
  }

  async reject(trx: Kysely<Database>, request: PendingJoin, deciderId: number): Promise<void> {
    await this.decide(trx, request.id, 'rejected', deciderId);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    joinRequestRepository: JoinRequestRepository;
  }
}

export default fp(
  async (app) => {
    app.decorate('joinRequestRepository', new JoinRequestRepository(app.database.db));
  },
  { name: 'join-request-repository' },
);
