import { HandleResponseCode, type HandleValue } from '@portal/shared';
import { Type } from 'typebox';
import { Value } from 'typebox/value';
import type { CacheRegistry } from '../../lib/cache.js';

/** Marks a request one resolver sends another: such a request is never passed on again (no resolver loops). */
export const RESOLVER_HOP_HEADER = 'x-handle-resolver-hop';

/** How long "not found" answers are kept, here and by HTTP caches (negative caching). */
export const NOT_FOUND_TTL_SECONDS = 60;

/** The longest an answer is kept, whatever its values' ttl. */
const MAX_TTL_SECONDS = 86_400;

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
}

/** `/api/handles/{prefix}/{suffix}` with each segment escaped; "." and ".." segments never reach here (handle-syntax). */
export function upstreamPath(handle: string): string {
  return `/api/handles/${handle.split('/').map(encodeURIComponent).join('/')}`;
}

/** How long a resolver may keep a found handle's answer: its values' shortest ttl (protocols: Handle.net JSON API). */
export function answerTtlSeconds(values: readonly HandleValue[]): number {
  return Math.min(MAX_TTL_SECONDS, ...values.map((v) => v.ttl));
}

/**
 * Resolves handles of prefixes this node does not hold at a Handle-compatible resolver (protocols:
 * Handle.net JSON API). Answers are cached for their values' shortest ttl, "not found" for a
 * minute; failures are not cached. Concurrent lookups of one handle share one request.
 */
export function upstreamResolver(caches: CacheRegistry, options: UpstreamOptions) {
  const answers = caches.create<UpstreamAnswer>('identifiers', {
    max: options.maxEntries,
    ttl: NOT_FOUND_TTL_SECONDS * 1000,
    async load(handle, setTtl) {
      const answer = await fetchAnswer(options, handle);
      if (answer.found) setTtl(answerTtlSeconds(answer.values) * 1000);
      return answer;
    },
  });
  return {
    // A load dropped by a cache clear answers undefined: ask again, uncached.
    resolve: async (handle: string): Promise<UpstreamAnswer> => (await answers.get(handle)) ?? fetchAnswer(options, handle),
  };
}

async function fetchAnswer(options: UpstreamOptions, handle: string): Promise<UpstreamAnswer> {
  let response: Response;
  try {
    response = await fetch(options.baseUrl + upstreamPath(handle), {
      headers: { accept: 'application/json', [RESOLVER_HOP_HEADER]: '1' },
      signal: AbortSignal.timeout(options.timeoutMs),
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
