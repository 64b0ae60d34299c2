import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** How long a step of the central login stays good after the step before it. */
const LIFETIME_SECONDS = 600;

/**
 * The steps of a sign-in after the password, in their order: a two-factor code, a new
 * password (initial or expired), two-factor enrolment, the recovery codes shown once; and the new
 * password of 忘记密码 after its SMS code.
 */
export type LoginStep = 'code' | 'change' | 'enrol' | 'recovery' | 'reset';

const fingerprint = (state: string) => createHash('sha256').update(state).digest('base64url').slice(0, 22);

/**
 * Proof that a browser passed the steps before `step` a moment ago, carried by that step's form.
 * Stateless, signed, short-lived, and tied to the account's sign-in state (password, two-factor
 * secret and last code, last login; AccountRepository.loginState): once that changes — a new
 * password, an accepted code, an enrolment, a completed login — every proof issued before is spent.
 * It is not a session: nothing is signed in until the last step completes the login.
 */
export class LoginProofs {
  constructor(private readonly key: Buffer) {}

  /** `method`: how the login's first step proved the account (登录日志's 登录方式), carried to the step that completes it. */
  issue(accountId: number, step: LoginStep, state: string, now = Date.now(), method?: string): string {
    const claims = {
      a: accountId,
      s: step,
      e: Math.floor(now / 1000) + LIFETIME_SECONDS,
      p: fingerprint(state),
      ...(method ? { m: method } : {}),
    };
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return `${payload}.${this.sign(payload)}`;
  }

  /** The first step's method a genuine proof carries, if any (the caller has checked the proof itself). */
  methodOf(proof: string): string | undefined {
    const [payload = '', signature = ''] = proof.split('.');
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(signature);
    if (!payload || expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
    try {
      const { m } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { m?: unknown };
      return typeof m === 'string' ? m : undefined;
    } catch {
      return undefined;
    }
  }

  /** The account the proof names, if it is genuine, for `step`, fresh and its account's state unchanged. */
  async check(
    proof: string,
    step: LoginStep,
    currentState: (accountId: number) => Promise<string | undefined>,
    now = Date.now(),
  ): Promise<number | undefined> {
    const [payload = '', signature = ''] = proof.split('.');
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(signature);
    if (!payload || expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
    let claims: { a?: unknown; s?: unknown; e?: unknown; p?: unknown };
    try {
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof claims;
    } catch {
      return undefined;
    }
    const { a: accountId, s: issuedFor, e: expires, p: print } = claims;
    if (typeof accountId !== 'number' || typeof expires !== 'number' || typeof print !== 'string') return undefined;
    if (issuedFor !== step || expires * 1000 <= now) return undefined;
    const state = await currentState(accountId);
    return state !== undefined && fingerprint(state) === print ? accountId : undefined;
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }
}
