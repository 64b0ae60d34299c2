import type { ApiSuccess } from '@portal/shared';
import { vi } from 'vitest';
import { setApiTransport } from '@/lib/api';
import type { BlobOptions, RequestOptions } from '@/lib/api-client';
import type { Transport, TransportRequest } from '@/lib/http-transport';

// Two ways to fake the server in web tests: under the real API client (`installFakeApi`, for code
// whose behaviour depends on the client: the guard, token handling), or in place of `api()`
// (`createFakeApi`, for page tests that assert which calls a page makes).

export interface FakeReply {
  status?: number;
  body: unknown;
}

/** `{ code: 20200, data }`, the server's success envelope. */
export const okReply = (data: unknown[]): FakeReply => ({ body: { code: 20200, msg: '操作成功', data } });

/** A transport answering in memory (tests): every request is recorded and answered by `handler`, by method and path. */
export function createFakeTransport(handler: (method: string, path: string, request: TransportRequest) => FakeReply) {
  const requests: { method: string; path: string }[] = [];
  const transport: Transport = (request) => {
    const path = new URL(request.url, 'http://app.test').pathname;
    requests.push({ method: request.method, path });
    const { status = 200, body } = handler(request.method, path, request);
    // On the wire every answer is text or bytes; a file download reads bytes.
    const text = typeof body === 'string' ? body : body === undefined ? '' : JSON.stringify(body);
    const wire = body instanceof Blob ? body : request.responseType === 'blob' ? new Blob([text]) : text;
    return Promise.resolve({ status, contentType: 'application/json', body: wire });
  };
  return { transport, requests };
}

/**
 * Answers the app's API client in memory (tests): every request is recorded and answered by
 * `handler`, by method and path.
 */
export function installFakeApi(handler: (method: string, path: string, request: TransportRequest) => FakeReply) {
  const { transport, requests } = createFakeTransport(handler);
  setApiTransport(transport);
  return requests;
}

type Answer = unknown[] | ((body: unknown, options?: RequestOptions) => unknown[]);

/** An envelope as the API client resolves it. */
export function envelope<T>(data: T[], msg = '操作成功'): ApiSuccess<T> {
  return { code: 20200, msg, data };
}

/**
 * A stand-in for `api()` in page tests: answers each `METHOD path` from a table and records the
 * calls, so a test asserts which requests a page made with which parameters.
 */
export function createFakeApi(routes: Record<string, Answer> = {}) {
  const answer = (method: string, url: string, body?: unknown, options?: RequestOptions) => {
    const route = routes[`${method} ${url}`];
    if (route === undefined) return Promise.reject(new Error(`no fake answer for ${method} ${url}`));
    return Promise.resolve(envelope(typeof route === 'function' ? route(body, options) : route));
  };
  return {
    routes,
    get: vi.fn((url: string, options?: RequestOptions) => answer('GET', url, undefined, options)),
    delete: vi.fn((url: string, options?: RequestOptions) => answer('DELETE', url, undefined, options)),
    post: vi.fn((url: string, body?: unknown, options?: RequestOptions) => answer('POST', url, body, options)),
    put: vi.fn((url: string, body?: unknown, options?: RequestOptions) => answer('PUT', url, body, options)),
    blob: vi.fn((_url: string, _options?: BlobOptions) => Promise.resolve(new Blob(['\uFEFF"时间"\r\n'], { type: 'text/csv' }))),
    html: vi.fn(() => Promise.resolve('')),
  };
}

export type FakeApi = ReturnType<typeof createFakeApi>;
