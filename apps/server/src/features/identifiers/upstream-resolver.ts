import { HandleResponseCode, type HandleValue } from '@portal/shared';
import { Type } from 'typebox';
import { Value } from 'typebox/value';
import { TtlLruCache } from '../../lib/lru-cache.js';

/** Marks a request one resolver sends another: such a request is never passed on again (no resolver loops). */
export const RESOLVER_HOP_HEADER = 'x-handle-resolver-hop';

/** How long "not found" answers of the upstream are kept (negative caching). */
export const NOT_FOUND_TTL_MS = 60_000;

export type UpstreamAnswer = { found: true; values: HandleValue[] } | { found: false };

export class UpstreamError extends Error {
  constructor(
    message: string,
    readonly kind: 'timeout' | 'failed',
  ) {
    super(message);
    this.name = 'UpstreamError';
  }
}

const UpstreamValue = Type.Object({
  index: Type.Integer({ minimum: 0 }),
  type: Type.String({ maxLength: 256 }),
  data: Type.Union([
    Type.Object({ format: Type.Literal('string'), value: Type.String() }),
    Type.Object({
      format: Type.Literal('admin'),
      value: Type.Object({ handle: Type.String(), index: Type.Integer(), permissions: Type.String() }),
    }),
  ]),
  ttl: Type.Optional(Type.Integer()),
  timestamp: Type.Optional(Type.String()),
});
/** The parts of a Handle.net JSON answer this node relies on; other value formats are dropped. */
const UpstreamBody = Type.Object({
  responseCode: Type.Integer(),
  values: Type.Optional(Type.Array(Type.Unknown())),
});

export interface UpstreamOptions {
  baseUrl: string;
  timeoutMs: number;
  maxEntries: number;
  /** Tests inject a clock. */
  now?: () => number;
}

/** `/api/handles/{prefix}/{suffix}` with each segment escaped; "." and ".." segments never reach here (handle-syntax). */
export function upstreamPath(handle: string): string {
  return `/api/handles/${handle.split('/').map(encodeURIComponent).join('/')}`;
}

/**
 * Resolves handles of prefixes this node does not hold at a Handle-compatible resolver (protocols:
 * Handle.net JSON API). Answers are cached for their values' shortest ttl (a resolver may keep a
 * value that long), "not found" for a minute; failures are not cached. Concurrent lookups of one
 * handle share one request.
 */
export class UpstreamResolver {
  readonly #cache: TtlLruCache<UpstreamAnswer>;

  constructor(private readonly options: UpstreamOptions) {
    this.#cache = new TtlLruCache<UpstreamAnswer>(options.maxEntries, NOT_FOUND_TTL_MS, options.now);
  }

  resolve(handle: string): Promise<UpstreamAnswer> {
    return this.#cache.get(
      handle,
      () => this.#fetch(handle),
      (answer) => (answer.found ? Math.min(...answer.values.map((v) => v.ttl), 86_400) * 1000 : NOT_FOUND_TTL_MS),
    );
  }

  async #fetch(handle: string): Promise<UpstreamAnswer> {
    let response: Response;
    try {
      response = await fetch(this.options.baseUrl + upstreamPath(handle), {
        headers: { accept: 'application/json', [RESOLVER_HOP_HEADER]: '1' },
        signal: AbortSignal.timeout(this.options.timeoutMs),
        redirect: 'error',
      });
    } catch (err) {
      const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
      throw timedOut
        ? new UpstreamError('上游标识解析服务响应超时，请稍后重试', 'timeout')
        : new UpstreamError('上游标识解析服务不可用，请稍后重试', 'failed');
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      throw new UpstreamError('上游标识解析服务返回了无法识别的结果', 'failed');
    }
    if (!Value.Check(UpstreamBody, body)) throw new UpstreamError('上游标识解析服务返回了无法识别的结果', 'failed');
    if (body.responseCode === HandleResponseCode.HandleNotFound) return { found: false };
    if (body.responseCode !== HandleResponseCode.Success && body.responseCode !== HandleResponseCode.ValuesNotFound) {
      throw new UpstreamError(`上游标识解析服务返回错误（responseCode ${body.responseCode}）`, 'failed');
    }
    const now = new Date().toISOString();
    const values: HandleValue[] = [];
    for (const raw of body.values ?? []) {
      if (!Value.Check(UpstreamValue, raw)) continue;
      values.push({ ...raw, ttl: raw.ttl ?? 86_400, timestamp: raw.timestamp ?? `${now.slice(0, 19)}Z` });
    }
    return { found: true, values };
  }
}
