import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AUTH_SOURCE_TESTS_PER_MINUTE,
  AUTH_SOURCE_TYPE_LABELS,
  type AuthSourceConfig,
  type AuthSourceSummary,
  AuthSourceMessage,
  AuthSourceRules,
  type AuthSourceTestResult,
  parseLdapUrl,
  Authority,
} from '@portal/shared';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { inEnterpriseTransaction } from '../../platform/db/transaction.js';
import { isUniqueViolation } from '../../platform/lib/db-errors.js';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { BadRequestError, ConflictError, NotFoundError, TooManyRequestsError } from '../../platform/lib/errors.js';
import { requestOrigin } from '../../platform/lib/request-origin.js';
import { callerEnterprise } from '../../platform/lib/tenant-scope.js';
import { auditRequest } from '../../platform/audit/audit-log.js';
import { runSummary } from './sync-run-summary.js';
import { type AuthSourceWrite, type SourceListRow, type StoredSource, endpointOf } from './auth-source-repository.js';
import { DirectoryError, type LoadedSource } from './directory.js';
import {
  AuthSourceBody,
  AuthSourceDetailSchema,
  AuthSourceSummarySchema,
  AuthSourceTestBody,
  AuthSourceTestResultSchema,
  type Body,
  Empty,
  IdParams,
  type TestBody,
} from './auth-source-schemas.js';
import { openDirectory } from './open-directory.js';

const tags = ['auth-source'];
const BASE = '/web-api/console/v1/auth/sources';

// -------------------------------------------------------------------------------------------- routes

const text = (value: string | undefined) => (value ?? '').trim();

/** The posted settings of a type, trimmed and complete (absent ones empty), as they are stored. */
function settingsOf(body: Body | TestBody): AuthSourceConfig {
  switch (body.type) {
    case 'ldap': {
      const c = body.config;
      return {
        type: 'ldap',
        config: {
          url: text(c.url),
          startTls: c.startTls ?? false,
          bindDn: text(c.bindDn),
          baseDn: text(c.baseDn),
          userFilter: text(c.userFilter),
          mapping: {
            username: text(c.mapping.username),
            name: text(c.mapping.name),
            phone: text(c.mapping.phone),
            email: text(c.mapping.email),
          },
          adDomain: text(c.adDomain),
          groupBaseDn: text(c.groupBaseDn),
          groupFilter: text(c.groupFilter),
        },
      };
    }
    case 'wecom':
      return { type: 'wecom', config: { corpId: text(body.config.corpId), agentId: text(body.config.agentId) } };
    case 'dingtalk':
      return { type: 'dingtalk', config: { appKey: text(body.config.appKey), corpId: text(body.config.corpId) } };
    case 'feishu':
      return { type: 'feishu', config: { appId: text(body.config.appId) } };
  }
}

/**
 * A stored secret goes only where it was typed for: an LDAP source whose address changes needs its
 * bind password again, or a console user could have it sent to a server of their choosing.
 */
function keepsAddress(stored: AuthSourceConfig, settings: AuthSourceConfig): boolean {
  if (stored.type !== 'ldap' || settings.type !== 'ldap') return true;
  // StartTLS turned off would send it in clear text to the same host: that needs it typed again too.
  return stored.config.url === settings.config.url && (settings.config.startTls || !stored.config.startTls);
}

/** The audit row's detail: what the source is and whether it is on; a changed secret is said, never shown. */
const auditDetail = (settings: AuthSourceConfig, enabled: boolean, secretChanged: boolean) =>
  [AUTH_SOURCE_TYPE_LABELS[settings.type], endpointOf(settings), enabled ? '启用' : '停用', ...(secretChanged ? ['密钥已更换'] : [])].join(
    '；',
  );

/**
 * 认证源 (authority auth:source): an enterprise's LDAP/AD directory and its 企业微信, 钉钉 and
 * 飞书 apps. Secrets are sealed at rest and never answered (hasSecret says whether one is kept); 测试连接
 * shows each step with what went wrong, in Chinese. Operators (authority tenant) see any enterprise's
 * sources and their last sync.
 */
const authSourceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.database;
  const sources = app.authSourceRepository;

  /** The list with each source's last finished sync run as 同步日志 shows it. */
  async function withLastSync(rows: SourceListRow[]): Promise<AuthSourceSummary[]> {
    const runs = await app.syncRunner.repo.runsByIds(rows.flatMap((r) => (r.lastRunId === null ? [] : [r.lastRunId])));
    const byId = new Map(runs.map((run) => [run.id, runSummary(run)]));
    return rows.map(({ lastRunId, ...row }) => ({ ...row, lastSync: (lastRunId !== null && byId.get(lastRunId)) || null }));
  }
  const canSource = { onRequest: app.requireAuthority(Authority.AuthSource) };
  const testRuns = app.createRateLimit({
    max: AUTH_SOURCE_TESTS_PER_MINUTE,
    timeWindow: 60_000,
    keyGenerator: (request) => `auth-source-test:${request.principal?.profile.enterpriseId ?? `account-${request.principal?.accountId}`}`,
  });
  const canTenants = { onRequest: app.requireAuthority(Authority.Tenant) };

  /** Where a chat platform sends the person back after the QR scan (configured address first, never a parameter). */
  const callbackUrl = (request: FastifyRequest, source: StoredSource) =>
    source.type === 'ldap' ? null : `${app.config.publicUrl ?? requestOrigin(request)}/cas/login/${source.type}/callback`;

  /** A source of the caller's enterprise; another enterprise's answers 404. */
  async function sourceOf(request: FastifyRequest, id: number): Promise<StoredSource> {
    const found = await sources.detail(callerEnterprise(request), id);
    if (!found) throw new NotFoundError(AuthSourceMessage.notFound);
    return found;
  }

  /** The body checked and normalised for a write; `current` when editing (its secret may be kept). */
  function writeOf(body: Body, current?: StoredSource): AuthSourceWrite {
    if (current && current.type !== body.type) throw new BadRequestError(AuthSourceMessage.typeLocked);
    const name = body.name.trim();
    const secret = body.secret ?? '';
    const settings = settingsOf(body);
    const problem =
      AuthSourceRules.name(name) ?? AuthSourceRules.config(settings) ?? AuthSourceRules.secret(secret, current?.hasSecret ?? false);
    if (problem) throw new BadRequestError(problem);
    const address = settings.type === 'ldap' ? parseLdapUrl(settings.config.url) : undefined;
    // A literal address the portal would never connect to is refused now; a name is checked where it resolves, at connect time.
    const refusal = address && app.outbound.literalRefusal(address.host, address.port);
    if (refusal) throw new BadRequestError(AuthSourceMessage.urlRefused(refusal));
    if (current?.hasSecret && !secret && !keepsAddress(current, settings)) throw new BadRequestError(AuthSourceMessage.secretRetype);
    return { ...settings, name, enabled: body.enabled, secret };
  }

  /** A unique name is checked first for its message; the constraint catches a concurrent twin. */
  async function writing<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError(AuthSourceMessage.nameTaken);
      throw err;
    }
  }

  app.get(
    BASE,
    {
      // 同步's job form picks its source from this list (no secrets in it).
      onRequest: app.requireAuthority(Authority.AuthSource, Authority.AuthSync),
      schema: {
        tags,
        summary: '认证源列表（含关联账号数与最近一次同步）',
        response: { 200: Envelope(AuthSourceSummarySchema), ...errorResponses },
      },
    },
    async (request) => ok(await withLastSync(await sources.list(callerEnterprise(request)))),
  );

  app.get(
    `${BASE}/:id`,
    {
      ...canSource,
      schema: {
        tags,
        summary: '认证源详情（不含密钥）',
        params: IdParams,
        response: { 200: Envelope(AuthSourceDetailSchema), ...errorResponses },
      },
    },
    async (request) => {
      const source = await sourceOf(request, request.params.id);
      return ok({ ...source, callbackUrl: callbackUrl(request, source) });
    },
  );

  app.post(
    BASE,
    {
      ...canSource,
      config: { auditAction: 'auth-source.create' },
      schema: {
        tags,
        summary: '新建认证源（企业微信、钉钉、飞书每种最多一个）',
        body: AuthSourceBody,
        response: { 200: Envelope(Type.Object({ id: Type.Integer() })), ...errorResponses },
      },
    },
    async (request) => {
      const enterpriseId = callerEnterprise(request);
      const input = writeOf(request.body);
      if (await sources.nameTaken(enterpriseId, input.name)) throw new ConflictError(AuthSourceMessage.nameTaken);
      const id = await writing(() =>
        inEnterpriseTransaction(db, enterpriseId, async (trx) => {
          if (input.type !== 'ldap' && (await sources.chatTypeTaken(trx, enterpriseId, input.type))) {
            throw new ConflictError(AuthSourceMessage.chatTypeTaken);
          }
          const created = await sources.create(trx, enterpriseId, input);
          await auditRequest(trx, request, 'auth-source.create', input.name, 'success', auditDetail(input, input.enabled, false));
          return created;
        }),
      );
      return ok({ id }, '认证源已创建');
    },
  );

  app.put(
    `${BASE}/:id`,
    {
      ...canSource,
      config: { auditAction: 'auth-source.update' },
      schema: {
        tags,
        summary: '修改认证源（类型不能修改；密钥为空表示不修改；含启用与停用）',
        params: IdParams,
        body: AuthSourceBody,
        response: { 200: Empty, ...errorResponses },
      },
    },
    async (request) => {
      const enterpriseId = callerEnterprise(request);
      const current = await sourceOf(request, request.params.id);
      const input = writeOf(request.body, current);
      if (await sources.nameTaken(enterpriseId, input.name, current.id)) throw new ConflictError(AuthSourceMessage.nameTaken);
      await writing(() =>
        inEnterpriseTransaction(db, enterpriseId, async (trx) => {
          await sources.update(trx, enterpriseId, current.id, input);
          const renamed = input.name === current.name ? current.name : `${current.name} → ${input.name}`;
          await auditRequest(
            trx,
            request,
            'auth-source.update',
            renamed,
            'success',
            auditDetail(input, input.enabled, input.secret !== ''),
          );
        }),
      );
      return ok([], '认证源已保存');
    },
  );

  app.delete(
    `${BASE}/:id`,
    {
      ...canSource,
      config: { auditAction: 'auth-source.delete' },
      schema: {
        tags,
        summary: '删除认证源（已关联账号或有同步任务时不能删除）',
        params: IdParams,
        response: { 200: Empty, ...errorResponses },
      },
    },
    async (request) => {
      const enterpriseId = callerEnterprise(request);
      const current = await sourceOf(request, request.params.id);
      await inEnterpriseTransaction(db, enterpriseId, async (trx) => {
        const usage = await sources.usage(trx, current.id);
        if (usage.linkedAccounts > 0) throw new ConflictError(AuthSourceMessage.inUse);
        if (usage.jobs > 0) throw new ConflictError(AuthSourceMessage.hasJobs);
        await sources.delete(trx, enterpriseId, current.id);
        await auditRequest(trx, request, 'auth-source.delete', current.name, 'success', AUTH_SOURCE_TYPE_LABELS[current.type]);
      });
      return ok([], '认证源已删除');
    },
  );

  app.post(
    `${BASE}/test`,
    {
      ...canSource,
      schema: {
        tags,
        summary: '测试连接（表单中的设置；未输入密钥时使用 id 对应认证源保存的密钥）',
        body: AuthSourceTestBody,
        response: { 200: Envelope(AuthSourceTestResultSchema), ...errorResponses },
      },
    },
    async (request) => {
      const enterpriseId = callerEnterprise(request);
      const { body } = request;
      const settings = settingsOf(body);
      const stored = body.id === undefined ? undefined : await sources.load(enterpriseId, body.id);
      if (body.id !== undefined && !stored) throw new NotFoundError(AuthSourceMessage.notFound);
      const typed = body.secret ?? '';
      // The stored secret stands in for an untyped one only for the same type and, for LDAP, the same address.
      const usable = stored !== undefined && stored.type === settings.type && stored.secret !== '';
      const problem = AuthSourceRules.config(settings) ?? AuthSourceRules.secret(typed, usable);
      if (problem) throw new BadRequestError(problem);
      if (!typed && stored && !keepsAddress(stored, settings)) throw new BadRequestError(AuthSourceMessage.secretRetype);
      // Each test that gets this far connects to an address the caller typed: a limit per enterprise
      // keeps the portal from being used to probe networks.
      const limit = await testRuns(request);
      if (!limit.isAllowed && limit.isExceeded) throw new TooManyRequestsError(AuthSourceMessage.testTooMany(limit.ttlInSeconds));
      const source: LoadedSource = {
        ...settings,
        id: stored?.id ?? 0,
        enterpriseId,
        name: stored?.name ?? '',
        enabled: true,
        secret: typed || (stored?.secret ?? ''),
      };
      let result: AuthSourceTestResult;
      try {
        result = await openDirectory(app, source, request.log).test();
      } catch (err) {
        // A source that cannot even be opened still answers as a failed test, saying why.
        if (!(err instanceof DirectoryError)) throw err;
        result = { ok: false, steps: [{ name: '连接', ok: false, detail: err.message }], sample: [] };
      }
      return ok(result);
    },
  );

  app.get(
    '/web-api/console/v1/tenants/:id/auth-sources',
    {
      ...canTenants,
      schema: {
        tags,
        summary: '某企业的认证源与最近一次同步结果（平台运营）',
        params: IdParams,
        response: { 200: Envelope(AuthSourceSummarySchema), ...errorResponses },
      },
    },
    async (request) => {
      // Asked of identity's own repository: the tenants module sits above identity.
      if (!(await sources.enterpriseExists(request.params.id))) throw new NotFoundError('企业不存在');
      return ok(await withLastSync(await sources.list(request.params.id)));
    },
  );
};

export default authSourceRoutes;
