import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** How long the central login's 修改初始密码 form stays good after the password was checked. */
const LIFETIME_SECONDS = 600;

const fingerprint = (passwordHash: string) => createHash('sha256').update(passwordHash).digest('base64url').slice(0, 22);

/**
 * Proof that the browser typed an account's current password a moment ago, carried by the central
 * login's password-change form (issue 16: an account given an initial password changes it at its first
 * login). Stateless and tied to the password it was issued for: once the password changes, it is spent.
 */
export class PasswordChangeTickets {
  constructor(private readonly key: Buffer) {}

  issue(accountId: number, passwordHash: string, now = Date.now()): string {
    const payload = Buffer.from(
      JSON.stringify({ a: accountId, e: Math.floor(now / 1000) + LIFETIME_SECONDS, p: fingerprint(passwordHash) }),
    ).toString('base64url');
    return `${payload}.${this.sign(payload)}`;
  }

  /** The account the ticket names, if it is genuine, fresh and its password unchanged. */
  check(ticket: string, currentHash: (accountId: number) => Promise<string | undefined>, now = Date.now()): Promise<number | undefined> {
    const [payload = '', signature = ''] = ticket.split('.');
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(signature);
    if (!payload || expected.length !== given.length || !timingSafeEqual(expected, given)) return Promise.resolve(undefined);
    let claims: { a?: unknown; e?: unknown; p?: unknown };
    try {
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof claims;
    } catch {
      return Promise.resolve(undefined);
    }
    const { a: accountId, e: expires, p: print } = claims;
    if (typeof accountId !== 'number' || typeof expires !== 'number' || typeof print !== 'string') return Promise.resolve(undefined);
    if (expires * 1000 <= now) return Promise.resolve(undefined);
    return currentHash(accountId).then((hash) => (hash !== undefined && fingerprint(hash) === print ? accountId : undefined));
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }
}
