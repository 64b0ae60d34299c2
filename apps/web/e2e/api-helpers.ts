import type { Page } from '@playwright/test';
import { ResponseCode } from '@portal/shared';

interface Envelope<T> {
  code: number;
  msg: string;
  data: T[];
}

export interface Api {
  /** The answer's `data` of a GET; throws with the server's message on a failure. */
  get<T>(url: string): Promise<T[]>;
  post<T>(url: string, body: unknown): Promise<T[]>;
  put<T>(url: string, body: unknown): Promise<T[]>;
}

/**
 * The API as the user signed in on `page`, for a test's own setup and cleanup (never for what it
 * asserts): a token from the app's token endpoint with the session cookie, as the web app gets it.
 */
export async function apiAs(page: Page): Promise<Api> {
  const headers = { 'X-Requested-With': 'XMLHttpRequest' };
  const tokens = (await (await page.request.get('/web/portal/oauth/token', { headers })).json()) as Envelope<{
    token_type: string;
    access_token: string;
  }>;
  const token = tokens.data[0];
  if (!token) throw new Error(`no API token: ${tokens.msg}`);
  const auth = { ...headers, Authorization: `${token.token_type} ${token.access_token}` };
  const data = async <T>(answer: Promise<{ json(): Promise<unknown> }>, url: string): Promise<T[]> => {
    const body = (await (await answer).json()) as Envelope<T>;
    if (body.code !== ResponseCode.Success) throw new Error(`${url}: ${body.msg}`);
    return body.data;
  };
  return {
    get: (url) => data(page.request.get(url, { headers: auth }), url),
    post: (url, body) => data(page.request.post(url, { headers: auth, data: body }), url),
    put: (url, body) => data(page.request.put(url, { headers: auth, data: body }), url),
  };
}
