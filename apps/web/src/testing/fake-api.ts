import { AxiosError, AxiosHeaders, type AxiosRequestConfig, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import type { ApiSuccess } from '@portal/shared';
import { vi } from 'vitest';
import { setApiAdapter } from '@/lib/api';

// Two ways to fake the server in web tests: under the real API client (`installFakeApi`, for code
// whose behaviour depends on the client: the guard, token handling), or in place of `api()`
// (`createFakeApi`, for page tests that assert which calls a page makes).

export interface FakeReply {
  status?: number;
  body: unknown;
}

/** `{ code: 20200, data }`, the server's success envelope. */
export const okReply = (data: unknown[]): FakeReply => ({ body: { code: 20200, msg: '操作成功', data } });

/** An axios adapter answering in memory (tests): every request is recorded and answered by `handler`, by method and path. */
export function createFakeAdapter(handler: (method: string, path: string, config: InternalAxiosRequestConfig) => FakeReply) {
  const requests: { method: string; path: string }[] = [];
  const adapter = async (config: InternalAxiosRequestConfig): Promise<AxiosResponse> => {
    const method = (config.method ?? 'get').toUpperCase();
    const path = new URL(config.url ?? '/', 'http://app.test').pathname;
    requests.push({ method, path });
    const out = handler(method, path, config);
    const response: AxiosResponse = {
      data: out.body,
      status: out.status ?? 200,
      statusText: 'OK',
      headers: new AxiosHeaders({ 'content-type': 'application/json' }),
      config,
    };
    if (config.validateStatus && !config.validateStatus(response.status))
      throw new AxiosError('bad status', undefined, config, undefined, response);
    return Promise.resolve(response);
  };
  return { adapter, requests };
}

/**
 * Answers the app's API client in memory (tests): every request is recorded and answered by
 * `handler`, by method and path.
 */
export function installFakeApi(handler: (method: string, path: string, config: InternalAxiosRequestConfig) => FakeReply) {
  const { adapter, requests } = createFakeAdapter(handler);
  setApiAdapter(adapter);
  return requests;
}

type Answer = unknown[] | ((body: unknown, config?: AxiosRequestConfig) => unknown[]);

/** An envelope as the API client resolves it. */
export function envelope<T>(data: T[], msg = '操作成功'): ApiSuccess<T> {
  return { code: 20200, msg, data };
}

/**
 * A stand-in for `api()` in page tests: answers each `METHOD path` from a table and records the
 * calls, so a test asserts which requests a page made with which parameters.
 */
export function createFakeApi(routes: Record<string, Answer> = {}) {
  const answer = (method: string, url: string, body?: unknown, config?: AxiosRequestConfig) => {
    const route = routes[`${method} ${url}`];
    if (route === undefined) return Promise.reject(new Error(`no fake answer for ${method} ${url}`));
    return Promise.resolve(envelope(typeof route === 'function' ? route(body, config) : route));
  };
  return {
    routes,
    get: vi.fn((url: string, config?: AxiosRequestConfig) => answer('GET', url, undefined, config)),
    delete: vi.fn((url: string, config?: AxiosRequestConfig) => answer('DELETE', url, undefined, config)),
    post: vi.fn((url: string, body?: unknown, config?: AxiosRequestConfig) => answer('POST', url, body, config)),
    put: vi.fn((url: string, body?: unknown, config?: AxiosRequestConfig) => answer('PUT', url, body, config)),
    blob: vi.fn((_url: string, _config?: AxiosRequestConfig) => Promise.resolve(new Blob(['\uFEFF"时间"\r\n'], { type: 'text/csv' }))),
    html: vi.fn(() => Promise.resolve('')),
  };
}

export type FakeApi = ReturnType<typeof createFakeApi>;
