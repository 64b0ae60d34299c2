import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { type ChatSourceType, isChatSourceType } from '@portal/shared';

/** How long a QR sign-in may take, from the button to the platform's callback. */
export const SIGN_IN_SECONDS = 600;

/** What a QR sign-in continues with after the platform's callback. */
export interface PendingSignIn {
  type: ChatSourceType;
  sourceId: number;
  service: string | undefined;
  renew: boolean;
}

const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * The OAuth 2.0 `state` of a QR sign-in (RFC 6749 §10.12): random, signed, and bound to the browser
 * that started it by a short-lived cookie carrying the same nonce and where the login goes. Stateless
 * and signed with a key every instance shares, so the callback may reach any instance. The state is
 * letters and digits only, 64 of them (企业微信 accepts a-zA-Z0-9, at most 128 bytes).
 */
export class SignInStates {
  constructor(private readonly key: Buffer) {}

  private mac(purpose: 'state' | 'cookie', text: string): string {
    return createHmac('sha256', this.key).update(`${purpose}|${text}`).digest('hex');
  }

  /** A new sign-in: the state for the platform and the cookie value for this browser. */
  start(pending: PendingSignIn, now = Date.now()): { state: string; cookie: string } {
    const nonce = randomBytes(16).toString('hex');
    const state = `${nonce}${this.mac('state', nonce).slice(0, 32)}`;
    const claims = {
      n: nonce,
      t: pending.type,
      s: pending.sourceId,
      v: pending.service ?? null,
      r: pending.renew,
      e: Math.floor(now / 1000) + SIGN_IN_SECONDS,
    };
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return { state, cookie: `${payload}.${this.mac('cookie', payload)}` };
  }

  /** The sign-in this browser started for `type`, if its cookie is genuine and fresh (whatever the state). */
  read(type: ChatSourceType, cookie: string | undefined, now = Date.now()): (PendingSignIn & { nonce: string }) | undefined {
    const [payload = '', signature = ''] = (cookie ?? '').split('.');
    if (!payload || !same(signature, this.mac('cookie', payload))) return undefined;
    let claims: { n?: unknown; t?: unknown; s?: unknown; v?: unknown; r?: unknown; e?: unknown };
    try {
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof claims;
    } catch {
      return undefined;
    }
    const { n: nonce, t, s: sourceId, v: service, r: renew, e: expires } = claims;
    if (typeof nonce !== 'string' || typeof t !== 'string' || !isChatSourceType(t) || t !== type) return undefined;
    if (typeof sourceId !== 'number' || typeof expires !== 'number' || expires * 1000 <= now) return undefined;
    if (service !== null && typeof service !== 'string') return undefined;
    return { nonce, type: t, sourceId, service: service ?? undefined, renew: renew === true };
  }

  /** The sign-in a callback continues: the state is ours and is the one this browser's cookie was issued with. */
  finish(type: ChatSourceType, state: string | undefined, cookie: string | undefined, now = Date.now()): PendingSignIn | undefined {
    const pending = this.read(type, cookie, now);
    if (!pending || !state) return undefined;
    const nonce = state.slice(0, 32);
    if (!same(state, `${nonce}${this.mac('state', nonce).slice(0, 32)}`) || !same(nonce, pending.nonce)) return undefined;
    return { type: pending.type, sourceId: pending.sourceId, service: pending.service, renew: pending.renew };
  }
}
