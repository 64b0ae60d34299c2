import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ApiPrefix,
  Authority,
  CreatedIdSchema,
  EmptyAnswerSchema,
  RowIdParamsSchema,
  type SsoApplicationBody,
  SsoApplicationBodySchema,
  SsoApplicationQuerySchema,
  SsoApplicationRowSchema,
  RELEASABLE_ATTRIBUTES,
  type ReleasableAttribute,
  SsoMessage,
  SsoRules,
  normalizeServicePrefix,
  serviceOverlapsOwn,
} from '@portal/shared';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { inEnterpriseTransaction } from '../../platform/db/transaction.js';
import { checkedImagePath } from '../../platform/lib/checked-urls.js';
import { isUniqueViolation } from '../../platform/lib/db-errors.js';
import { Envelope, Page, errorResponses, ok } from '../../platform/lib/envelope.js';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../../platform/lib/errors.js';
import { requestOrigin } from '../../platform/lib/request-origin.js';
import { callerEnterprise } from '../../platform/lib/tenant-scope.js';
import { auditRequest } from '../../platform/audit/audit-log.js';
import { overlaps } from '../cas/cas-services.js';
import type { SsoApplication, SsoApplicationInput } from './sso-app-repository.js';

const tags = ['sso-app'];
const BASE = `${ApiPrefix.console}/sso-app`;
/** The icon column's length. */
const ICON_MAX = 200;

type Body = SsoApplicationBody;

/**
 * 应用列表 (authority app:list): an enterprise's own applications on the embedded CAS. A
 * service address is an exact URL prefix (CAS 3.0 §2.1.1); it may not overlap this portal, a
 * platform-wide CAS_SERVICES address, a platform application's or another application's, so every
 * service belongs to one application of one enterprise. The platform applications the enterprise
 * subscribed to are listed too, read-only: only 应用授权 applies to them.
 */
const ssoAppRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.database;
  const apps = app.ssoApps;
  const canList = { onRequest: app.requireAuthority(Authority.AppList) };
  const portalBase = (request: FastifyRequest) => app.config.publicUrl ?? requestOrigin(request);

  /** The CAS an application integrates with: the embedded one at the portal's configured address, else the configured external one. */
  function casServerUrlPrefix(request: FastifyRequest): string {
    const { auth } = app.config;
    if (!auth.casEmbedded && auth.casServerUrl) return auth.casServerUrl;
    return `${portalBase(request)}/cas`;
  }

  const withIntegration = (request: FastifyRequest, row: SsoApplication) => {
    const cas = casServerUrlPrefix(request);
    return {
      ...row,
      integration: {
        loginUrl: `${cas}/login`,
        validateUrl: `${cas}/p3/serviceValidate`,
        logoutUrl: `${cas}/logout`,
        casServerUrlPrefix: cas,
      },
    };
  };

  /** An application of the caller's enterprise; another enterprise's answers 404. */
  async function applicationOf(request: FastifyRequest, id: number): Promise<SsoApplication> {
    const found = await apps.byId(callerEnterprise(request), id);
    if (!found) throw new NotFoundError(SsoMessage.notFound);
    return found;
  }

  /** One of the enterprise's own applications: a subscribed platform application is the platform's to change. */
  async function ownApplicationOf(request: FastifyRequest, id: number): Promise<SsoApplication> {
    const found = await applicationOf(request, id);
    if (found.platform) throw new ForbiddenError(SsoMessage.platformReadOnly);
    return found;
  }

  /** The body checked by the shared rules and normalised; the service addresses may still overlap others (checked in the write). */
  function inputOf(body: Body): SsoApplicationInput {
    const name = body.name.trim();
    const category = (body.category ?? '').trim();
    const description = (body.description ?? '').trim();
    const logoutUrl = (body.logoutUrl ?? '').trim();
    const problem =
      SsoRules.name(name) ??
      SsoRules.category(category) ??
      SsoRules.description(description) ??
      SsoRules.servicePrefixes(body.servicePrefixes) ??
      SsoRules.logoutUrl(logoutUrl);
    if (problem) throw new BadRequestError(problem);
    // The portal POSTs single logout and 接入自检 to these addresses: a literal one it would never
    // connect to is refused now (a name is checked where it resolves, at connect time).
    for (const [raw, message] of [
      ...body.servicePrefixes.map((p) => [p, SsoMessage.serviceRefused] as const),
      ...(logoutUrl ? [[logoutUrl, SsoMessage.logoutUrlRefused] as const] : []),
    ]) {
      const url = new URL(raw.trim());
      const refusal = app.outbound.literalRefusal(url.hostname, Number(url.port) || (url.protocol === 'https:' ? 443 : 80));
      if (refusal) throw new BadRequestError(message(raw.trim(), refusal));
    }
    const icon = checkedImagePath(body.icon, SsoMessage.iconInvalid) ?? '';
    if (icon.length > ICON_MAX) throw new BadRequestError(SsoMessage.iconInvalid);
    const known: readonly string[] = RELEASABLE_ATTRIBUTES;
    if (body.attributes.some((a) => !known.includes(a))) throw new BadRequestError(SsoMessage.attributeUnknown);
    return {
      name,
      icon,
      category,
      description,
      servicePrefixes: [...new Set(body.servicePrefixes.map(normalizeServicePrefix))],
      logoutUrl: logoutUrl ? new URL(logoutUrl).href : '',
      // In the order the console lists them, once each.
      attributes: RELEASABLE_ATTRIBUTES.filter((a): a is ReleasableAttribute => body.attributes.includes(a)),
      status: body.status,
    };
  }

  /** Refuses service addresses this portal or a CAS_SERVICES address already answers for. */
  function assertNotPlatform(request: FastifyRequest, prefixes: readonly string[]) {
    const platform = app.casServices.platformPrefixes(portalBase(request));
    if (prefixes.some((p) => platform.some((q) => overlaps(new URL(p), q)))) throw new ConflictError(SsoMessage.servicePlatform);
  }

  /**
   * Inside the write's transaction: refuses service addresses overlapping another application's (its
   * own enterprise's named), a platform application's included.
   */
  async function assertNoOverlap(
    trx: Kysely<Database>,
    enterpriseId: number,
    applicationId: number | undefined,
    prefixes: readonly string[],
  ) {
    const urls = prefixes.map((p) => new URL(p));
    const existing = await apps.prefixesOnHosts(
      trx,
      urls.map((u) => u.hostname),
    );
    for (const other of existing) {
      if (!other.platform && other.applicationId === applicationId) continue;
      const theirs = new URL(other.prefix);
      if (!urls.some((u) => overlaps(u, theirs))) continue;
      if (other.platform) throw new ConflictError(SsoMessage.servicePlatform);
      throw new ConflictError(other.enterpriseId === enterpriseId ? serviceOverlapsOwn(other.name) : SsoMessage.serviceOtherEnterprise);
    }
  }

  /** A unique name is checked first for its message; the constraint catches a concurrent twin. */
  async function writing(work: () => Promise<void>) {
    try {
      await work();
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError(SsoMessage.nameTaken);
      throw err;
    }
  }

  app.get(
    `${BASE}/page/list`,
    {
      ...canList,
      schema: {
        tags,
        summary: '应用列表（新的在前；按名称或分类搜索，按状态筛选）',
        querystring: SsoApplicationQuerySchema,
        response: { 200: Envelope(Page(SsoApplicationRowSchema)), ...errorResponses },
      },
    },
    async (request) => {
      const { keyword, status, offset, limit } = request.query;
      const page = await apps.page(
        callerEnterprise(request),
        { keyword: keyword?.trim() ?? '', status: status || undefined },
        offset,
        limit,
      );
      return ok({ total: page.total, rows: page.rows.map((row) => withIntegration(request, row)) });
    },
  );

  app.get(
    `${BASE}/:id`,
    {
      ...canList,
      schema: {
        tags,
        summary: '应用详情（含集成配置）',
        params: RowIdParamsSchema,
        response: { 200: Envelope(SsoApplicationRowSchema), ...errorResponses },
      },
    },
    async (request) => ok(withIntegration(request, await applicationOf(request, request.params.id))),
  );

  app.post(
    BASE,
    {
      ...canList,
      config: { auditAction: 'sso-app.create' },
      schema: {
        tags,
        summary: '新建应用（服务地址不得与门户、平台应用或其他应用重叠）',
        body: SsoApplicationBodySchema,
        response: { 200: Envelope(CreatedIdSchema), ...errorResponses },
      },
    },
    async (request) => {
      const enterpriseId = callerEnterprise(request);
      const input = inputOf(request.body);
      assertNotPlatform(request, input.servicePrefixes);
      if (await apps.nameTaken(enterpriseId, input.name)) throw new ConflictError(SsoMessage.nameTaken);
      let id = 0;
      await writing(() =>
        inEnterpriseTransaction(db, enterpriseId, async (trx) => {
          await assertNoOverlap(trx, enterpriseId, undefined, input.servicePrefixes);
          id = await apps.create(trx, enterpriseId, input);
          await auditRequest(trx, request, 'sso-app.create', input.name, 'success', input.servicePrefixes.join(' '));
        }),
      );
      return ok({ id }, '应用已创建');
    },
  );

  app.put(
    `${BASE}/:id`,
    {
      ...canList,
      config: { auditAction: 'sso-app.update' },
      schema: {
        tags,
        summary: '修改应用（订阅的平台应用不可修改）',
        params: RowIdParamsSchema,
        body: SsoApplicationBodySchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      const enterpriseId = callerEnterprise(request);
      const current = await ownApplicationOf(request, request.params.id);
      const input = inputOf(request.body);
      assertNotPlatform(request, input.servicePrefixes);
      if (await apps.nameTaken(enterpriseId, input.name, current.id)) throw new ConflictError(SsoMessage.nameTaken);
      await writing(() =>
        inEnterpriseTransaction(db, enterpriseId, async (trx) => {
          await assertNoOverlap(trx, enterpriseId, current.id, input.servicePrefixes);
          await apps.update(trx, enterpriseId, current.id, input);
          const renamed = input.name === current.name ? current.name : `${current.name} → ${input.name}`;
          await auditRequest(trx, request, 'sso-app.update', renamed, 'success', input.servicePrefixes.join(' '));
        }),
      );
      return ok([], '应用已保存');
    },
  );

  app.delete(
    `${BASE}/:id`,
    {
      ...canList,
      config: { auditAction: 'sso-app.delete' },
      schema: {
        tags,
        summary: '删除应用（它的票据不再通过校验；订阅的平台应用不可删除）',
        params: RowIdParamsSchema,
        response: { 200: EmptyAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      const current = await ownApplicationOf(request, request.params.id);
      await inEnterpriseTransaction(db, callerEnterprise(request), async (trx) => {
        await apps.delete(trx, current.id);
        await auditRequest(trx, request, 'sso-app.delete', current.name);
      });
      return ok([], '应用已删除');
    },
  );
};

export default ssoAppRoutes;
