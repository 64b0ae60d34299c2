import { createHmac, randomInt } from 'node:crypto';
import { RECOVERY_CODE_COUNT } from '@portal/shared';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import { generateSecret, generateURI, verify } from 'otplib';
import encodeQR from 'qr';
import type { Database } from '../../platform/db/schema.js';
import { SecretBox } from '../../platform/lib/sealed-secret.js';
import type { TwoFactorRepository } from './two-factor-repository.js';

/** RFC 6238 as protocols.md fixes it: 30-second steps, 6 digits, HMAC-SHA1 (otplib's defaults), ±1 step. */
const STEP_SECONDS = 30;
export const TOTP_CODE_PATTERN = /^\d{6}$/;
/** Recovery codes: 10 characters without look-alikes (no 0/o, 1/l/i), shown as `xxxxx-xxxxx`. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const RECOVERY_LENGTH = 10;

const newRecoveryCode = () => {
  let code = '';
  for (let i = 0; i < RECOVERY_LENGTH; i++) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
};
/** The SecretBox purpose of TOTP secrets: a value sealed for another use does not open as one. */
const SEAL_PURPOSE = 'totp-secret';

/** What a person may type for a recovery code: any case, with or without the dash and spaces. */
const normaliseRecoveryCode = (input: string) => input.toLowerCase().replace(/[\s-]/g, '');

/** What the enrolment page shows: the QR code of the otpauth URI and the key for typing it in. */
export interface Enrolment {
  uri: string;
  /** The QR code as a data URL (SVG), for an `<img>` under the CAS pages' CSP (img-src data:). */
  qrDataUrl: string;
  /** The base32 secret in groups of four, for authenticator apps without a camera. */
  manualKey: string;
}

/**
 * Two-factor login (protocols.md "TOTP"): an account's TOTP secret (pending until a first
 * code confirms it), the last accepted time step (each code works once), and its recovery codes,
 * stored as HMAC-SHA256 under a server key and spent once. Secrets are kept sealed (AES-256-GCM,
 * `platform/lib/sealed-secret.ts`) so a copy of the account rows does not give away anyone's second factor;
 * secrets and codes are never logged.
 */
export class TwoFactor {
  constructor(
    private readonly accounts: TwoFactorRepository,
    private readonly db: Kysely<Database>,
    private readonly recoveryKey: Buffer,
    private readonly issuer: string,
    private readonly box: SecretBox,
  ) {}

  /** The stored secret in the clear; undefined when it does not open under this key (treated as no secret). */
  private open(stored: string | null): string | undefined {
    return stored === null ? undefined : this.box.open(stored, SEAL_PURPOSE);
  }

  /** Seals secrets stored in the clear by an earlier version (once, at start). */
  async sealPlainSecrets(): Promise<void> {
    for (const row of await this.accounts.plainSecrets()) {
      await this.accounts.replaceSecret(row.id, row.totp_secret, this.box.seal(row.totp_secret!, SEAL_PURPOSE));
    }
  }

  private hashRecovery(accountId: number, code: string): string {
    return createHmac('sha256', this.recoveryKey)
      .update(`${accountId}|${normaliseRecoveryCode(code)}`)
      .digest('hex');
  }

  /**
   * The secret an account is enrolling with: the one already pending (the page was shown before), or a
   * new one of 20 random bytes (RFC 4226 §4); undefined when the account is enrolled already.
   */
  async pendingSecret(accountId: number): Promise<string | undefined> {
    await this.accounts.setSecretIfNone(accountId, this.box.seal(generateSecret({ length: 20 }), SEAL_PURPOSE));
    const row = await this.accounts.state(accountId);
    return row && !row.totp_enabled_at ? this.open(row.totp_secret) : undefined;
  }

  /** The otpauth URI (`otpauth://totp/{issuer}:{account}?secret=…&issuer=…`) and its QR code. */
  async enrolment(secret: string, username: string): Promise<Enrolment> {
    const uri = generateURI({ issuer: this.issuer, label: username, secret });
    const svg = encodeQR(uri, 'svg', { ecc: 'medium', border: 1 });
    return {
      uri,
      qrDataUrl: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
      manualKey: secret.replace(/(.{4})(?=.)/g, '$1 '),
    };
  }

  /** The time step of `code` for `secret` within ±1 step after `afterStep`, if it is one. */
  private async acceptedStep(secret: string, code: string, afterStep: number | null, now: Date): Promise<number | undefined> {
    if (!TOTP_CODE_PATTERN.test(code)) return undefined;
    const result = await verify({
      secret,
      token: code,
      epoch: Math.floor(now.getTime() / 1000),
      epochTolerance: STEP_SECONDS,
      ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
    });
    return result.valid && 'timeStep' in result ? result.timeStep : undefined;
  }

  /**
   * The first code from the authenticator confirms the pending secret: the account is enrolled and
   * gets new recovery codes, answered once here (only their hashes are kept); `within` (the audit row)
   * commits with it. Undefined: wrong code, or nothing pending any more.
   */
  async confirm(
    accountId: number,
    code: string,
    within: (trx: Kysely<Database>) => Promise<void>,
    now = new Date(),
  ): Promise<string[] | undefined> {
    const row = await this.accounts.state(accountId);
    const secret = this.open(row?.totp_secret ?? null);
    if (!row || !secret || row.totp_enabled_at) return undefined;
    const step = await this.acceptedStep(secret, code.trim(), null, now);
    if (step === undefined) return undefined;
    return this.db.transaction().execute(async (trx) => {
      if (!(await this.accounts.enable(trx, accountId, row.totp_secret, step, now.toISOString()))) return undefined;
      const codes = await this.newRecoveryCodes(trx, accountId);
      await within(trx);
      return codes;
    });
  }

  /**
   * A code at a later login: a TOTP code of a step after the last accepted one (a replayed code fails,
   * also when two requests race: the step moves forward in one conditional update), or an unused
   * recovery code, spent the same way. Answers which one it was, or undefined.
   */
  async verify(accountId: number, code: string, now = new Date()): Promise<'totp' | 'recovery' | undefined> {
    const row = await this.accounts.state(accountId);
    const secret = this.open(row?.totp_secret ?? null);
    if (!row || !secret || !row.totp_enabled_at) return undefined;
    const given = code.trim();
    if (TOTP_CODE_PATTERN.test(given)) {
      // PostgreSQL answers bigint columns as strings.
      const last = row.totp_last_step === null ? null : Number(row.totp_last_step);
      const step = await this.acceptedStep(secret, given, last, now);
      if (step === undefined) return undefined;
      return (await this.accounts.advanceStep(accountId, step)) ? 'totp' : undefined;
    }
    if (normaliseRecoveryCode(given).length !== RECOVERY_LENGTH) return undefined;
    const spent = await this.accounts.spendRecoveryCode(accountId, this.hashRecovery(accountId, given), now.toISOString());
    return spent ? 'recovery' : undefined;
  }

  /** 个人信息's 二次验证: whether an authenticator is bound, and how many recovery codes are left. */
  async stateOf(accountId: number): Promise<{ enabled: boolean; recoveryCodesLeft: number }> {
    const row = await this.accounts.state(accountId);
    const enabled = Boolean(row?.totp_enabled_at && this.open(row.totp_secret));
    return { enabled, recoveryCodesLeft: enabled ? await this.accounts.unusedRecoveryCodes(accountId) : 0 };
  }

  /**
   * 重新生成恢复码: the old codes stop working and new ones are answered once; `within` (the audit row)
   * commits with them. Undefined when the account has no authenticator bound.
   */
  async regenerateRecoveryCodes(accountId: number, within: (trx: Kysely<Database>) => Promise<void>): Promise<string[] | undefined> {
    const row = await this.accounts.state(accountId);
    if (!row?.totp_enabled_at || !this.open(row.totp_secret)) return undefined;
    return this.db.transaction().execute(async (trx) => {
      const codes = await this.newRecoveryCodes(trx, accountId);
      await within(trx);
      return codes;
    });
  }

  /** A fresh set of recovery codes in place of the account's old ones (stored hashed); answers them, to be shown once. */
  private async newRecoveryCodes(trx: Kysely<Database>, accountId: number): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await this.accounts.replaceRecoveryCodes(
      trx,
      accountId,
      codes.map((c) => this.hashRecovery(accountId, c)),
    );
    return codes;
  }

  /** 重置二次验证: the secret and recovery codes go, inside the caller's transaction; the next login enrols again. */
  async reset(trx: Kysely<Database>, accountId: number): Promise<void> {
    await this.accounts.clear(trx, accountId);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    twoFactorService: TwoFactor;
  }
}

export default fp(
  async (app) => {
    const key = await app.systemRepository.sharedKey('recovery-code-hmac');
    const box = new SecretBox(await app.systemRepository.sharedKey('totp-secret'));
    const twoFactor = new TwoFactor(app.twoFactorRepository, app.database.db, key, app.config.auth.totpIssuer, box);
    await twoFactor.sealPlainSecrets();
    app.decorate('twoFactorService', twoFactor);
  },
  { name: 'two-factor', dependencies: ['system-repository', 'two-factor-repository'] },
);
