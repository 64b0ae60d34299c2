import { type CertificationStatus, type EnterpriseProfile, industryLabel } from '@portal/shared';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { DialectName } from '../../platform/db/database.js';
import type { Database } from '../../platform/db/schema.js';
import { chinaTime } from '../../platform/lib/china-time.js';
import { regionLabel } from './regions.js';

/** 企业信息 as stored. */
export interface EnterpriseRecord {
  id: number;
  name: string;
  creditCode: string | null;
  legalRepresentative: string;
  address: string;
  industryCode: string;
  regionCode: string;
  contactName: string;
  contactPhone: string;
  introduction: string;
  logo: string;
  certificationStatus: CertificationStatus;
  certifiedAt: string | null;
}

/** What 保存 writes (already checked; a credit code not given is null). */
export type EnterpriseProfileInput = Omit<EnterpriseRecord, 'id' | 'certificationStatus' | 'certifiedAt'>;

/** The name and credit code are what a review checks: from submission on, only a new certification changes them. */
export const certifiedFieldsLocked = (status: CertificationStatus) => status === 'pending' || status === 'certified';

/** 企业信息: an enterprise's profile, read by its members and written by its administrators. */
export class EnterpriseRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
  ) {}

  /** The enterprise as stored, or undefined. Inside a write's transaction the row is locked on PostgreSQL. */
  async record(id: number, trx?: Kysely<Database>): Promise<EnterpriseRecord | undefined> {
    let query = (trx ?? this.db)
      .selectFrom('enterprise')
      .select([
        'id',
        'name',
        'credit_code',
        'legal_representative',
        'address',
        'industry_code',
        'region_code',
        'contact_name',
        'contact_phone',
        'introduction',
        'logo',
        'certification_status',
        'certified_at',
      ])
      .where('id', '=', id);
    // A certification submitted meanwhile (which sets 待审核) waits for this write or is seen by it; SQLite runs one write at a time.
    if (trx && this.dialect === 'postgres') query = query.forNoKeyUpdate();
    const row = await query.executeTakeFirst();
    if (!row) return undefined;
    return {
      id: row.id,
      name: row.name,
      creditCode: row.credit_code,
      legalRepresentative: row.legal_representative,
      address: row.address,
      industryCode: row.industry_code,
      regionCode: row.region_code,
      contactName: row.contact_name,
      contactPhone: row.contact_phone,
      introduction: row.introduction,
      logo: row.logo,
      certificationStatus: row.certification_status,
      certifiedAt: row.certified_at,
    };
  }

  /** The profile as the console shows it (`editable` is the caller's: the routes set it), or undefined. */
  async profile(id: number): Promise<Omit<EnterpriseProfile, 'editable'> | undefined> {
    const record = await this.record(id);
    return record ? EnterpriseRepository.profileOf(record) : undefined;
  }

  static profileOf(record: EnterpriseRecord): Omit<EnterpriseProfile, 'editable'> {
    return {
      id: record.id,
      name: record.name,
      creditCode: record.creditCode ?? '',
      legalRepresentative: record.legalRepresentative,
      address: record.address,
      industryCode: record.industryCode,
      industryLabel: industryLabel(record.industryCode),
      regionCode: record.regionCode,
      regionLabel: regionLabel(record.regionCode),
      contactName: record.contactName,
      contactPhone: record.contactPhone,
      introduction: record.introduction,
      logo: record.logo,
      certificationStatus: record.certificationStatus,
      certifiedAt: record.certifiedAt ? chinaTime(new Date(record.certifiedAt)) : null,
      certifiedFieldsLocked: certifiedFieldsLocked(record.certificationStatus),
    };
  }

  /** Another enterprise has this name. */
  async nameTaken(name: string, exceptId: number, db: Kysely<Database> = this.db): Promise<boolean> {
    const row = await db.selectFrom('enterprise').select('id').where('name', '=', name).where('id', '!=', exceptId).executeTakeFirst();
    return row !== undefined;
  }

  /** Another enterprise has this credit code. */
  async creditCodeTaken(creditCode: string, exceptId: number, db: Kysely<Database> = this.db): Promise<boolean> {
    const row = await db
      .selectFrom('enterprise')
      .select('id')
      .where('credit_code', '=', creditCode)
      .where('id', '!=', exceptId)
      .executeTakeFirst();
    return row !== undefined;
  }

  async update(trx: Kysely<Database>, id: number, input: EnterpriseProfileInput): Promise<void> {
    await trx
      .updateTable('enterprise')
      .set({
        name: input.name,
        credit_code: input.creditCode,
        legal_representative: input.legalRepresentative,
        address: input.address,
        industry_code: input.industryCode,
        region_code: input.regionCode,
        contact_name: input.contactName,
        contact_phone: input.contactPhone,
        introduction: input.introduction,
        logo: input.logo,
        updated_at: new Date().toISOString(),
      })
      .where('id', '=', id)
      .execute();
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    enterpriseRepository: EnterpriseRepository;
  }
}

export default fp(
  async (app) => {
    app.decorate('enterpriseRepository', new EnterpriseRepository(app.database.db, app.database.dialect));
  },
  { name: 'enterprise-repository' },
);
