import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AccountRepository, type AccountProfile } from '../features/accounts/account-repository.js';
import { randomKey, sharedSecret } from '../features/accounts/secrets.js';
import { AccessTokens } from '../features/portal-auth/access-tokens.js';
import { PortalSessions } from '../features/portal-auth/portal-sessions.js';
import { ForbiddenError, TokenError } from '../lib/errors.js';

export interface Principal {
  accountId: number;
  sessionKey: string;
  /** The CAS service ticket that opened the session. */
  serviceTicket: string;
  profile: AccountProfile;
}

declare module 'fastify' {
  interface FastifyInstance {
    sessions: PortalSessions;
    tokens: AccessTokens;
    accounts: AccountRepository;
    /** preHandler: a valid token of a live session, else 20300/20301/20302. */
    authenticate(request: FastifyRequest): Promise<void>;
    /** preHandler: authenticated and holding at least one of `codes`, else 403. */
    requireAuthority(...codes: string[]): (request: FastifyRequest) => Promise<void>;
  }
  interface FastifyRequest {
    principal: Principal | null;
  }
}

/** Sessions, tokens and the guards protected routes use (the server enforces the console's authority codes). */
async function auth(app: FastifyInstance) {
  const db = app.database.db;
  const key = Buffer.from(await sharedSecret(db, 'access-token-hmac', randomKey), 'base64');
  app.decorate('sessions', new PortalSessions(db, app.config.auth.sessionHours));
  app.decorate('tokens', new AccessTokens(key, app.config.auth.tokenMinutes));
  app.decorate('accounts', new AccountRepository(db));
  app.decorateRequest('principal', null);

  app.decorate('authenticate', async (request: FastifyRequest) => {
    const check = app.tokens.check(request.headers.authorization);
    if (!check.ok) throw new TokenError(check.reason);
    const session = await app.sessions.byKey(check.sessionKey);
    if (!session || session.accountId !== check.accountId) throw new TokenError('invalid');
    const profile = await app.accounts.profile(session.accountId);
    if (!profile || profile.status !== 'active') throw new TokenError('invalid');
    request.principal = { accountId: session.accountId, sessionKey: session.key, serviceTicket: session.serviceTicket, profile };
  });

  app.decorate('requireAuthority', (...codes: string[]) => async (request: FastifyRequest) => {
    await app.authenticate(request);
    const held = request.principal?.profile.authorities ?? [];
    if (!codes.some((c) => held.includes(c))) throw new ForbiddenError();
  });

  const purge = setInterval(
    () => void app.sessions.purgeExpired().catch((err: unknown) => app.log.warn({ err }, 'session purge failed')),
    600_000,
  );
  purge.unref();
  app.addHook('onClose', async () => clearInterval(purge));
}

export default fp(auth, { name: 'auth' });
