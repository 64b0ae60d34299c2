import {
  type ApplicantRole,
  CERTIFICATION_REJECT_REASONS,
  type CertificationApplication,
  CertificationMessage,
  type CertificationRejectReason,
  type CertificationReviewDetail,
  type CertificationReviewRow,
  type CertificationState,
  type CertificationStatus,
  EnterpriseMessage,
  type PrivateFileRef,
} from '@portal/shared';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { inEnterpriseTransaction } from '../../platform/db/transaction.js';
import { chinaTime } from '../../platform/lib/china-time.js';
import { isUniqueViolation } from '../../platform/lib/db-errors.js';
import { BadRequestError, ConflictError } from '../../platform/lib/errors.js';
import { containsText } from '../../platform/lib/text-search.js';

declare module 'fastify' {
  interface FastifyInstance {
    certificationRepository: CertificationRepository;
  }
}

export type ApplicationStatus = CertificationApplication['status'];

export interface CertificationSubmission {
  enterpriseId: number;
  applicantId: number;
  enterpriseName: string;
  creditCode: string;
  legalRepresentative: string;
  applicantRole: ApplicantRole;
  licenceFileId: number;
  authorizationFileId: number | null;
}

export interface ReviewFilters {
  status?: ApplicationStatus | undefined;
  keyword: string;
  /** ISO instants, inclusive. */
  start?: string | undefined;
  end?: string | undefined;
}

/** What a decision needs to know of the application it decides. */
export interface ApplicationToDecide {
  id: number;
  enterpriseId: number;
  enterpriseName: string;
  status: ApplicationStatus;
  applicantId: number | null;
  applicantPhone: string;
}

export interface Decision {
  status: 'approved' | 'rejected';
  reviewerId: number;
  reasons: CertificationRejectReason[];
  comment: string;
}

const REASON_CODES = new Set<string>(CERTIFICATION_REJECT_REASONS.map((r) => r.code));
const isReason = (code: string): code is CertificationRejectReason => REASON_CODES.has(code);

const time = (iso: string | null) => (iso === null ? null : chinaTime(new Date(iso)));

/** Applications with the names of applicant and reviewer and the references of their materials. */
function applicationQuery(db: Kysely<Database>) {
  return db
    .selectFrom('certification_application as ca')
    .innerJoin('private_file as licence_file', 'licence_file.id', 'ca.licence_file_id')
    .leftJoin('private_file as letter_file', 'letter_file.id', 'ca.authorization_file_id')
    .leftJoin('account as applicant', 'applicant.id', 'ca.applicant_id')
    .leftJoin('account as reviewer', 'reviewer.id', 'ca.reviewer_id')
    .select([
      'ca.id',
      'ca.enterprise_id',
      'ca.status',
      'ca.enterprise_name',
      'ca.credit_code',
      'ca.legal_representative',
      'ca.applicant_role',
      'ca.submitted_at',
      'ca.decided_at',
      'ca.reasons',
      'ca.comment',
      'applicant.name as applicant_name',
      'applicant.phone as applicant_phone',
      'reviewer.name as reviewer_name',
      'licence_file.id as licence_id',
      'licence_file.original_name as licence_name',
      'licence_file.mime as licence_mime',
      'licence_file.bytes as licence_bytes',
      'letter_file.id as letter_id',
      'letter_file.original_name as letter_name',
      'letter_file.mime as letter_mime',
      'letter_file.bytes as letter_bytes',
    ]);
}
type ApplicationRow = Awaited<ReturnType<ReturnType<typeof applicationQuery>['executeTakeFirstOrThrow']>>;

/** A file reference, or null when the caller may not see materials (or there is none). */
function fileRef(
  withFiles: boolean,
  id: number | null,
  name: string | null,
  mime: string | null,
  bytes: number | null,
): PrivateFileRef | null {
  if (!withFiles || id === null) return null;
  // Only JPG, PNG and PDF are ever stored (certification-file-routes.ts).
  return { id, name: name ?? '', mime: mime as PrivateFileRef['mime'], bytes: Number(bytes ?? 0) };
}

function toApplication(r: ApplicationRow, withFiles: boolean): CertificationApplication {
  return {
    id: r.id,
    status: r.status,
    enterpriseName: r.enterprise_name,
    creditCode: r.credit_code,
    legalRepresentative: r.legal_representative,
    applicantRole: r.applicant_role,
    applicantName: r.applicant_name ?? '',
    licence: fileRef(withFiles, r.licence_id, r.licence_name, r.licence_mime, r.licence_bytes),
    authorization: fileRef(withFiles, r.letter_id, r.letter_name, r.letter_mime, r.letter_bytes),
    submittedAt: chinaTime(new Date(r.submitted_at)),
    decidedAt: time(r.decided_at),
    reviewerName: r.reviewer_name ?? '',
    reasons: r.reasons.split(',').filter(isReason),
    comment: r.comment,
  };
}

/**
 * 企业认证 and 认证审核: applications with their materials and decisions, and the
 * enterprise's certification state they move. Every write runs in the caller's transaction, with its
 * audit row and messages.
 */
export class CertificationRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** An enterprise's applications, newest first (the timeline); materials only when `withFiles`. */
  async applications(enterpriseId: number, withFiles: boolean): Promise<CertificationApplication[]> {
    const rows = await applicationQuery(this.db)
      .where('ca.enterprise_id', '=', enterpriseId)
      .orderBy('ca.submitted_at', 'desc')
      .orderBy('ca.id', 'desc')
      .execute();
    return rows.map((r) => toApplication(r, withFiles));
  }

  /** 企业认证 of an enterprise: its status and every application; undefined when there is no such enterprise. */
  async state(enterpriseId: number, withFiles: boolean): Promise<CertificationState | undefined> {
    const enterprise = await this.db
      .selectFrom('enterprise')
      .select(['certification_status', 'certified_at'])
      .where('id', '=', enterpriseId)
      .executeTakeFirst();
    if (!enterprise) return undefined;
    return {
      status: enterprise.certification_status,
      certifiedAt: time(enterprise.certified_at),
      applications: await this.applications(enterpriseId, withFiles),
    };
  }

  /** The fields of an enterprise the authorisation letter template fills in. */
  enterprise(enterpriseId: number) {
    return this.db
      .selectFrom('enterprise')
      .select(['name', 'credit_code', 'legal_representative', 'certification_status'])
      .where('id', '=', enterpriseId)
      .executeTakeFirst();
  }

  /** Why the enterprise may not apply now (409), or undefined when it may (never applied, or rejected). */
  private refusal(status: CertificationStatus | undefined): ConflictError | undefined {
    if (status === 'pending') return new ConflictError(CertificationMessage.pending);
    if (status === 'certified') return new ConflictError(CertificationMessage.alreadyCertified);
    return undefined;
  }

  /** Refuses an application while one is pending or once the enterprise is certified. */
  async assertMayApply(enterpriseId: number, db: Kysely<Database> = this.db): Promise<void> {
    const row = await db.selectFrom('enterprise').select('certification_status').where('id', '=', enterpriseId).executeTakeFirst();
    const refusal = this.refusal(row?.certification_status);
    if (refusal) throw refusal;
  }

  /** Another enterprise already has the name or the credit code (EnterpriseMessage, 400). */
  private async takenBy(db: Kysely<Database>, s: CertificationSubmission): Promise<BadRequestError | undefined> {
    const other = (column: 'name' | 'credit_code', value: string) =>
      db.selectFrom('enterprise').select('id').where(column, '=', value).where('id', '!=', s.enterpriseId).executeTakeFirst();
    if (await other('name', s.enterpriseName)) return new BadRequestError(EnterpriseMessage.nameTaken);
    if (await other('credit_code', s.creditCode)) return new BadRequestError(EnterpriseMessage.creditCodeTaken);
    return undefined;
  }

  /**
   * A new pending application, inside `within`'s transaction (the audit row): the submitted name,
   * credit code and legal representative become the enterprise's, and it is 待审核. Refused (nothing
   * written) while another application is pending or once certified, and when another enterprise
   * holds the name or the credit code.
   */
  async submit(s: CertificationSubmission, within: (trx: Kysely<Database>, id: number) => Promise<void>): Promise<number> {
    try {
      return await inEnterpriseTransaction(this.db, s.enterpriseId, async (trx) => {
        const taken = await this.takenBy(trx, s);
        if (taken) throw taken;
        const now = new Date().toISOString();
        // Conditional: of two submissions racing, only one finds the enterprise still free to apply.
        const moved = await trx
          .updateTable('enterprise')
          .set({
            name: s.enterpriseName,
            credit_code: s.creditCode,
            legal_representative: s.legalRepresentative,
            certification_status: 'pending',
            updated_at: now,
          })
          .where('id', '=', s.enterpriseId)
          .where('certification_status', 'in', ['none', 'rejected'])
          .executeTakeFirst();
        if (!Number(moved.numUpdatedRows)) {
          await this.assertMayApply(s.enterpriseId, trx);
          throw new ConflictError(CertificationMessage.pending);
        }
        const row = await trx
          .insertInto('certification_application')
          .values({
            enterprise_id: s.enterpriseId,
            applicant_id: s.applicantId,
            status: 'pending',
            enterprise_name: s.enterpriseName,
            credit_code: s.creditCode,
            legal_representative: s.legalRepresentative,
            applicant_role: s.applicantRole,
            licence_file_id: s.licenceFileId,
            authorization_file_id: s.authorizationFileId,
            submitted_at: now,
            reviewer_id: null,
            decided_at: null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await within(trx, row.id);
        return row.id;
      });
    } catch (err) {
      // A concurrent write took the name or the code after the check above: say which.
      if (isUniqueViolation(err)) throw (await this.takenBy(this.db, s)) ?? new BadRequestError(EnterpriseMessage.nameTaken);
      throw err;
    }
  }

  /** One page of 认证审核's queue: pending ones oldest first (first come, first served), others newest first. */
  async page(filters: ReviewFilters, offset: number, limit: number): Promise<{ total: number; rows: CertificationReviewRow[] }> {
    let query = this.db
      .selectFrom('certification_application as ca')
      .leftJoin('account as applicant', 'applicant.id', 'ca.applicant_id')
      .leftJoin('account as reviewer', 'reviewer.id', 'ca.reviewer_id');
    if (filters.status) query = query.where('ca.status', '=', filters.status);
    if (filters.keyword) {
      const keyword = filters.keyword;
      query = query.where((eb) => eb.or([containsText('ca.enterprise_name', keyword), containsText('ca.credit_code', keyword)]));
    }
    if (filters.start) query = query.where('ca.submitted_at', '>=', filters.start);
    if (filters.end) query = query.where('ca.submitted_at', '<=', filters.end);
    const direction = filters.status === 'pending' ? 'asc' : 'desc';
    const [count, rows] = await Promise.all([
      query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      query
        .select([
          'ca.id',
          'ca.enterprise_id',
          'ca.enterprise_name',
          'ca.credit_code',
          'ca.status',
          'ca.submitted_at',
          'ca.decided_at',
          'applicant.name as applicant_name',
          'applicant.phone as applicant_phone',
          'reviewer.name as reviewer_name',
        ])
        .orderBy('ca.submitted_at', direction)
        .orderBy('ca.id', direction)
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
        creditCode: r.credit_code,
        applicantName: r.applicant_name ?? '',
        applicantPhone: r.applicant_phone ?? '',
        status: r.status,
        submittedAt: chinaTime(new Date(r.submitted_at)),
        decidedAt: time(r.decided_at),
        reviewerName: r.reviewer_name ?? '',
      })),
    };
  }

  /** 认证审核's detail: the application with its materials, the enterprise's profile and its earlier applications. */
  async reviewDetail(id: number): Promise<(Omit<CertificationReviewDetail, 'profile'> & { enterpriseId: number }) | undefined> {
    const row = await applicationQuery(this.db).where('ca.id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    const all = await this.applications(row.enterprise_id, true);
    return {
      enterpriseId: row.enterprise_id,
      application: toApplication(row, true),
      applicantPhone: row.applicant_phone ?? '',
      // Newest first: what follows this application in the timeline came before it.
      history: all.slice(all.findIndex((a) => a.id === id) + 1),
    };
  }

  async toDecide(id: number): Promise<ApplicationToDecide | undefined> {
    const row = await this.db
      .selectFrom('certification_application as ca')
      .leftJoin('account as applicant', 'applicant.id', 'ca.applicant_id')
      .select(['ca.id', 'ca.enterprise_id', 'ca.enterprise_name', 'ca.status', 'ca.applicant_id', 'applicant.phone'])
      .where('ca.id', '=', id)
      .executeTakeFirst();
    return (
      row && {
        id: row.id,
        enterpriseId: row.enterprise_id,
        enterpriseName: row.enterprise_name,
        status: row.status,
        applicantId: row.applicant_id,
        applicantPhone: row.phone ?? '',
      }
    );
  }

  /**
   * Decides a pending application in the caller's transaction: 通过 certifies the enterprise (now),
   * 驳回 leaves it rejected until it applies again. Conditional on the application still being
   * pending, so of two reviewers deciding at once only one does (409 for the other).
   */
  async decide(trx: Kysely<Database>, application: ApplicationToDecide, decision: Decision): Promise<void> {
    const now = new Date().toISOString();
    const decided = await trx
      .updateTable('certification_application')
      .set({
        status: decision.status,
        reviewer_id: decision.reviewerId,
        decided_at: now,
        reasons: decision.reasons.join(','),
        comment: decision.comment,
      })
      .where('id', '=', application.id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (!Number(decided.numUpdatedRows)) throw new ConflictError(CertificationMessage.notPending);
    await trx
      .updateTable('enterprise')
      .set(
        decision.status === 'approved'
          ? { certification_status: 'certified', certified_at: now, updated_at: now }
          : { certification_status: 'rejected', updated_at: now },
      )
      .where('id', '=', application.enterpriseId)
      .execute();
  }
}

export default fp(
  async (app) => {
    app.decorate('certificationRepository', new CertificationRepository(app.database.db));
  },
  { name: 'certification-repository' },
);
