import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ApiPrefix,
  HandleApiParamsSchema,
  HandleApiQuerySchema,
  HandleApiResponseSchema,
  HandleResponseCode,
  type HandleApiResponse,
  type HandleValue,
  type LookupChannel,
  QR_SOURCE_PARAM,
  QR_SOURCE_VALUE,
  IdentityQueryAnswerSchema,
  IdentityQueryQuerySchema,
} from '@portal/shared';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { errorResponses, ok } from '../../platform/lib/envelope.js';
import { AppError, BadRequestError, InputError } from '../../platform/lib/errors.js';
import { browserCacheControl } from '../../platform/plugins/http-cache.js';
import { type ParsedHandle, parseHandle, readablePrefix } from './handle-syntax.js';
import {
  type StoredRecord,
  type TemplateVersionInfo,
  countedValues,
  filterHandleValues,
  recordHandleValues,
  recordIdentityEntry,
  upstreamIdentityEntry,
} from './handle-values.js';
import { NOT_FOUND_TTL_SECONDS, RESOLVER_HOP_HEADER, UpstreamError, answerTtlSeconds, upstreamResolver } from './upstream-resolver.js';

/** HTTP status of each Handle responseCode (protocols: Handle.net JSON API). */
const HANDLE_STATUS: Record<number, number> = {
  [HandleResponseCode.Success]: 200,
  [HandleResponseCode.Error]: 500,
  [HandleResponseCode.HandleNotFound]: 404,
  [HandleResponseCode.InvalidHandle]: 400,
  [HandleResponseCode.ValuesNotFound]: 200,
};

/** A found identifier: a local record, or the values an upstream resolver answered. */
type Found =
  | { source: 'local'; prefix: string; record: StoredRecord; template: TemplateVersionInfo }
  | { source: 'upstream'; handle: string; values: HandleValue[] };

/** What a lookup found, and whether the upstream resolver answered it (found or not). */
interface Resolution {
  found: Found | undefined;
  upstream: boolean;
}

/**
 * Clients may keep an answer as long as a resolver may keep its values: their ttl (Handle.net JSON
 * API). Shared caches may not: every lookup they would answer must reach the node to count in 标识统计.
 */
const keepFor = (reply: FastifyReply, seconds: number) => reply.header('cache-control', browserCacheControl(seconds));

/**
 * Public resolution of identifiers: the portal's lookup (spec section 7, "Identity lookup") and the
 * Handle-compatible API. Local records answer from one unique-index lookup; handles under prefixes
 * this node does not hold go to the configured upstream resolver.
 */
const identifierRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const config = app.config.identifiers;
  const { ttlSeconds } = config;
  const upstream = config.upstreamUrl
    ? upstreamResolver(app.caches, {
        baseUrl: config.upstreamUrl,
        timeoutMs: config.upstreamTimeoutMs,
        maxEntries: config.upstreamCacheEntries,
        maxCacheBytes: config.upstreamCacheBytes,
        maxBytes: config.upstreamMaxBytes,
        maxValues: config.upstreamMaxValues,
      })
    : undefined;
  // Lookups that reach the upstream (answers from memory do not count): a window per client IP, and
  // a rate for the whole portal (every instance counts in the database), so no client can turn this
  // node into a relay of its own load.
  const perClient = app.createRateLimit({ limit: 'handle-upstream-client', max: config.upstreamPerIpPerMinute, timeWindow: 60_000 });
  const overall = app.createRateLimit({
    limit: 'handle-upstream',
    max: config.upstreamPerSecond,
    timeWindow: 1000,
    keyGenerator: () => 'upstream',
  });
  const admit = (request: FastifyRequest) => async () => {
    const client = await perClient(request);
    if (!client.isAllowed && client.isExceeded) {
      throw new UpstreamError('标识解析请求过于频繁，请稍后再试', 'busy', client.ttlInSeconds);
    }
    const all = await overall(request);
    if (!all.isAllowed && all.isExceeded) throw new UpstreamError('上游标识解析服务繁忙，请稍后再试', 'busy', all.ttlInSeconds);
  };

  async function resolve(parsed: ParsedHandle, request: FastifyRequest): Promise<Resolution> {
    const record = await app.recordRepository.byHandle(parsed.handle);
    if (record) {
      const template = await app.templateRepository.version(record.template_id, record.template_version);
      if (!template) throw new Error(`template ${record.template_id} v${record.template_version} of ${record.handle} is missing`);
      return { found: { source: 'local', prefix: parsed.prefix, record, template }, upstream: false };
    }
    // A prefix this node holds is answered here, found or not; a request from another resolver is never passed on.
    if (!upstream || request.headers[RESOLVER_HOP_HEADER] !== undefined || (await app.prefixRepository.holds(parsed.prefix))) {
      return { found: undefined, upstream: false };
    }
    const answer = await upstream.resolve(parsed.handle, admit(request));
    return { found: answer.found ? { source: 'upstream', handle: parsed.handle, values: answer.values } : undefined, upstream: true };
  }

  /**
   * 标识统计 counts every answered lookup for the prefix it names: under the route's channel,
   * or 上游转发 when the upstream answered it. Lookups the upstream failed to answer have no outcome and
   * are not counted.
   */
  const count = (request: FastifyRequest, channel: LookupChannel, parsed: ParsedHandle, { found, upstream: forwarded }: Resolution) =>
    app.lookupCountService.count(request, {
      prefix: parsed.prefix,
      channel: forwarded ? 'upstream' : channel,
      outcome: found ? 'found' : 'not_found',
      handle: parsed.handle,
      ...(found?.source === 'local' ? { values: countedValues(found.record, found.template) } : {}),
    });
  const countMalformed = (request: FastifyRequest, channel: LookupChannel, input: string) =>
    app.lookupCountService.count(request, { prefix: readablePrefix(input), channel, outcome: 'malformed', handle: input });

  const keepFound = (reply: FastifyReply, found: Found) =>
    keepFor(reply, found.source === 'local' ? ttlSeconds : answerTtlSeconds(found.values));
  /** "Not found" for a resolver's hop request only means "not held here": the asking resolver may not keep it. */
  const keepNotFound = (request: FastifyRequest, reply: FastifyReply) => {
    if (request.headers[RESOLVER_HOP_HEADER] === undefined) keepFor(reply, NOT_FOUND_TTL_SECONDS);
  };

  app.get(
    `${ApiPrefix.portal}/identity/query`,
    {
      schema: {
        tags: ['identifiers'],
        summary: '标识查询：标识记录及其模板；标识不存在时 data 为空列表',
        querystring: IdentityQueryQuerySchema,
        response: { 200: IdentityQueryAnswerSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const channel = request.query[QR_SOURCE_PARAM] === QR_SOURCE_VALUE ? 'qr' : 'web';
      const input = request.query.handle.trim();
      const parsed = parseHandle(input);
      if (!parsed.ok) {
        countMalformed(request, channel, input);
        throw new BadRequestError(parsed.message);
      }
      let resolution: Resolution;
      try {
        resolution = await resolve(parsed, request);
      } catch (err) {
        if (!(err instanceof UpstreamError)) throw err;
        request.log.warn({ err, handle: parsed.handle }, 'upstream handle resolution failed');
        if (err.kind === 'busy') reply.header('retry-after', err.retryAfterSeconds ?? 1);
        throw new AppError(err.message, err.statusCode);
      }
      count(request, channel, parsed, resolution);
      const { found } = resolution;
      if (!found) {
        keepNotFound(request, reply);
        return ok([], '未找到该标识');
      }
      keepFound(reply, found);
      return ok(
        found.source === 'local' ? recordIdentityEntry(found.record, found.template) : upstreamIdentityEntry(found.handle, found.values),
      );
    },
  );

  const handleReply = (reply: FastifyReply, body: HandleApiResponse, status = HANDLE_STATUS[body.responseCode] ?? 500) =>
    reply.status(status).header('access-control-allow-origin', '*').send(body);

  app.get(
    `${ApiPrefix.handles}/*`,
    {
      schema: {
        tags: ['identifiers'],
        summary: 'Handle.net JSON API 兼容的标识解析；type、index 可重复，按“或”筛选',
        params: HandleApiParamsSchema,
        querystring: HandleApiQuerySchema,
        response: { '2xx': HandleApiResponseSchema, '4xx': HandleApiResponseSchema, '5xx': HandleApiResponseSchema },
      },
      // Every answer of this route is a Handle answer, errors included.
      errorHandler(error: FastifyError, request, reply) {
        if (error.validation) {
          const field = error.validation[0]?.instancePath.replace(/^\//, '').split('/')[0];
          const message = field === 'index' ? '查询参数 index 须为非负整数' : '查询参数不正确';
          return handleReply(reply, { responseCode: HandleResponseCode.Error, message }, 400);
        }
        if (error instanceof InputError) {
          const responseCode = error.part === 'params' ? HandleResponseCode.InvalidHandle : HandleResponseCode.Error;
          return handleReply(reply, { responseCode, message: error.message }, 400);
        }
        if (error instanceof UpstreamError) {
          request.log.warn({ err: error }, 'upstream handle resolution failed');
          const body = { responseCode: HandleResponseCode.Error, message: error.message };
          if (error.kind !== 'busy') return handleReply(reply, body);
          return handleReply(reply.header('retry-after', error.retryAfterSeconds ?? 1), body, 429);
        }
        request.log.error({ err: error }, 'unexpected error');
        return handleReply(reply, { responseCode: HandleResponseCode.Error, message: '服务器内部错误，请稍后重试' });
      },
    },
    async (request, reply): Promise<HandleApiResponse> => {
      const handle = request.params['*'];
      reply.header('access-control-allow-origin', '*');
      const parsed = parseHandle(handle);
      if (!parsed.ok) {
        countMalformed(request, 'api', handle);
        reply.status(400);
        return { responseCode: HandleResponseCode.InvalidHandle, handle, message: parsed.message };
      }
      const resolution = await resolve(parsed, request);
      count(request, 'api', parsed, resolution);
      const { found } = resolution;
      if (!found) {
        keepNotFound(request, reply);
        reply.status(404);
        return { responseCode: HandleResponseCode.HandleNotFound, handle, message: '标识不存在' };
      }
      keepFound(reply, found);
      const all = found.source === 'local' ? recordHandleValues(found.record, found.prefix, found.template, ttlSeconds) : found.values;
      const values = filterHandleValues(all, request.query.type ?? [], request.query.index ?? []);
      const responseCode = values.length > 0 ? HandleResponseCode.Success : HandleResponseCode.ValuesNotFound;
      return { responseCode, handle: parsed.handle, values };
    },
  );
};

export default identifierRoutes;
