import { AUTH_SOURCE_TYPE_LABELS, type ChatSourceType, type LoginFailureReason, PHONE_PATTERN } from '@portal/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ChatIdentityRepository } from '../auth-sources/chat/chat-identity-repository.js';
import { chatPlatform } from '../auth-sources/chat/chat-platform.js';
import { DirectoryError, type DirectoryUser, type LoadedSource } from '../auth-sources/directory.js';
import type { LoginClient } from './cas-login-service.js';

export type ChatSource = LoadedSource & { type: ChatSourceType };

/** Where a start goes: no enterprise offers the platform, 选择企业 among several, or the one source. */
export type ChatStart =
  { kind: 'none' } | { kind: 'choose'; enterprises: { sourceId: number; name: string }[] } | { kind: 'source'; source: ChatSource };

/** A callback's outcome: the account signed in, a person not known here (with the page's text), or the login again with a message. */
export type ChatSignIn =
  { kind: 'account'; accountId: number } | { kind: 'unknown'; text?: string } | { kind: 'restart'; status: number; error: string };

/**
 * QR sign-in's rules (the CAS pages are `chat-login-routes.ts`): which enterprise's source a scan
 * uses, and who the platform's person is here — by the identity linked before (sync or an earlier
 * sign-in), else the first time by phone within the enterprise — under the same lock and 停用 as a password.
 */
function createChatLoginService(app: FastifyInstance) {
  const { accountRepository: accounts, authSourceRepository: sources } = app;
  const identities = new ChatIdentityRepository(app.database.db, sources);

  /** The enterprise's source of `type`, while it and its enterprise are enabled, with its secret. */
  async function enabledSource(type: ChatSourceType, id: number): Promise<ChatSource | undefined> {
    if (!(await sources.enabledChatSources(type)).some((s) => s.id === id)) return undefined;
    const source = await sources.loadAny(id);
    return source && source.type === type ? source : undefined;
  }

  /** The source a start uses: the one picked on 选择企业 (`chosen`), or the only one enabled. */
  async function start(type: ChatSourceType, chosen: string | undefined): Promise<ChatStart> {
    const enabled = await sources.enabledChatSources(type);
    const picked = chosen === undefined ? (enabled.length === 1 ? enabled[0] : undefined) : enabled.find((s) => String(s.id) === chosen);
    if (enabled.length === 0 || (chosen !== undefined && !picked)) return { kind: 'none' };
    if (!picked) return { kind: 'choose', enterprises: enabled.map((s) => ({ sourceId: s.id, name: s.enterpriseName })) };
    const source = await enabledSource(type, picked.id);
    return source ? { kind: 'source', source } : { kind: 'none' };
  }

  /** The person behind a platform's `code`, and their account here; failures go to 登录日志. */
  async function signIn(
    type: ChatSourceType,
    sourceId: number,
    code: string,
    redirectUri: string,
    client: LoginClient,
  ): Promise<ChatSignIn> {
    const label = AUTH_SOURCE_TYPE_LABELS[type];
    const source = await enabledSource(type, sourceId);
    if (!source) return { kind: 'restart', status: 403, error: `该企业已停用${label}登录，请使用账号密码登录` };
    let person: DirectoryUser | undefined;
    try {
      person = await chatPlatform(source, app.config.auth.chatEndpoints).identify(code, redirectUri);
    } catch (err) {
      if (!(err instanceof DirectoryError)) throw err;
      client.log.warn({ sourceId: source.id, reason: err.message }, 'chat sign-in: the platform refused');
      return { kind: 'restart', status: 502, error: `${label}登录失败：${err.message}` };
    }
    const failure = (
      entry: { accountId: number | null; username: string; enterpriseId: number | null; name: string },
      reason: LoginFailureReason,
    ) => app.loginLogRepository.record(client.log, { ...entry, result: 'failure', reason, ip: client.ip, userAgent: client.userAgent });
    const unknown = { accountId: null, enterpriseId: source.enterpriseId, name: person?.name ?? '' };
    // 登录日志's 账号 for a scan that signs no one in: the platform and its user id.
    const who = (person ? `${label}:${person.externalId}` : label).slice(0, 64);
    if (!person) {
      await failure({ ...unknown, username: who }, 'unknown-account');
      return { kind: 'unknown' };
    }
    if (!person.active) {
      await failure({ ...unknown, username: who }, 'disabled');
      return { kind: 'unknown', text: `该${label}账号已停用或已离职，不能用于登录。` };
    }

    // By the identity linked before (sync or an earlier sign-in), else the first time by phone within the enterprise.
    let accountId = await sources.accountOf(source.id, person.externalId);
    if (accountId === undefined && PHONE_PATTERN.test(person.phone)) {
      accountId = await identities.linkByPhone(source, person.phone, person.externalId);
    }
    const profile = accountId === undefined ? undefined : await accounts.profile(accountId);
    if (accountId === undefined || !profile || profile.enterpriseId !== source.enterpriseId) {
      await failure({ ...unknown, username: who }, 'unknown-account');
      return { kind: 'unknown' };
    }

    // The scan stands in for the password: the same lock, 停用 and steps after it (cas-login-service.ts, checkPassword).
    const account = { accountId, username: profile.username, enterpriseId: profile.enterpriseId, name: profile.name };
    const policy = await app.securityPolicyRepository.ofEnterprise(profile.enterpriseId);
    const attempt = await app.loginGuardService.attempt({ accountId }, policy);
    if (attempt.locked) {
      await failure(account, 'locked');
      return { kind: 'restart', status: 423, error: `账号已锁定，请 ${attempt.minutes} 分钟后再试` };
    }
    if (!profile.usable) {
      await app.loginGuardService.succeeded({ accountId });
      await failure(account, profile.status === 'active' ? 'enterprise-disabled' : 'disabled');
      return { kind: 'restart', status: 403, error: '账号已停用，请联系企业管理员' };
    }
    return { kind: 'account', accountId };
  }

  return { start, signIn };
}

export type ChatLoginService = ReturnType<typeof createChatLoginService>;

declare module 'fastify' {
  interface FastifyInstance {
    chatLoginService: ChatLoginService;
  }
}

export default fp(
  async (app) => {
    app.decorate('chatLoginService', createChatLoginService(app));
  },
  { name: 'chat-login-service', dependencies: ['auth-source-repository', 'login-guard'] },
);
