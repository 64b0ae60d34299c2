import type { ApiSuccess } from '@portal/shared';
import type { AxiosRequestConfig } from 'axios';
import { vi } from 'vitest';

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
