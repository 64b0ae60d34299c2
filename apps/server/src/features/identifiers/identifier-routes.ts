import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { HandleResponseCode, type HandleApiResponse, type HandleValue, type IdentityQueryEntry } from '@portal/shared';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { errorResponses, ok, sendSerialized } from '../../lib/envelope.js';
import { AppError, BadRequestError } from '../../lib/errors.js';
import { type ParsedHandle, parseHandle } from './handle-syntax.js';
import { filterHandleValues, recordHandleValues, upstreamIdentityEntry } from './handle-values.js';
import {
  HandleResponseSchema,
  IdentityAnswerSchema,
  handleValuesAnswer,
  storedHandleAnswer,
  storedIdentityAnswer,
} from './identifier-answers.js';
import identifierAdminRoutes from './identifier-admin-routes.js';
import { TemplateVersions, holdsPrefix, recordLookup } from './identifier-repository.js';
import type { StoredRecord, TemplateVersionInfo } from './handle-values.js';
import { RESOLVER_HOP_HEADER, UpstreamError, UpstreamResolver } from './upstream-resolver.js';

/** HTTP status of each Handle responseCode (protocols: Handle.net JSON API). */
const HANDLE_STATUS: Record<number, number> = {
  [HandleResponseCode.Success]: 200,
  [HandleResponseCode.Error]: 500,
  [HandleResponseCode.HandleNotFound]: 404,
  [HandleResponseCode.InvalidHandle]: 400,
  [HandleResponseCode.ValuesNotFound]: 200,
};

/**
 * A found identifier; each caller builds only the form it answers in (Handle values, or the portal's
 * answer: JSON bytes written from a local record's stored values, an entry for the schema serializer
 * for an upstream one).
 */
type Resolution =
  | { source: 'local'; handle: string; values: () => HandleValue[]; answer: () => Buffer | string; handleAnswer: () => Buffer | string }
  | { source: 'upstream'; handle: string; values: () => HandleValue[]; entry: () => IdentityQueryEntry }
  | { source: 'none'; handle: string };

/**
 * Public resolution of identifiers: the portal's lookup (spec section 7, "Identity lookup") and the
 * Handle-compatible API. Local records answer from one unique-index lookup; handles under prefixes
 * this node does not hold go to the configured upstream resolver.
 */
const identifierRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.database;
  const { ttlSeconds, upstreamUrl, upstreamTimeoutMs, upstreamCacheEntries } = app.config.identifiers;
  const templates = new TemplateVersions(db);
  const recordByHandle = recordLookup(app.database);
  const upstream = upstreamUrl
    ? new UpstreamResolver({ baseUrl: upstreamUrl, timeoutMs: upstreamTimeoutMs, maxEntries: upstreamCacheEntries })
    : undefined;

  await app.register(identifierAdminRoutes, { templates });

  type LocalResolution = Extract<Resolution, { source: 'local' }>;
  type Lookup = ReturnType<typeof recordByHandle>;

  function localResolution(record: StoredRecord, prefix: string, template: TemplateVersionInfo): LocalResolution {
    return {
      source: 'local',
      handle: record.handle,
      values: () => recordHandleValues(record, prefix, template, ttlSeconds),
      answer: () => storedIdentityAnswer(record.handle, record.item_values, template),
      handleAnswer: () => storedHandleAnswer(record, prefix, template, ttlSeconds),
    };
  }

  /**
   * A local record answered at once, without a promise, when its lookup was synchronous (SQLite) and
   * its template version is cached: the hot case of both routes. Anything else goes to `resolve`.
   */
  function resolvedNow(lookup: Lookup, parsed: ParsedHandle): LocalResolution | undefined {
    if (lookup === undefined || lookup instanceof Promise) return undefined;
    const template = templates.cached(lookup.template_id, lookup.template_version);
    return template && localResolution(lookup, parsed.prefix, template);
  }

  async function resolve(parsed: ParsedHandle, request: FastifyRequest, lookup: Lookup): Promise<Resolution> {
    const record = await lookup;
    if (record) {
      const template =
        templates.cached(record.template_id, record.template_version) ?? (await templates.get(record.template_id, record.template_version));
      if (!template) throw new Error(`template ${record.template_id} v${record.template_version} of ${record.handle} is missing`);
      return localResolution(record, parsed.prefix, template);
    }
    // A prefix this node holds is answered here, found or not; a request from another resolver is never passed on.
    if (!upstream || request.headers[RESOLVER_HOP_HEADER] !== undefined || (await holdsPrefix(db, parsed.prefix))) {
      return { source: 'none', handle: parsed.handle };
    }
    const answer = await upstream.resolve(parsed.handle);
    if (!answer.found) return { source: 'none', handle: parsed.handle };
    return {
      source: 'upstream',
      handle: parsed.handle,
      values: () => answer.values,
      entry: () => upstreamIdentityEntry(parsed.handle, answer.values),
    };
  }

  app.get(
    '/web-api/portal/v1/identity/query',
    {
      schema: {
        tags: ['identifiers'],
        summary: '标识查询：标识记录及其模板；标识不存在时 data 为空列表',
        querystring: Type.Object({
          handle: Type.String({ maxLength: 1024, description: '标识，如 88.118.8/EX-2024-000123' }),
        }),
        response: { 200: IdentityAnswerSchema, ...errorResponses },
      },
    },
    (request, reply) => {
      const parsed = parseHandle(request.query.handle.trim());
      if (!parsed.ok) throw new BadRequestError(parsed.message);
      const lookup = recordByHandle(parsed.handle);
      const now = resolvedNow(lookup, parsed);
      if (now) {
        sendSerialized(reply, now.answer());
        return;
      }
      return identityAnswer(parsed, request, reply, lookup);
    },
  );

  async function identityAnswer(parsed: ParsedHandle, request: FastifyRequest, reply: FastifyReply, lookup: Lookup) {
    let resolution: Resolution;
    try {
      resolution = await resolve(parsed, request, lookup);
    } catch (err) {
      if (err instanceof UpstreamError) {
        request.log.warn({ err, handle: parsed.handle }, 'upstream handle resolution failed');
        throw new AppError(err.message, err.kind === 'timeout' ? 504 : 502);
      }
      throw err;
    }
    if (resolution.source === 'none') return ok([], '未找到该标识');
    if (resolution.source === 'local') return sendSerialized(reply, resolution.answer());
    return ok([resolution.entry()]);
  }

  const handleReply = (reply: FastifyReply, body: HandleApiResponse, status = HANDLE_STATUS[body.responseCode] ?? 500) =>
    reply.status(status).header('access-control-allow-origin', '*').send(body);

  app.get(
    '/api/handles/*',
    {
      schema: {
        tags: ['identifiers'],
        summary: 'Handle.net JSON API 兼容的标识解析；type、index 可重复，按“或”筛选',
        params: Type.Object({ '*': Type.String({ description: '标识，斜杠原样或写作 %2F' }) }),
        querystring: Type.Object({
          type: Type.Optional(Type.Array(Type.String({ maxLength: 128 }), { maxItems: 50 })),
          index: Type.Optional(Type.Array(Type.Integer({ minimum: 0, maximum: 2_147_483_647 }), { maxItems: 50 })),
        }),
        response: { '2xx': HandleResponseSchema, '4xx': HandleResponseSchema, '5xx': HandleResponseSchema },
      },
      // Every answer of this route is a Handle answer, errors included.
      errorHandler(error: FastifyError, request, reply) {
        if (error.validation) {
          const field = error.validation[0]?.instancePath.replace(/^\//, '').split('/')[0];
          const message = field === 'index' ? '查询参数 index 须为非负整数' : '查询参数不正确';
          return handleReply(reply, { responseCode: HandleResponseCode.Error, message }, 400);
        }
        if (error instanceof UpstreamError) {
          request.log.warn({ err: error }, 'upstream handle resolution failed');
          return handleReply(reply, { responseCode: HandleResponseCode.Error, message: error.message });
        }
        request.log.error({ err: error }, 'unexpected error');
        return handleReply(reply, { responseCode: HandleResponseCode.Error, message: '服务器内部错误，请稍后重试' });
      },
    },
    (request, reply) => {
      const handle = request.params['*'];
      const parsed = parseHandle(handle);
      if (!parsed.ok) {
        handleReply(reply, { responseCode: HandleResponseCode.InvalidHandle, handle, message: parsed.message });
        return;
      }
      const lookup = recordByHandle(parsed.handle);
      const now = resolvedNow(lookup, parsed);
      if (now) {
        sendHandleValues(request, reply, now);
        return;
      }
      return resolve(parsed, request, lookup).then((resolution) => {
        if (resolution.source === 'none') {
          handleReply(reply, { responseCode: HandleResponseCode.HandleNotFound, handle, message: '标识不存在' });
        } else {
          sendHandleValues(request, reply, resolution);
        }
      });
    },
  );

  /** A found identifier's values, all of them or those the `type` and `index` filters ask for. */
  function sendHandleValues(
    request: FastifyRequest<{ Querystring: { type?: string[]; index?: number[] } }>,
    reply: FastifyReply,
    resolution: Exclude<Resolution, { source: 'none' }>,
  ): FastifyReply {
    const types = request.query.type ?? [];
    const indexes = request.query.index ?? [];
    const cors = reply.header('access-control-allow-origin', '*');
    if (resolution.source === 'local' && types.length === 0 && indexes.length === 0) return sendSerialized(cors, resolution.handleAnswer());
    const values = filterHandleValues(resolution.values(), types, indexes);
    return sendSerialized(cors, handleValuesAnswer(resolution.handle, values));
  }
};

export default identifierRoutes;
