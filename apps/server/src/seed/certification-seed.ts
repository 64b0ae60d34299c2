import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { REPO_ROOT } from '../platform/config.js';
import { hashPassword } from '../identity/accounts/passwords.js';
import type { Database } from '../platform/db/schema.js';
import { DEMO_PASSWORD } from './accounts-seed.js';
import {
  CERTIFICATION_ACCOUNTS,
  DEMO_CERTIFICATIONS,
  type DemoCertification,
  PENDING_ENTERPRISE,
  type SampleFile,
} from './certification-data.js';

/** The sample materials (scripts/draw-certification-samples.mjs); never under assets/files, which is public. */
const SAMPLES_DIR = path.join(REPO_ROOT, 'apps/server/assets/certification');
const HOUR = 3_600_000;

export interface CertificationSeedOptions {
  /** Where certification materials are kept (PRIVATE_FILES_DIR). */
  privateFilesDir: string;
}

/**
 * 企业信息 and 企业认证 demo data, once (its own marker, so installations seeded before it
 * get it too): complete profiles of the demo enterprises, each certified through an application a
 * reviewer approved; the reviewer account `reviewer`; and 江苏明川智能装备有限公司 with its
 * administrator `mcadmin`, whose application awaits review, so 认证审核 has a queue on a fresh install.
 * Demo enterprises removed or edited meanwhile, and names, usernames or phones taken meanwhile, are left alone.
 */
export async function seedCertification(db: Kysely<Database>, now: Date, options: CertificationSeedOptions): Promise<boolean> {
  const seeded = await db.selectFrom('site_setting').select('key').where('key', '=', 'seed.certification').executeTakeFirst();
  if (seeded) return false;
  // Hash outside the transaction: argon2id is deliberately slow.
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const written: string[] = [];
  try {
    return await db.transaction().execute(async (trx) => {
      const marker = await trx
        .insertInto('site_setting')
        .values({ key: 'seed.certification', value: '1', updated_at: now.toISOString() })
        .onConflict((oc) => oc.column('key').doNothing())
        .executeTakeFirst();
      if (!marker.numInsertedOrUpdatedRows) return false;

      const enterprises = new Map((await trx.selectFrom('enterprise').select(['id', 'name']).execute()).map((e) => [e.name, e.id]));
      const pendingTaken = enterprises.has(PENDING_ENTERPRISE);
      if (!pendingTaken) {
        const { id } = await trx
          .insertInto('enterprise')
          .values({ name: PENDING_ENTERPRISE, certification_status: 'none', created_at: new Date(now.getTime() - 24 * HOUR).toISOString() })
          .returning('id')
          .executeTakeFirstOrThrow();
        enterprises.set(PENDING_ENTERPRISE, id);
      }
      const accounts = await seedAccounts(trx, enterprises, passwordHash, now);
      for (const demo of DEMO_CERTIFICATIONS) {
        const enterpriseId = enterprises.get(demo.enterprise);
        // 明川 is this seed's own; a same-named enterprise someone registered is not.
        if (enterpriseId === undefined || (demo.enterprise === PENDING_ENTERPRISE && pendingTaken)) continue;
        await certify(trx, demo, enterpriseId, accounts, now, options.privateFilesDir, written);
      }
      return true;
    });
  } catch (err) {
    await Promise.all(written.map((file) => fs.rm(file, { force: true })));
    throw err;
  }
}

/** The demo accounts this seed adds (those whose username or phone is free) with the existing ones: ids by username. */
async function seedAccounts(trx: Kysely<Database>, enterprises: Map<string, number>, passwordHash: string, now: Date) {
  const roles = new Map(
    (await trx.selectFrom('role').select(['id', 'code']).where('enterprise_id', 'is', null).execute()).map((r) => [r.code, r.id]),
  );
  const existing = await trx.selectFrom('account').select(['id', 'username', 'phone', 'enterprise_id']).execute();
  const accounts = new Map(existing.map((a) => [a.username, { id: a.id, enterpriseId: a.enterprise_id }]));
  for (const a of CERTIFICATION_ACCOUNTS) {
    const enterpriseId = enterprises.get(a.enterprise);
    const roleId = roles.get(a.role);
    if (enterpriseId === undefined || roleId === undefined || existing.some((e) => e.username === a.username || e.phone === a.phone))
      continue;
    const at = now.toISOString();
    const { id } = await trx
      .insertInto('account')
      .values({
        username: a.username,
        name: a.name,
        phone: a.phone,
        email: a.email,
        number: a.number,
        password_hash: passwordHash,
        enterprise_id: enterpriseId,
        status: 'active',
        created_at: at,
        updated_at: at,
        password_changed_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx.insertInto('account_role').values({ account_id: id, role_id: roleId }).execute();
    accounts.set(a.username, { id, enterpriseId });
  }
  return accounts;
}

/**
 * Fills a demo enterprise's profile and records its application: approved (certified a day after it
 * was submitted) or pending. An enterprise that has applied or has a credit code already, or whose
 * code another enterprise holds, keeps what it has.
 */
async function certify(
  trx: Kysely<Database>,
  demo: DemoCertification,
  enterpriseId: number,
  accounts: Map<string, { id: number; enterpriseId: number | null }>,
  now: Date,
  privateFilesDir: string,
  written: string[],
) {
  const current = await trx.selectFrom('enterprise').select('credit_code').where('id', '=', enterpriseId).executeTakeFirstOrThrow();
  const applied = await trx
    .selectFrom('certification_application')
    .select('id')
    .where('enterprise_id', '=', enterpriseId)
    .executeTakeFirst();
  const codeTaken = await trx.selectFrom('enterprise').select('id').where('credit_code', '=', demo.creditCode).executeTakeFirst();
  if (current.credit_code !== null || applied || codeTaken) return;
  const { application } = demo;
  const applicant = accounts.get(application.applicant);
  const applicantId = applicant?.enterpriseId === enterpriseId ? applicant.id : null;
  const reviewerId = application.reviewer ? (accounts.get(application.reviewer)?.id ?? null) : null;
  const submitted = new Date(now.getTime() - application.submittedHoursAgo * HOUR);
  const decided = application.status === 'approved' ? new Date(submitted.getTime() + 26 * HOUR) : null;

  const store = async (file: SampleFile, purpose: 'licence' | 'authorization') => {
    const key = storageKey(now, file.file);
    const target = path.join(privateFilesDir, key);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.copyFile(path.join(SAMPLES_DIR, file.file), target, fs.constants.COPYFILE_EXCL);
    written.push(target);
    const { size } = await fs.stat(target);
    const { id } = await trx
      .insertInto('private_file')
      .values({
        enterprise_id: enterpriseId,
        account_id: applicantId,
        purpose,
        storage_key: key,
        mime: file.mime,
        bytes: size,
        original_name: file.originalName,
        created_at: new Date(submitted.getTime() - 10 * 60_000).toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  };
  const licenceId = await store(demo.licence, 'licence');
  const authorizationId = application.authorization ? await store(application.authorization, 'authorization') : null;

  await trx
    .insertInto('certification_application')
    .values({
      enterprise_id: enterpriseId,
      applicant_id: applicantId,
      status: application.status,
      enterprise_name: demo.enterprise,
      credit_code: demo.creditCode,
      legal_representative: demo.legalRepresentative,
      applicant_role: application.applicantRole,
      licence_file_id: licenceId,
      authorization_file_id: authorizationId,
      submitted_at: submitted.toISOString(),
      reviewer_id: decided ? reviewerId : null,
      decided_at: decided?.toISOString() ?? null,
    })
    .execute();
  await trx
    .updateTable('enterprise')
    .set({
      credit_code: demo.creditCode,
      legal_representative: demo.legalRepresentative,
      address: demo.address,
      industry_code: demo.industryCode,
      region_code: demo.regionCode,
      contact_name: demo.contactName,
      contact_phone: demo.contactPhone,
      introduction: demo.introduction,
      certification_status: decided ? 'certified' : 'pending',
      certified_at: decided?.toISOString() ?? null,
      updated_at: (decided ?? submitted).toISOString(),
    })
    .where('id', '=', enterpriseId)
    .execute();
}

/** `yyyy/mm/<uuid>.<ext>` under PRIVATE_FILES_DIR, as uploads are stored. */
function storageKey(now: Date, file: string): string {
  return `${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}/${randomUUID()}${path.extname(file)}`;
}
