import { createHmac, timingSafeEqual } from 'node:crypto';
import fp from 'fastify-plugin';
import type { PortalMetrics } from '../../platform/lib/metrics.js';

export const TOKEN_TYPE = 'Bearer';

export type TokenCheck = { ok: true; sessionKey: string; accountId: number } | { ok: false; reason: 'missing' | 'expired' | 'invalid' };

/**
 * Short-lived API tokens (spec section 7): `base64url(payload).base64url(HMAC-SHA256)`, the payload
 * naming the portal session. Stateless to check; the session is still looked up on every call, so a
 * logout or password change ends its tokens at once.
 */
export class AccessTokens {
  constructor(
    private readonly key: Buffer,
    private readonly minutes: number,
    private readonly metrics?: Pick<PortalMetrics, 'issued'>,
  ) {}

  get lifetimeSeconds(): number {
    return this.minutes * 60;
  }

  issue(sessionKey: string, accountId: number, now = Date.now()): string {
    this.metrics?.issued('portal_token');
    const payload = Buffer.from(JSON.stringify({ s: sessionKey, a: accountId, e: Math.floor(now / 1000) + this.minutes * 60 })).toString(
      'base64url',
    );
    return `${payload}.${this.sign(payload)}`;
  }

  /** Checks an `Authorization` header value (`Bearer <token>`). */
  check(header: string | undefined, now = Date.now()): TokenCheck {
    if (!header) return { ok: false, reason: 'missing' };
    const match = /^Bearer\s+([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/i.exec(header.trim());
    if (!match) return { ok: false, reason: 'invalid' };
    const [, payload = '', signature = ''] = match;
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { ok: false, reason: 'invalid' };
    let claims: { s?: unknown; a?: unknown; e?: unknown };
    try {
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof claims;
    } catch {
      return { ok: false, reason: 'invalid' };
    }
    if (typeof claims.s !== 'string' || typeof claims.a !== 'number' || typeof claims.e !== 'number')
      return { ok: false, reason: 'invalid' };
    if (claims.e * 1000 <= now) return { ok: false, reason: 'expired' };
    return { ok: true, sessionKey: claims.s, accountId: claims.a };
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    accessTokenService: AccessTokens;
  }
}

export default fp(
  async (app) => {
    app.decorate(
      'accessTokenService',
      new AccessTokens(await app.systemRepository.sharedKey('access-token-hmac'), app.config.auth.tokenMinutes, app.metrics),
    );
  },
  { name: 'access-tokens', dependencies: ['system-repository'] },
);
