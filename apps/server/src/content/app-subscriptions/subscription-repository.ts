import type { AppSubscriptionRow, AppSubscriptionStatus } from '@portal/shared';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { chinaTime } from '../../platform/lib/china-time.js';
import { containsText } from '../../platform/lib/text-search.js';
import type { PlatformAppCopy } from '../../identity/sso-apps/sso-app-repository.js';

/** A subscription with what deciding it needs: the enterprise, the applicant and the platform application to copy. */
export interface SubscriptionDecision {
  id: number;
  status: AppSubscriptionStatus;
  enterpriseId: number;
  enterpriseName: string;
  enterpriseCertified: boolean;
  applicantId: number | null;
  applicationUuid: string;
  /** On single sign-on: it has a service address. */
  onSingleSignOn: boolean;
  /** The enterprise's copy an approval creates (应用列表). */
  copy: PlatformAppCopy;
}

/**
 * 申请使用 and 应用订阅: an enterprise's requests to use an application of the application
 * center and the operators' decisions. An approved subscription has a copy in the enterprise's
 * 应用列表 (`sso_application.platform_app_id`), written by the routes through the SSO repository in
 * the decision's transaction.
 */
export class SubscriptionRepository {
  constructor(private readonly db: Kysely<Database>) {}

  private listed() {
    return this.db
      .selectFrom('app_subscription as s')
      .innerJoin('enterprise', 'enterprise.id', 's.enterprise_id')
      .innerJoin('app_application as a', 'a.id', 's.application_id')
      .leftJoin('account as applicant', 'applicant.id', 's.applicant_id');
  }

  private static readonly rowColumns = [
    's.id',
    's.enterprise_id',
    'enterprise.name as enterprise_name',
    'a.uuid as application_uuid',
    'a.name as application_name',
    's.status',
    's.purpose',
    's.decision_note',
    'applicant.name as applicant_name',
    'applicant.username as applicant_username',
    's.created_at',
    's.decided_at',
  ] as const;

  private static toRow(r: {
    id: number;
    enterprise_id: number;
    enterprise_name: string;
    application_uuid: string;
    application_name: string;
    status: AppSubscriptionStatus;
    purpose: string;
    decision_note: string;
    applicant_name: string | null;
    applicant_username: string | null;
    created_at: string;
    decided_at: string | null;
  }): AppSubscriptionRow {
    return {
      id: r.id,
      enterpriseId: r.enterprise_id,
      enterpriseName: r.enterprise_name,
      applicationUuid: r.application_uuid,
      applicationName: r.application_name,
      status: r.status,
      purpose: r.purpose,
      decisionNote: r.decision_note,
      applicantName: r.applicant_name ?? '',
      applicantUsername: r.applicant_username ?? '',
      createdAt: chinaTime(new Date(r.created_at)),
      decidedAt: r.decided_at ? chinaTime(new Date(r.decided_at)) : '',
    };
  }

  /** One page of every enterprise's subscriptions, newest first; `keyword` is part of the enterprise's or the application's name. */
  async page(
    filter: { status: AppSubscriptionStatus | undefined; keyword: string },
    offset: number,
    limit: number,
  ): Promise<{ total: number; rows: AppSubscriptionRow[] }> {
    let query = this.listed();
    if (filter.status) query = query.where('s.status', '=', filter.status);
    if (filter.keyword) {
      const key = filter.keyword;
      query = query.where((eb) => eb.or([containsText('enterprise.name', key), containsText('a.name', key)]));
    }
    const [count, rows] = await Promise.all([
      query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      query
        .select(SubscriptionRepository.rowColumns)
        .orderBy('s.created_at', 'desc')
        .orderBy('s.id', 'desc')
        .offset(offset)
        .limit(limit)
        .execute(),
    ]);
    return { total: Number(count.n), rows: rows.map((r) => SubscriptionRepository.toRow(r)) };
  }

  async row(id: number): Promise<AppSubscriptionRow | undefined> {
    const r = await this.listed().select(SubscriptionRepository.rowColumns).where('s.id', '=', id).executeTakeFirst();
    return r && SubscriptionRepository.toRow(r);
  }

  async forDecision(id: number): Promise<SubscriptionDecision | undefined> {
    const r = await this.db
      .selectFrom('app_subscription as s')
      .innerJoin('enterprise', 'enterprise.id', 's.enterprise_id')
      .innerJoin('app_application as a', 'a.id', 's.application_id')
      .select([
        's.id',
        's.status',
        's.enterprise_id',
        'enterprise.name as enterprise_name',
        'enterprise.certification_status',
        's.applicant_id',
        'a.id as application_id',
        'a.uuid',
        'a.name',
        'a.icon_path',
        'a.category',
        'a.application_description',
        'a.service_url',
        'a.logout_url',
        'a.attributes',
      ])
      .where('s.id', '=', id)
      .executeTakeFirst();
    return (
      r && {
        id: r.id,
        status: r.status,
        enterpriseId: r.enterprise_id,
        enterpriseName: r.enterprise_name,
        enterpriseCertified: r.certification_status === 'certified',
        applicantId: r.applicant_id,
        applicationUuid: r.uuid,
        onSingleSignOn: r.service_url !== '',
        copy: {
          platformAppId: r.application_id,
          name: r.name,
          icon: r.icon_path,
          category: r.category,
          description: r.application_description,
          logoutUrl: r.logout_url,
          attributes: r.attributes,
        },
      }
    );
  }

  /** The enterprise's latest subscription to the application (what its detail page shows), if it ever applied. */
  async latest(
    enterpriseId: number,
    applicationId: number,
  ): Promise<{ status: AppSubscriptionStatus; decisionNote: string; createdAt: string; decidedAt: string } | undefined> {
    const r = await this.db
      .selectFrom('app_subscription')
      .select(['status', 'decision_note', 'created_at', 'decided_at'])
      .where('enterprise_id', '=', enterpriseId)
      .where('application_id', '=', applicationId)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return (
      r && {
        status: r.status,
        decisionNote: r.decision_note,
        createdAt: chinaTime(new Date(r.created_at)),
        decidedAt: r.decided_at ? chinaTime(new Date(r.decided_at)) : '',
      }
    );
  }

  /** A new pending request; a concurrent twin fails on the one-live-subscription index. */
  async create(
    trx: Kysely<Database>,
    values: { enterpriseId: number; applicationId: number; applicantId: number; purpose: string },
  ): Promise<number> {
    const { id } = await trx
      .insertInto('app_subscription')
      .values({
        enterprise_id: values.enterpriseId,
        application_id: values.applicationId,
        status: 'pending',
        purpose: values.purpose,
        applicant_id: values.applicantId,
        created_at: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  }

  /** Moves a subscription on from `from`; false when it was decided meanwhile (nothing written). */
  async decide(
    trx: Kysely<Database>,
    id: number,
    change: { from: AppSubscriptionStatus; to: AppSubscriptionStatus; decidedBy: number; note: string },
  ): Promise<boolean> {
    const result = await trx
      .updateTable('app_subscription')
      .set({ status: change.to, decided_by: change.decidedBy, decision_note: change.note, decided_at: new Date().toISOString() })
      .where('id', '=', id)
      .where('status', '=', change.from)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    appSubscriptionRepository: SubscriptionRepository;
  }
}

export default fp(
  async (app) => {
    app.decorate('appSubscriptionRepository', new SubscriptionRepository(app.database.db));
  },
  { name: 'subscription-repository' },
);
