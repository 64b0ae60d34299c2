import { AxiosError, AxiosHeaders, type AxiosAdapter, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, REQUEST_TIMEOUT_MS, createApiClient, typed } from '../api-client';
import { notify } from '../notify';
import { tokenStore } from '../token';

vi.mock('../notify', () => ({ notify: { error: vi.fn(), success: vi.fn() } }));

const TOKEN_URL = 'http://cas.test/web/portal/oauth/token';

interface Reply {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
}
type Handler = (config: InternalAxiosRequestConfig) => Reply | Promise<Reply>;

/** An in-memory server: records every request and answers with the handler's result. */
function fakeServer(handler: Handler) {
  const requests: InternalAxiosRequestConfig[] = [];
  const adapter: AxiosAdapter = async (config) => {
    requests.push(config);
    const out = await handler(config);
    const response: AxiosResponse = {
      data: out.body,
      status: out.status ?? 200,
      statusText: 'OK',
      headers: new AxiosHeaders({ 'content-type': 'application/json', ...out.headers }),
      config,
    };
    const validate = config.validateStatus;
    if (validate && !validate(response.status)) throw new AxiosError('bad status', undefined, config, undefined, response);
    return response;
  };
  return { adapter, requests };
}

function client(handler: Handler) {
  const server = fakeServer(handler);
  const instance = createApiClient({ baseURL: 'http://api.test', tokenUrl: () => TOKEN_URL, adapter: server.adapter });
  return { api: typed(instance), ...server };
}

const ok = (data: unknown[]) => ({ body: { code: 20200, msg: '操作成功', data } });

beforeEach(() => {
  vi.mocked(notify.error).mockClear();
  tokenStore.clear();
});

describe('api client: every request', () => {
  it('sends credentials, X-Requested-With and JSON, with the 50 s timeout', async () => {
    const { api, requests } = client(() => ok([{ a: 1 }]));
    await api.post('/web-api/x', { name: '张三' });
    const req = requests[0]!;
    expect(req.withCredentials).toBe(true);
    expect(req.timeout).toBe(REQUEST_TIMEOUT_MS);
    expect(REQUEST_TIMEOUT_MS).toBe(50_000);
    expect(req.headers.get('X-Requested-With')).toBe('XMLHttpRequest');
    expect(String(req.headers.getContentType())).toMatch(/^application\/json/);
    expect(req.baseURL).toBe('http://api.test');
  });

  it('sends FormData as multipart (no JSON content type)', async () => {
    const { api, requests } = client(() => ok([]));
    const form = new FormData();
    form.append('file', new Blob(['x']), 'a.txt');
    await api.post('/web-api/upload', form);
    expect(String(requests[0]!.headers.getContentType() ?? '')).not.toMatch(/json/);
  });

  it('sends the stored token as Authorization', async () => {
    tokenStore.set('bearer abc');
    const { api, requests } = client(() => ok([]));
    await api.get('/web-api/x');
    expect(requests[0]!.headers.get('Authorization')).toBe('bearer abc');
  });
});

describe('api client: the error catalogue (spec section 8)', () => {
  it('20200 resolves with the envelope', async () => {
    const { api } = client(() => ok([{ id: 1 }]));
    await expect(api.get('/x')).resolves.toEqual({ code: 20200, msg: '操作成功', data: [{ id: 1 }] });
    expect(notify.error).not.toHaveBeenCalled();
  });

  it('code 1 shows the server message for 3 s and rejects', async () => {
    const { api } = client(() => ({ status: 400, body: { code: 1, msg: '用户名已被占用' } }));
    const err = await api.get('/x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toBe('用户名已被占用');
    expect((err as ApiError).code).toBe(1);
    expect(notify.error).toHaveBeenCalledTimes(1);
    expect(notify.error).toHaveBeenCalledWith('用户名已被占用', 3);
  });

  it('code 1 without a message shows "Error"', async () => {
    const { api } = client(() => ({ body: { code: 1 } }));
    await expect(api.get('/x')).rejects.toThrow('Error');
    expect(notify.error).toHaveBeenCalledWith('Error', 3);
  });

  it('a timeout shows the timeout toast for 3 s and rejects', async () => {
    const { api } = client((config) => Promise.reject(new AxiosError('timeout of 50000ms exceeded', 'ECONNABORTED', config)));
    await expect(api.get('/x')).rejects.toThrow('请求超时');
    expect(notify.error).toHaveBeenCalledWith('请求超时', 3);
  });

  it('an octet-stream answer is returned raw', async () => {
    const bytes = new Uint8Array([1, 2, 3]).buffer;
    const { api } = client(() => ({ body: bytes, headers: { 'content-type': 'application/octet-stream' } }));
    await expect(api.raw.get('/export', { responseType: 'arraybuffer' })).resolves.toBe(bytes);
  });

  it('a static HTML page is returned as text', async () => {
    const { api } = client(() => ({ body: '<h1>远程运维</h1>', headers: { 'content-type': 'text/html; charset=utf-8' } }));
    await expect(api.html('/static/remote.htm')).resolves.toBe('<h1>远程运维</h1>');
  });

  it('a body with rows is passed unchanged', async () => {
    const body = { rows: [{ id: 1 }], total: 1 };
    const { api } = client(() => ({ body }));
    await expect(api.get('/list')).resolves.toEqual(body);
  });
});

describe('api client: file downloads', () => {
  const jsonBlob = (body: unknown) => new Blob([JSON.stringify(body)], { type: 'application/json' });

  it('resolves with the file as a Blob, sent with the token', async () => {
    tokenStore.set('bearer abc');
    const file = new Blob(['\uFEFF"时间"\r\n'], { type: 'text/csv' });
    const { api, requests } = client(() => ({ body: file, headers: { 'content-type': 'text/csv; charset=utf-8' } }));
    await expect(api.blob('/web-api/console/v1/audit/export', { params: { action: 'login' } })).resolves.toBe(file);
    expect(requests[0]!.responseType).toBe('blob');
    expect(requests[0]!.headers.get('Authorization')).toBe('bearer abc');
    expect(requests[0]!.params).toEqual({ action: 'login' });
  });

  it('a file made from a request body is POSTed as JSON', async () => {
    const file = new Blob(['%PDF-1.7'], { type: 'application/pdf' });
    const { api, requests } = client(() => ({ body: file, headers: { 'content-type': 'application/pdf' } }));
    await expect(api.blob('/web-api/identity/v1/record/labels', { method: 'post', data: { ids: [9] } })).resolves.toBe(file);
    expect(requests[0]).toMatchObject({ method: 'post', responseType: 'blob', data: JSON.stringify({ ids: [9] }) });
    expect(String(requests[0]!.headers.getContentType())).toMatch(/^application\/json/);
  });

  it('a refused download toasts and rejects with the Chinese message from the JSON in its bytes', async () => {
    const { api } = client(() => ({ status: 403, body: jsonBlob({ code: 1, msg: '当前账号无权限' }) }));
    const err = await api.blob('/export').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ message: '当前账号无权限', code: 1, status: 403 });
    expect(notify.error).toHaveBeenCalledWith('当前账号无权限', 3);
  });

  it('an expired token during a download refreshes once and replays the download', async () => {
    tokenStore.set('bearer old');
    const file = new Blob(['ok'], { type: 'text/csv' });
    const { api } = client((config) => {
      if (config.url === TOKEN_URL) return ok([{ token_type: 'bearer', access_token: 'new' }]);
      return config.headers.get('Authorization') === 'bearer new'
        ? { body: file, headers: { 'content-type': 'text/csv' } }
        : { status: 401, body: jsonBlob({ code: 20301, msg: '访问令牌已过期' }) };
    });
    await expect(api.blob('/export')).resolves.toBe(file);
    expect(notify.error).not.toHaveBeenCalled();
  });

  it('an unreadable error body rejects with Error', async () => {
    const { api } = client(() => ({ status: 500, body: new Blob(['<html>oops</html>']) }));
    await expect(api.blob('/export')).rejects.toThrow('Error');
  });
});

describe('api client: token refresh queue', () => {
  it.each([20300, 20301, 20302])('code %i fetches one token, stores "type token" and replays', async (code) => {
    tokenStore.set('bearer old');
    const { api, requests } = client((config) => {
      if (config.url === TOKEN_URL) return ok([{ token_type: 'bearer', access_token: 'new' }]);
      return config.headers.get('Authorization') === 'bearer new' ? ok([{ done: true }]) : { status: 401, body: { code, msg: 'token' } };
    });
    await expect(api.get('/web/portal/x')).resolves.toMatchObject({ data: [{ done: true }] });
    expect(tokenStore.get()).toBe('bearer new');
    const tokenRequests = requests.filter((r) => r.url === TOKEN_URL);
    expect(tokenRequests).toHaveLength(1);
    expect(tokenRequests[0]!.withCredentials).toBe(true);
    expect(notify.error).not.toHaveBeenCalled();
  });

  it('5 concurrent requests that all get 20301 cause ONE token request and are all replayed', async () => {
    tokenStore.set('bearer old');
    let release!: () => void;
    const tokenGate = new Promise<void>((resolve) => (release = resolve));
    const { api, requests } = client(async (config) => {
      if (config.url === TOKEN_URL) {
        // Answer only after all five have failed, so they really queue behind one refresh.
        await tokenGate;
        return ok([{ token_type: 'bearer', access_token: 'fresh' }]);
      }
      const auth = config.headers.get('Authorization');
      return auth === 'bearer fresh' ? ok([{ url: config.url }]) : { status: 401, body: { code: 20301, msg: '访问令牌已过期' } };
    });
    const calls = [1, 2, 3, 4, 5].map((i) => api.get(`/web/portal/item/${i}`));
    await vi.waitFor(() => expect(requests.filter((r) => r.url !== TOKEN_URL)).toHaveLength(5));
    await vi.waitFor(() => expect(requests.filter((r) => r.url === TOKEN_URL)).toHaveLength(1));
    release();
    const results = await Promise.all(calls);
    expect(results.map((r) => r.data[0])).toEqual([1, 2, 3, 4, 5].map((i) => ({ url: `/web/portal/item/${i}` })));
    expect(requests.filter((r) => r.url === TOKEN_URL)).toHaveLength(1);
    // 5 failures + 1 token request + 5 replays with the new token.
    expect(requests).toHaveLength(11);
    expect(requests.slice(6).every((r) => r.headers.get('Authorization') === 'bearer fresh')).toBe(true);
    expect(tokenStore.get()).toBe('bearer fresh');
  });

  it('a failure that arrives after the refresh reuses the new token instead of refreshing again', async () => {
    tokenStore.set('bearer old');
    let releaseLate!: () => void;
    const late = new Promise<void>((resolve) => (releaseLate = resolve));
    let tokenCalls = 0;
    const { api } = client(async (config) => {
      if (config.url === TOKEN_URL) {
        tokenCalls += 1;
        return ok([{ token_type: 'bearer', access_token: `t${tokenCalls}` }]);
      }
      if (config.headers.get('Authorization') === 'bearer t1') return ok([{ url: config.url }]);
      if (config.url === '/late') await late; // sent with the old token, answers after the refresh
      return { body: { code: 20301, msg: '访问令牌已过期' } };
    });
    const early = api.get('/early');
    const slow = api.get('/late');
    await expect(early).resolves.toMatchObject({ data: [{ url: '/early' }] });
    releaseLate();
    await expect(slow).resolves.toMatchObject({ data: [{ url: '/late' }] });
    expect(tokenCalls).toBe(1);
  });

  it('a failed refresh rejects every queued request once, with one toast', async () => {
    tokenStore.set('bearer old');
    const { api, requests } = client((config) => {
      if (config.url === TOKEN_URL) return { status: 401, body: { code: 1, msg: '登录已失效，请重新登录' } };
      return { body: { code: 20300, msg: '缺少访问令牌' } };
    });
    const results = await Promise.allSettled([1, 2, 3, 4, 5].map((i) => api.get(`/x/${i}`)));
    expect(results.map((r) => r.status)).toEqual(Array(5).fill('rejected'));
    for (const r of results) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(ApiError);
    expect(requests.filter((r) => r.url === TOKEN_URL)).toHaveLength(1);
    expect(notify.error).toHaveBeenCalledTimes(1);
    expect(notify.error).toHaveBeenCalledWith('登录已失效，请重新登录', 3);
    expect(tokenStore.get()).toBe('bearer old');
  });

  it('does not loop when the replay fails with a token code again', async () => {
    const { api, requests } = client((config) => {
      if (config.url === TOKEN_URL) return ok([{ token_type: 'bearer', access_token: 'useless' }]);
      return { body: { code: 20302, msg: '访问令牌无效' } };
    });
    await expect(api.get('/x')).rejects.toBeInstanceOf(ApiError);
    expect(requests).toHaveLength(3);
    expect(notify.error).toHaveBeenCalledTimes(1);
  });
});

describe('api client: callers that show their own message', () => {
  it('a silent call rejects with the server message and shows no toast', async () => {
    const { api } = client(() => ({ status: 400, body: { code: 1, msg: '原密码错误' } }));
    const failure = api.put('/web/portal/account/password', {}, { silent: true });
    await expect(failure).rejects.toMatchObject({ message: '原密码错误', code: 1, status: 400 });
    expect(notify.error).not.toHaveBeenCalled();
    await expect(api.put('/web/portal/account/password', {})).rejects.toBeInstanceOf(ApiError);
    expect(notify.error).toHaveBeenCalledWith('原密码错误', 3);
  });
});
