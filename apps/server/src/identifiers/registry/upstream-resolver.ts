import { HandleResponseCode, type HandleValue } from '@portal/shared';
import { Type } from 'typebox';
import { Value } from 'typebox/value';
import type { CacheRegistry } from '../../platform/lib/cache.js';

/** Marks a request one resolver sends another: such a request is never passed on again (no resolver loops). */
export const RESOLVER_HOP_HEADER = 'x-handle-resolver-hop';

/** How long "not found" answers are kept, here and by HTTP caches (negative caching). */
export const NOT_FOUND_TTL_SECONDS = 60;

/** The longest an answer is kept, whatever its values' ttl. */
const MAX_TTL_SECONDS = 86_400;

export type UpstreamAnswer = { found: true; values: HandleValue[] } | { found: false };

/** HTTP status of each kind of upstream failure on the portal's lookup. */
const UPSTREAM_STATUS = { timeout: 504, failed: 502, busy: 429 } as const;

export class UpstreamError extends Error {
  readonly statusCode: number;

  constructor(
    message: string,
    readonly kind: keyof typeof UPSTREAM_STATUS,
    /** For `busy`: seconds until a lookup may reach the upstream again. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'UpstreamError';
    this.statusCode = UPSTREAM_STATUS[kind];
  }
}

const UNRECOGNISED = '上游标识解析服务返回了无法识别的结果';

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
  /** Memory the kept answers may take, approximated by their values' JSON length. */
  maxCacheBytes: number;
  /** Largest answer read: the body is streamed and the request aborted past it. */
  maxBytes: number;
  maxValues: number;
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
 * minute; failures are not cached. Concurrent lookups of one handle share one request. An answer
 * over `maxBytes` or `maxValues` is refused, and the cache is bounded by memory as well as entries.
 */
export function upstreamResolver(caches: CacheRegistry, options: UpstreamOptions) {
  const answers = caches.create<UpstreamAnswer>('identifiers', {
    max: options.maxEntries,
    ttl: NOT_FOUND_TTL_SECONDS * 1000,
    maxSize: options.maxCacheBytes,
    sizeOf: (answer) => (answer.found ? JSON.stringify(answer.values).length : 0) + 64,
    async load(handle, setTtl) {
      const answer = await fetchAnswer(options, handle);
      if (answer.found) setTtl(answerTtlSeconds(answer.values) * 1000);
      return answer;
    },
  });
  return {
    /**
     * The upstream's answer for `handle`: from memory, or after `admit` lets the lookup reach the
     * upstream (it throws to refuse). A load dropped by a cache clear answers undefined: ask again, uncached.
     */
    async resolve(handle: string, admit: () => Promise<void>): Promise<UpstreamAnswer> {
      if (!answers.has(handle)) await admit();
      return (await answers.get(handle)) ?? fetchAnswer(options, handle);
    },
  };
}

const timedOut = (err: unknown) => err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
const timeoutError = () => new UpstreamError('上游标识解析服务响应超时，请稍后重试', 'timeout');

/** The body as text, read as it arrives: past `maxBytes` the request is aborted and the answer refused. */
async function readLimited(response: Response, maxBytes: number): Promise<string> {
  const tooLarge = () => new UpstreamError('上游标识解析服务返回的结果过大', 'failed');
  if (Number(response.headers.get('content-length')) > maxBytes) {
    await response.body?.cancel();
    throw tooLarge();
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function fetchAnswer(options: UpstreamOptions, handle: string): Promise<UpstreamAnswer> {
  let text: string;
  try {
    // The timeout covers the whole exchange, the body included.
    const response = await fetch(options.baseUrl + upstreamPath(handle), {
      headers: { accept: 'application/json', [RESOLVER_HOP_HEADER]: '1' },
      signal: AbortSignal.timeout(options.timeoutMs),
      redirect: 'error',
    });
    text = await readLimited(response, options.maxBytes);
  } catch (err) {
    if (err instanceof UpstreamError) throw err;
    throw timedOut(err) ? timeoutError() : new UpstreamError('上游标识解析服务不可用，请稍后重试', 'failed');
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new UpstreamError(UNRECOGNISED, 'failed');
  }
  if (!Value.Check(UpstreamBody, body)) throw new UpstreamError(UNRECOGNISED, 'failed');
  if (body.responseCode === HandleResponseCode.HandleNotFound) return { found: false };
  if (body.responseCode !== HandleResponseCode.Success && body.responseCode !== HandleResponseCode.ValuesNotFound) {
    throw new UpstreamError(`上游标识解析服务返回错误（responseCode ${body.responseCode}）`, 'failed');
  }
  if ((body.values?.length ?? 0) > options.maxValues) throw new UpstreamError('上游标识解析服务返回的标识值过多', 'failed');
  const now = new Date().toISOString();
  const values: HandleValue[] = [];
  for (const raw of body.values ?? []) {
    if (!Value.Check(UpstreamValue, raw)) continue;
    values.push({ ...raw, ttl: raw.ttl ?? 86_400, timestamp: raw.timestamp ?? `${now.slice(0, 19)}Z` });
  }
  return { found: true, values };
}
