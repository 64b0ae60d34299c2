import { SCIM_BASE_PATH } from '@portal/shared';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../platform/lib/errors.js';
import { requestOrigin } from '../../platform/lib/request-origin.js';
import { ScimError, invalidValue, scimErrorBody } from './scim-errors.js';
import { SEARCH_SCHEMA, resourceTypes, schemaDocuments, serviceProviderConfig } from './scim-schemas.js';
import type { ScimCaller, ScimListQuery } from './scim-service.js';
import { type ScimClient, scimActorName } from './scim-tokens.js';

/** Calls one token may make a minute: a full sync of a few thousand people fits, a runaway client does not. */
export const SCIM_REQUESTS_PER_MINUTE = 1200;
/** Unknown or revoked tokens one address may present a minute before it is answered 429 (guessing, a misconfigured client). */
export const SCIM_BAD_TOKENS_PER_MINUTE = 30;
const SCIM_JSON = 'application/scim+json; charset=utf-8';
/** A list's page when the client names none. */
const DEFAULT_COUNT = 100;

declare module 'fastify' {
  interface FastifyRequest {
    scimClient: ScimClient | null;
  }
}

/** Fastify's own refusals (body, media type) in Chinese. */
const FRAMEWORK: Record<string, [number, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [400, '请求体不是有效的 JSON'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, '请求体不能为空'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, '请求体过大'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, '不支持的请求内容类型，请使用 application/scim+json'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, '请求体长度与声明不一致'],
};

function sendScim(reply: FastifyReply, status: number, body: unknown) {
  return reply.status(status).type(SCIM_JSON).send(body);
}

/** The largest startIndex or count taken (nine digits: well inside the databases' integers and offsets). */
const MAX_PAGE_NUMBER = 999_999_999;

/**
 * An integer query parameter (RFC 7644 §3.4.2.4), or the default; anything else is invalidValue. One
 * below 1 (startIndex) or 0 (count) means that (the caller clamps it), one above the largest taken says so.
 */
function integer(value: unknown, name: string, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  let number: number;
  if (typeof value === 'number' && Number.isInteger(value)) number = value;
  else if (typeof value === 'string' && /^-?\d+$/.test(value)) number = Number(value);
  else throw invalidValue(`${name} 须为整数`);
  if (number > MAX_PAGE_NUMBER) throw invalidValue(`${name} 过大，最大为 ${MAX_PAGE_NUMBER}`);
  return Math.max(number, -1);
}

function textParam(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalidValue(`${name} 只能出现一次，且须为字符串`);
  return value;
}

function listParam(value: unknown, name: string): string[] | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.flatMap((v) => v.split(','));
  if (typeof value !== 'string') throw invalidValue(`${name} 须为以逗号分隔的属性名`);
  return value.split(',').filter(Boolean);
}

function listQuery(source: Record<string, unknown>): ScimListQuery {
  const order = textParam(source.sortOrder, 'sortOrder');
  if (order !== undefined && order !== 'ascending' && order !== 'descending') throw invalidValue('sortOrder 须为 ascending 或 descending');
  return {
    filter: textParam(source.filter, 'filter'),
    startIndex: integer(source.startIndex, 'startIndex', 1),
    count: integer(source.count, 'count', DEFAULT_COUNT),
    sortBy: textParam(source.sortBy, 'sortBy'),
    sortOrder: order,
    attributes: listParam(source.attributes, 'attributes'),
    excludedAttributes: listParam(source.excludedAttributes, 'excludedAttributes'),
  };
}

/**
 * The SCIM 2.0 service (RFC 7644) at `/scim/v2`: a bearer token of SCIM 同步 names the enterprise
 * (another enterprise's ids are simply not found); answers and errors are `application/scim+json`
 * in SCIM's error format (status, scimType, a Chinese detail). Tokens, not cookies, authenticate, so
 * no CSRF check; the routes stay out of the OpenAPI document (SCIM has its own discovery: /Schemas).
 */
export default async function scimRoutes(app: FastifyInstance): Promise<void> {
  const scim = app.scimService;
  const perToken = app.createRateLimit({
    limit: 'scim',
    max: SCIM_REQUESTS_PER_MINUTE,
    timeWindow: 60_000,
    keyGenerator: (request) => `scim:${request.scimClient?.tokenId ?? request.ip}`,
  });
  // Counted per address on refusals only, so a flood of bad tokens is limited without costing good calls a write.
  const badTokens = app.createRateLimit({ limit: 'scim-bad-token', max: SCIM_BAD_TOKENS_PER_MINUTE, timeWindow: 60_000 });

  app.decorateRequest('scimClient', null);
  const parseJson = (_request: FastifyRequest, body: string, done: (err: Error | null, value?: unknown) => void) => {
    try {
      done(null, body === '' ? undefined : (JSON.parse(body) as unknown));
    } catch {
      done(new ScimError(400, '请求体不是有效的 JSON', 'invalidSyntax'));
    }
  };
  // SCIM clients send application/scim+json or application/json (RFC 7644 §3.1); a malformed body is invalidSyntax.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    ['application/scim+json', 'application/json'],
    { parseAs: 'string', bodyLimit: app.config.bodyLimit },
    parseJson,
  );

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ScimError)
      return sendScim(reply, error.statusCode, scimErrorBody(error.statusCode, error.message, error.scimType));
    if (error instanceof AppError && error.statusCode < 500) {
      // The guard rails' refusals (the last administrator) and the input guard's.
      const scimType = error.statusCode === 400 ? 'invalidValue' : undefined;
      return sendScim(reply, error.statusCode, scimErrorBody(error.statusCode, error.message, scimType));
    }
    const framework = FRAMEWORK[error.code];
    if (framework)
      return sendScim(reply, framework[0], scimErrorBody(framework[0], framework[1], framework[0] === 400 ? 'invalidSyntax' : undefined));
    if (error.statusCode === 503) return sendScim(reply, 503, scimErrorBody(503, '服务繁忙，请稍后重试'));
    request.log.error({ err: error }, 'scim request failed');
    return sendScim(reply, 500, scimErrorBody(500, '服务器内部错误，请稍后重试'));
  });
  app.setNotFoundHandler((_request, reply) => sendScim(reply, 404, scimErrorBody(404, '资源不存在')));

  app.addHook('onRequest', async (request, reply) => {
    const client = await app.scimTokenService.authenticate(request.headers.authorization, request.ip);
    if (!client) {
      const bad = await badTokens(request);
      if (!bad.isAllowed && bad.isExceeded) {
        reply.header('retry-after', String(bad.ttlInSeconds));
        throw new ScimError(429, `无效的访问令牌过多，请 ${bad.ttlInSeconds} 秒后重试`);
      }
      reply.header('www-authenticate', 'Bearer realm="scim", error="invalid_token"');
      throw new ScimError(401, 'SCIM 访问令牌无效或已被吊销');
    }
    request.scimClient = client;
    const limit = await perToken(request);
    if (!limit.isAllowed && limit.isExceeded) {
      reply.header('retry-after', String(limit.ttlInSeconds));
      throw new ScimError(429, `请求过于频繁，请 ${limit.ttlInSeconds} 秒后重试`);
    }
  });

  const callerOf = (request: FastifyRequest): ScimCaller => {
    const client = request.scimClient;
    if (!client) throw new ScimError(401, 'SCIM 访问令牌无效或已被吊销');
    const origin = requestOrigin(request);
    return {
      enterpriseId: client.enterpriseId,
      base: `${app.config.publicUrl ?? origin}${SCIM_BASE_PATH}`,
      actor: {
        accountId: null,
        username: scimActorName(client.name),
        enterpriseId: client.enterpriseId,
        authorities: [],
        ip: request.ip,
        origin,
        log: request.log,
      },
    };
  };
  const ifMatch = (request: FastifyRequest) => {
    const header = request.headers['if-match'];
    return Array.isArray(header) ? header.join(',') : header;
  };
  const query = (request: FastifyRequest) => (request.query ?? {}) as Record<string, unknown>;
  const options = { config: { csrf: false }, schema: { hide: true } };
  const sendResource = (reply: FastifyReply, status: number, resource: { meta: { version: string; location?: unknown } } & object) => {
    reply.header('etag', resource.meta.version);
    if (status === 201 && typeof resource.meta.location === 'string') reply.header('location', resource.meta.location);
    return sendScim(reply, status, resource);
  };
  const searchQuery = (body: unknown): ScimListQuery => {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ScimError(400, '请求体须为 JSON 对象', 'invalidSyntax');
    const fields = body as Record<string, unknown>;
    const schemas = fields.schemas;
    if (!Array.isArray(schemas) || !schemas.includes(SEARCH_SCHEMA))
      throw new ScimError(400, `schemas 须为 ${SEARCH_SCHEMA}`, 'invalidSyntax');
    const { attributes, excludedAttributes, ...rest } = fields;
    const list = (v: unknown, name: string) => {
      if (v === undefined) return undefined;
      if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) throw invalidValue(`${name} 须为字符串数组`);
      return v as string[];
    };
    return {
      ...listQuery(rest),
      attributes: list(attributes, 'attributes'),
      excludedAttributes: list(excludedAttributes, 'excludedAttributes'),
    };
  };

  // Discovery (RFC 7644 §4).
  app.get('/ServiceProviderConfig', options, async (request, reply) => {
    const c = callerOf(request);
    return sendScim(reply, 200, serviceProviderConfig(c.base, `${app.config.publicUrl ?? c.actor.origin}/open-service/api`));
  });
  app.get('/ResourceTypes', options, async (request, reply) => {
    const all = resourceTypes(callerOf(request).base);
    return sendScim(reply, 200, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
      totalResults: all.length,
      startIndex: 1,
      itemsPerPage: all.length,
      Resources: all,
    });
  });
  app.get<{ Params: { id: string } }>('/ResourceTypes/:id', options, async (request, reply) => {
    const found = resourceTypes(callerOf(request).base).find((t) => t.id === request.params.id);
    if (!found) throw new ScimError(404, '资源类型不存在');
    return sendScim(reply, 200, found);
  });
  app.get('/Schemas', options, async (request, reply) => {
    const all = schemaDocuments(callerOf(request).base);
    return sendScim(reply, 200, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
      totalResults: all.length,
      startIndex: 1,
      itemsPerPage: all.length,
      Resources: all,
    });
  });
  app.get<{ Params: { id: string } }>('/Schemas/:id', options, async (request, reply) => {
    const found = schemaDocuments(callerOf(request).base).find((s) => s.id === request.params.id);
    if (!found) throw new ScimError(404, '架构不存在');
    return sendScim(reply, 200, found);
  });

  // Users and Groups (RFC 7644 §3.2–3.6).
  for (const kind of ['Users', 'Groups'] as const) {
    const users = kind === 'Users';
    app.get(`/${kind}`, options, async (request, reply) => {
      const c = callerOf(request);
      const q = listQuery(query(request));
      return sendScim(reply, 200, users ? await scim.listUsers(c, q) : await scim.listGroups(c, q));
    });
    app.post(`/${kind}/.search`, options, async (request, reply) => {
      const c = callerOf(request);
      const q = searchQuery(request.body);
      return sendScim(reply, 200, users ? await scim.listUsers(c, q) : await scim.listGroups(c, q));
    });
    app.get<{ Params: { id: string } }>(`/${kind}/:id`, options, async (request, reply) => {
      const c = callerOf(request);
      const q = listQuery(query(request));
      const found = users ? await scim.getUser(c, request.params.id, q) : await scim.getGroup(c, request.params.id, q);
      if (found.version !== undefined) reply.header('etag', found.version);
      return sendScim(reply, 200, found.resource);
    });
    app.post(`/${kind}`, options, async (request, reply) => {
      const c = callerOf(request);
      return sendResource(reply, 201, users ? await scim.createUser(c, request.body) : await scim.createGroup(c, request.body));
    });
    for (const mode of ['replace', 'patch'] as const) {
      const method = mode === 'replace' ? 'put' : 'patch';
      app[method]<{ Params: { id: string } }>(`/${kind}/:id`, options, async (request, reply) => {
        const c = callerOf(request);
        const { id } = request.params;
        const written = users
          ? await scim.writeUser(c, id, request.body, ifMatch(request), mode)
          : await scim.writeGroup(c, id, request.body, ifMatch(request), mode);
        return sendResource(reply, 200, written);
      });
    }
    app.delete<{ Params: { id: string } }>(`/${kind}/:id`, options, async (request, reply) => {
      const c = callerOf(request);
      if (users) await scim.deleteUser(c, request.params.id, ifMatch(request));
      else await scim.deleteGroup(c, request.params.id, ifMatch(request));
      return reply.status(204).send();
    });
  }
}
