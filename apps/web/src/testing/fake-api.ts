import { AxiosError, AxiosHeaders, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import { setApiAdapter } from '@/lib/api';

export interface FakeReply {
  status?: number;
  body: unknown;
}

/** `{ code: 20200, data }`, the server's success envelope. */
export const okReply = (data: unknown[]): FakeReply => ({ body: { code: 20200, msg: '操作成功', data } });

/**
 * Answers the app's API client in memory (tests): every request is recorded and answered by
 * `handler`, by method and path.
 */
export function installFakeApi(handler: (method: string, path: string, config: InternalAxiosRequestConfig) => FakeReply) {
  const requests: { method: string; path: string }[] = [];
  setApiAdapter(async (config) => {
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
  });
  return requests;
}
