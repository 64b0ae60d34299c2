import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import fp from 'fastify-plugin';
import { type Kysely, sql } from 'kysely';
import type { DialectName } from '../../platform/db/database.js';
import type { Database } from '../../platform/db/schema.js';
import { chinaClock } from '../../platform/lib/china-time.js';
import { AppError, TooManyRequestsError } from '../../platform/lib/errors.js';

/**
 * 邀请成员: a one-time code sent by SMS that the invitee types as the registration's SMS
 * code. Like the registration codes (identity/register/sms-codes.ts): 6 digits from a CSPRNG, stored
 * as an HMAC, at most 5 tries; valid 7 days (the invitee registers when they can). An enterprise
 * invites a phone at most once a minute, a phone is invited at most 5 times a day (all enterprises
 * together) and an enterprise sends at most 50 invitations a day.
 */
export const INVITATION_POLICY = {
  codeDigits: 6,
  validDays: 7,
  maxAttempts: 5,
  resendSeconds: 60,
  perPhoneDay: 5,
  perEnterpriseDay: 50,
} as const;

const DAY = 86_400_000;

/** What an invitation says about a registration's code: none applies, it is the invitation's, or a wrong try. */
export type InvitationCheck = { kind: 'none' } | { kind: 'valid'; id: number; enterpriseId: number } | { kind: 'wrong'; left: number };

export class InvitationRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
    private readonly key: Buffer,
  ) {}

  private hash(enterpriseId: number, phone: string, code: string): string {
    return createHmac('sha256', this.key).update(`invite|${enterpriseId}|${phone}|${code}`).digest('hex');
  }

  /**
   * Checks the limits and stores a new invitation (replacing the enterprise's earlier ones to that
   * phone) inside `trx`, serialised per phone on PostgreSQL; answers the code for the SMS.
   */
  async issue(
    trx: Kysely<Database>,
    invitation: { enterpriseId: number; phone: string; invitedBy: number },
    now = new Date(),
  ): Promise<{ id: number; code: string }> {
    const { enterpriseId, phone } = invitation;
    if (this.dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext(${`invite|${phone}`}))`.execute(trx);
    const dayAgo = new Date(now.getTime() - DAY).toISOString();
    const toPhone = await trx
      .selectFrom('enterprise_invitation')
      .select(['enterprise_id', 'created_at'])
      .where('phone', '=', phone)
      .where('created_at', '>', dayAgo)
      .orderBy('created_at', 'desc')
      .execute();
    const last = toPhone.find((i) => i.enterprise_id === enterpriseId);
    if (last) {
      const wait = Math.ceil((new Date(last.created_at).getTime() + INVITATION_POLICY.resendSeconds * 1000 - now.getTime()) / 1000);
      if (wait > 0) throw new TooManyRequestsError(`邀请发送过于频繁，请 ${wait} 秒后再试`);
    }
    if (toPhone.length >= INVITATION_POLICY.perPhoneDay) {
      const oldest = toPhone[toPhone.length - 1]!;
      throw new TooManyRequestsError(
        `该手机号 24 小时内最多接收 ${INVITATION_POLICY.perPhoneDay} 条邀请，请于 ${chinaClock(new Date(new Date(oldest.created_at).getTime() + DAY))} 后再试`,
      );
    }
    const sent = await trx
      .selectFrom('enterprise_invitation')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('enterprise_id', '=', enterpriseId)
      .where('created_at', '>', dayAgo)
      .executeTakeFirstOrThrow();
    if (Number(sent.n) >= INVITATION_POLICY.perEnterpriseDay) {
      throw new TooManyRequestsError(`本企业 24 小时内最多发送 ${INVITATION_POLICY.perEnterpriseDay} 条邀请，请明天再试`);
    }

    const code = String(randomInt(0, 10 ** INVITATION_POLICY.codeDigits)).padStart(INVITATION_POLICY.codeDigits, '0');
    await trx
      .updateTable('enterprise_invitation')
      .set({ consumed_at: now.toISOString() })
      .where('enterprise_id', '=', enterpriseId)
      .where('phone', '=', phone)
      .where('consumed_at', 'is', null)
      .execute();
    const row = await trx
      .insertInto('enterprise_invitation')
      .values({
        enterprise_id: enterpriseId,
        phone,
        code_hash: this.hash(enterpriseId, phone, code),
        invited_by: invitation.invitedBy,
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + INVITATION_POLICY.validDays * DAY).toISOString(),
        consumed_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: row.id, code };
  }

  /** A phone some account (deleted ones too) already has: its owner registered and is no one to invite. */
  async phoneRegistered(phone: string): Promise<boolean> {
    return (await this.db.selectFrom('account').select('id').where('phone', '=', phone).executeTakeFirst()) !== undefined;
  }

  /** An invitation whose message could not be sent is no invitation (and does not count against the limits). */
  async withdraw(id: number): Promise<void> {
    await this.db.deleteFrom('enterprise_invitation').where('id', '=', id).execute();
  }

  /**
   * Whether a registration's code is the invitation of `phone` to the enterprise named
   * `enterpriseName`. Like an SMS code, each check of a live invitation spends one of its tries
   * (taken in one statement before the comparison), so an invitation cannot be guessed.
   */
  async check(phone: string, enterpriseName: string, code: string, now = new Date()): Promise<InvitationCheck> {
    const row = await this.db
      .selectFrom('enterprise_invitation')
      .innerJoin('enterprise', 'enterprise.id', 'enterprise_invitation.enterprise_id')
      .select(['enterprise_invitation.id', 'enterprise_invitation.enterprise_id', 'enterprise_invitation.code_hash'])
      .where('enterprise.name', '=', enterpriseName)
      .where('enterprise_invitation.phone', '=', phone)
      .where('enterprise_invitation.consumed_at', 'is', null)
      .where('enterprise_invitation.expires_at', '>', now.toISOString())
      .orderBy('enterprise_invitation.created_at', 'desc')
      .executeTakeFirst();
    if (!row) return { kind: 'none' };
    const tried = await this.db
      .updateTable('enterprise_invitation')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', row.id)
      .where('attempts', '<', INVITATION_POLICY.maxAttempts)
      .returning('attempts')
      .executeTakeFirst();
    if (!tried) return { kind: 'none' };
    const expected = Buffer.from(row.code_hash, 'hex');
    const given = Buffer.from(this.hash(row.enterprise_id, phone, code), 'hex');
    if (!timingSafeEqual(expected, given)) return { kind: 'wrong', left: INVITATION_POLICY.maxAttempts - tried.attempts };
    return { kind: 'valid', id: row.id, enterpriseId: row.enterprise_id };
  }

  /** Spends a checked invitation inside the registration's transaction; one already spent refuses it. */
  async consume(trx: Kysely<Database>, id: number, now = new Date()): Promise<void> {
    const spent = await trx
      .updateTable('enterprise_invitation')
      .set({ consumed_at: now.toISOString() })
      .where('id', '=', id)
      .where('consumed_at', 'is', null)
      .executeTakeFirst();
    if (!spent.numUpdatedRows) throw new AppError('验证码已失效，请重新获取', 400);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    invitationRepository: InvitationRepository;
  }
}

export default fp(
  async (app) => {
    const key = await app.systemRepository.sharedKey('invitation-hmac');
    app.decorate('invitationRepository', new InvitationRepository(app.database.db, app.database.dialect, key));
  },
  { name: 'invitation-repository', dependencies: ['system-repository'] },
);
