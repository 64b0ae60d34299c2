import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { AppError, BadRequestError, TooManyRequestsError } from '../../platform/lib/errors.js';
import { chinaClock } from '../../platform/lib/china-time.js';
import type { SmsCodeRepository } from './sms-code-repository.js';

/**
 * SMS verification codes (docs: protocols.md "SMS verification codes"; NIST SP 800-63B, OWASP):
 * 6 digits from a CSPRNG, valid 5 minutes, single use, bound to purpose and phone, at most 5 wrong
 * tries; stored as HMAC-SHA256(key, purpose|phone|code). Per phone one send a minute, 5 an hour and
 * 10 a day; per client IP a daily cap. Counters are the code rows themselves, so every instance sees them.
 */
export const SMS_POLICY = {
  codeDigits: 6,
  validMinutes: 5,
  maxAttempts: 5,
  resendSeconds: 60,
  perPhoneHour: 5,
  perPhoneDay: 10,
} as const;

/** register: 注册; reset: 忘记密码; login: 二次验证's 短信验证码. */
export type SmsPurpose = 'register' | 'reset' | 'login';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export class SmsCodes {
  constructor(
    private readonly codes: SmsCodeRepository,
    private readonly db: Kysely<Database>,
    private readonly key: Buffer,
    private readonly ipDailyLimit: number,
  ) {}

  private hash(purpose: SmsPurpose, phone: string, code: string): string {
    return createHmac('sha256', this.key).update(`${purpose}|${phone}|${code}`).digest('hex');
  }

  /**
   * Checks every limit and stores a new code, all in one transaction (serialised per phone on
   * PostgreSQL by an advisory lock); answers the code for the sender. Over a limit: 429 with when to retry.
   */
  async issue(purpose: SmsPurpose, phone: string, ip: string, now = new Date()): Promise<{ id: number; code: string }> {
    return this.db.transaction().execute(async (trx) => {
      await this.codes.lockPhone(trx, phone);
      const dayAgo = new Date(now.getTime() - DAY).toISOString();
      const sent = await this.codes.sentTo(trx, phone, dayAgo);
      const last = sent[0];
      if (last) {
        const wait = Math.ceil((new Date(last.created_at).getTime() + SMS_POLICY.resendSeconds * 1000 - now.getTime()) / 1000);
        if (wait > 0) throw new TooManyRequestsError(`验证码发送过于频繁，请 ${wait} 秒后再试`);
      }
      const hourAgo = new Date(now.getTime() - HOUR).toISOString();
      const lastHour = sent.filter((s) => s.created_at > hourAgo);
      if (lastHour.length >= SMS_POLICY.perPhoneHour) {
        const oldest = lastHour[lastHour.length - 1]!;
        const minutes = Math.max(1, Math.ceil((new Date(oldest.created_at).getTime() + HOUR - now.getTime()) / 60_000));
        throw new TooManyRequestsError(`该手机号 1 小时内最多获取 ${SMS_POLICY.perPhoneHour} 次验证码，请 ${minutes} 分钟后再试`);
      }
      if (sent.length >= SMS_POLICY.perPhoneDay) {
        const oldest = sent[sent.length - 1]!;
        throw new TooManyRequestsError(
          `该手机号 24 小时内最多获取 ${SMS_POLICY.perPhoneDay} 次验证码，请于 ${chinaClock(new Date(new Date(oldest.created_at).getTime() + DAY))} 后再试`,
        );
      }
      const fromIp = await this.codes.sentFromIp(trx, ip, dayAgo);
      if (fromIp.n >= this.ipDailyLimit && fromIp.oldest) {
        throw new TooManyRequestsError(
          `当前网络获取验证码次数过多，请于 ${chinaClock(new Date(new Date(fromIp.oldest).getTime() + DAY))} 后再试`,
        );
      }

      const code = String(randomInt(0, 10 ** SMS_POLICY.codeDigits)).padStart(SMS_POLICY.codeDigits, '0');
      // A new code replaces the previous ones of this phone and purpose.
      await this.codes.consumeOpen(trx, phone, purpose, now.toISOString());
      const id = await this.codes.insert(trx, {
        purpose,
        phone,
        ip,
        code_hash: this.hash(purpose, phone, code),
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + SMS_POLICY.validMinutes * 60_000).toISOString(),
        consumed_at: null,
      });
      return { id, code };
    });
  }

  /** A code whose message could not be sent does not count against the limits. */
  async withdraw(id: number): Promise<void> {
    await this.codes.delete(id);
  }

  /**
   * Checks a code without consuming it. Every check spends one of its 5 tries, whether the code is
   * wrong or the work it allows is refused afterwards (a taken username or phone), so one
   * code cannot probe names without limit; the try is taken in one statement before the comparison,
   * so parallel checks cannot exceed the limit either. Answers the code row's id for `consume`.
   */
  async check(purpose: SmsPurpose, phone: string, code: string, now = new Date()): Promise<number> {
    const row = await this.codes.latestOpen(phone, purpose);
    const tried = row && row.expires_at > now.toISOString() ? await this.codes.takeTry(row.id, SMS_POLICY.maxAttempts) : undefined;
    if (!row || tried === undefined) throw new BadRequestError('验证码已失效，请重新获取');
    const expected = Buffer.from(row.code_hash, 'hex');
    const given = Buffer.from(this.hash(purpose, phone, code), 'hex');
    if (!timingSafeEqual(expected, given)) {
      const left = SMS_POLICY.maxAttempts - tried;
      throw new BadRequestError(left > 0 ? `验证码错误，还可尝试 ${left} 次` : '验证码错误次数过多，请重新获取');
    }
    return row.id;
  }

  /** Spends a checked code inside the caller's transaction; a code already spent refuses the work. */
  async consume(trx: Kysely<Database>, id: number, now = new Date()): Promise<void> {
    if (!(await this.codes.consume(trx, id, now.toISOString()))) throw new AppError('验证码已失效，请重新获取', 400);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    smsCodeService: SmsCodes;
  }
}

export default fp(
  async (app) => {
    const key = await app.systemRepository.sharedKey('sms-code-hmac');
    app.decorate('smsCodeService', new SmsCodes(app.smsCodeRepository, app.database.db, key, app.config.auth.smsIpDailyLimit));
  },
  { name: 'sms-codes', dependencies: ['system-repository', 'sms-code-repository'] },
);
