import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, REQUEST_TIMEOUT_MS, createApiClient, queryString } from '../api-client';
import type { Transport, TransportRequest } from '../http-transport';
import { notify } from '../notify';
import { tokenStore } from '../token';

vi.mock('../notify', () => ({ notify: { error: vi.fn(), success: vi.fn() } }));

const TOKEN_URL = 'http://cas.test/web/portal/oauth/token';
const BASE = 'http://api.test';

interface Reply {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
}
type Handler = (request: TransportRequest) => Reply | Promise<Reply>;

/** The path a request went to, relative to the API base (the token URL stays whole). */
const pathOf = (request: TransportRequest) => (request.url.startsWith(BASE) ? request.url.slice(BASE.length) : request.url);

/** An in-memory server: records every request and answers with the handler's result, as text or bytes like the wire. */
function fakeServer(handler: Handler) {
  const requests: TransportRequest[] = [];
  const transport: Transport = async (request) => {
    requests.push(request);
    const out = await handler(request);
    const body = typeof out.body === 'string' || out.body instanceof Blob ? out.body : JSON.stringify(out.body);
    return { status: out.status ?? 200, contentType: out.headers?.['content-type'] ?? 'application/json', body };
  };
  return { transport, requests };
}

function client(handler: Handler, onSessionEnded?: () => void) {
  const server = fakeServer(handler);
  const api = createApiClient({ baseURL: BASE, tokenUrl: () => TOKEN_URL, transport: server.transport, onSessionEnded });
  return { api, ...server };
}

const ok = (data: unknown[]) => ({ body: { code: 20200, msg: '操作成功', data } });

beforeEach(() => {
  vi.mocked(notify.error).mockClear();
  tokenStore.clear();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('api client: every request', () => {
  it('sends credentials, X-Requested-With and JSON, with the 50 s timeout', async () => {
    const { api, requests } = client(() => ok([{ a: 1 }]));
    await api.post('/web-api/x', { name: '张三' });
    const req = requests[0]!;
    expect(req.credentials).toBe('include');
    expect(REQUEST_TIMEOUT_MS).toBe(50_000);
    expect(req.headers.get('X-Requested-With')).toBe('XMLHttpRequest');
    expect(String(req.headers.get('Content-Type'))).toMatch(/^application\/json/);
    expect(req.url).toBe('http://api.test/web-api/x');
    expect(req.body).toBe(JSON.stringify({ name: '张三' }));
  });

  it('sends FormData as multipart (no JSON content type)', async () => {
    const { api, requests } = client(() => ok([]));
    const form = new FormData();
    form.append('file', new Blob(['x']), 'a.txt');
    await api.post('/web-api/upload', form);
    expect(String(requests[0]!.headers.get('Content-Type') ?? '')).not.toMatch(/json/);
    expect(requests[0]!.body).toBe(form);
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
    vi.useFakeTimers();
    const { api, requests } = client(() => new Promise<Reply>(() => {}));
    const call = api.get('/x');
    const failure = expect(call).rejects.toThrow('请求超时');
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    expect(notify.error).not.toHaveBeenCalled();
    expect(requests[0]!.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await failure;
    expect(notify.error).toHaveBeenCalledWith('请求超时', 3);
    // The transport is told to give up (fetch and XHR abort the request).
    expect(requests[0]!.signal.aborted).toBe(true);
  });

  it('an octet-stream answer is returned raw', async () => {
    const bytes = 'PK\u0003\u0004';
    const { api } = client(() => ({ body: bytes, headers: { 'content-type': 'application/octet-stream' } }));
    await expect(api.get('/export')).resolves.toBe(bytes);
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
    expect(requests[0]!.url).toBe('http://api.test/web-api/console/v1/audit/export?action=login');
  });

  it('a file made from a request body is POSTed as JSON', async () => {
    const file = new Blob(['%PDF-1.7'], { type: 'application/pdf' });
    const { api, requests } = client(() => ({ body: file, headers: { 'content-type': 'application/pdf' } }));
    await expect(api.blob('/web-api/identity/v1/record/labels', { method: 'post', data: { ids: [9] } })).resolves.toBe(file);
    expect(requests[0]).toMatchObject({ method: 'POST', responseType: 'blob', body: JSON.stringify({ ids: [9] }) });
    expect(String(requests[0]!.headers.get('Content-Type'))).toMatch(/^application\/json/);
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
    const { api } = client((request) => {
      if (request.url === TOKEN_URL) return ok([{ token_type: 'bearer', access_token: 'new' }]);
      return request.headers.get('Authorization') === 'bearer new'
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
    const { api, requests } = client((request) => {
      if (request.url === TOKEN_URL) return ok([{ token_type: 'bearer', access_token: 'new' }]);
      return request.headers.get('Authorization') === 'bearer new' ? ok([{ done: true }]) : { status: 401, body: { code, msg: 'token' } };
    });
    await expect(api.get('/web/portal/x')).resolves.toMatchObject({ data: [{ done: true }] });
    expect(tokenStore.get()).toBe('bearer new');
    const tokenRequests = requests.filter((r) => r.url === TOKEN_URL);
    expect(tokenRequests).toHaveLength(1);
    expect(tokenRequests[0]!.credentials).toBe('include');
    expect(notify.error).not.toHaveBeenCalled();
  });

  it('5 concurrent requests that all get 20301 cause ONE token request and are all replayed', async () => {
    tokenStore.set('bearer old');
    let release!: () => void;
    const tokenGate = new Promise<void>((resolve) => (release = resolve));
    const { api, requests } = client(async (request) => {
      if (request.url === TOKEN_URL) {
        // Answer only after all five have failed, so they really queue behind one refresh.
        await tokenGate;
        return ok([{ token_type: 'bearer', access_token: 'fresh' }]);
      }
      const auth = request.headers.get('Authorization');
      return auth === 'bearer fresh' ? ok([{ url: pathOf(request) }]) : { status: 401, body: { code: 20301, msg: '访问令牌已过期' } };
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
    const { api } = client(async (request) => {
      if (request.url === TOKEN_URL) {
        tokenCalls += 1;
        return ok([{ token_type: 'bearer', access_token: `t${tokenCalls}` }]);
      }
      if (request.headers.get('Authorization') === 'bearer t1') return ok([{ url: pathOf(request) }]);
      if (pathOf(request) === '/late') await late; // sent with the old token, answers after the refresh
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
    const { api, requests } = client((request) => {
      if (request.url === TOKEN_URL) return { status: 401, body: { code: 1, msg: '登录已失效，请重新登录' } };
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

  it('a refresh the login host refuses (the session ended elsewhere) tells the page once for the whole queue', async () => {
    tokenStore.set('bearer old');
    const ended = vi.fn();
    const { api } = client((request) => {
      if (request.url === TOKEN_URL) return { status: 401, body: { code: 1, msg: '登录已失效，请重新登录' } };
      return { status: 401, body: { code: 20302, msg: '访问令牌无效' } };
    }, ended);
    const results = await Promise.allSettled([1, 2, 3].map((i) => api.get(`/x/${i}`)));
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(ended).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['no answer', () => Promise.reject(new TypeError('network'))],
    ['a server error', () => ({ status: 500, body: { code: 1, msg: '服务器内部错误' } })],
  ])('a refresh that fails with %s keeps the session: nobody is sent to log in', async (_, tokenReply) => {
    tokenStore.set('bearer old');
    const ended = vi.fn();
    const { api } = client((request) => {
      if (request.url === TOKEN_URL) return tokenReply();
      return { status: 401, body: { code: 20301, msg: '访问令牌已过期' } };
    }, ended);
    await expect(api.get('/x')).rejects.toBeInstanceOf(ApiError);
    expect(ended).not.toHaveBeenCalled();
  });

  it('does not loop when the replay fails with a token code again', async () => {
    const { api, requests } = client((request) => {
      if (request.url === TOKEN_URL) return ok([{ token_type: 'bearer', access_token: 'useless' }]);
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

describe('api client: query strings (as axios wrote them, the format the server was built against)', () => {
  it('leaves out undefined and null, keeps empty strings, and encodes like axios', async () => {
    const { api, requests } = client(() => ok([]));
    const params = {
      keyword: '瑞驰 液压',
      offset: 0,
      limit: 20,
      unread: undefined,
      kind: null,
      toLatest: true,
      status: '',
      odd: "a:b$c,d&e=f+g/h?i#j!'()*~",
    };
    await api.get('/web-api/x', { params });
    // The address axios 1.21 built for the same call (axios.getUri).
    expect(requests[0]!.url).toBe(
      "http://api.test/web-api/x?keyword=%E7%91%9E%E9%A9%B0+%E6%B6%B2%E5%8E%8B&offset=0&limit=20&toLatest=true&status=&odd=a:b$c,d%26e%3Df%2Bg%2Fh%3Fi%23j!'()*~",
    );
    expect(requests[0]!.params).toBe(params);
  });

  it('writes arrays as key[] and Dates in ISO form, after a query the URL already has', () => {
    const since = new Date(Date.UTC(2026, 10, 20, 8, 30, 0));
    expect(queryString({ ids: [1, null, 'b'], since })).toBe('ids%5B%5D=1&ids%5B%5D=b&since=2026-11-20T08:30:00.000Z');
  });

  it('appends to a query the URL already has, and sends no "?" for empty params', async () => {
    const { api, requests } = client(() => ok([]));
    await api.get('/x?a=1', { params: { b: 2 } });
    await api.get('/y', { params: { c: undefined } });
    expect(requests.map((r) => r.url)).toEqual(['http://api.test/x?a=1&b=2', 'http://api.test/y']);
  });

  it('joins the base with one slash and leaves an absolute URL alone', async () => {
    const server = fakeServer(() => ok([]));
    const api = createApiClient({ baseURL: 'http://api.test/', tokenUrl: () => TOKEN_URL, transport: server.transport });
    await api.get('/x');
    await api.get('http://other.test/y');
    await api.get('//cdn.test/z');
    expect(server.requests.map((r) => r.url)).toEqual(['http://api.test/x', 'http://other.test/y', '//cdn.test/z']);
  });
});

describe('api client: what goes on the wire', () => {
  it('a GET has no body and no Content-Type, and accepts JSON', async () => {
    const { api, requests } = client(() => ok([]));
    await api.get('/x');
    expect(requests[0]).toMatchObject({ method: 'GET', body: undefined, responseType: 'json' });
    expect(requests[0]!.headers.get('Content-Type')).toBeNull();
    expect(requests[0]!.headers.get('Accept')).toBe('application/json, text/plain, */*');
  });

  it('a static page asks for text/html', async () => {
    const { api, requests } = client(() => ({ body: '<p>x</p>', headers: { 'content-type': 'text/html' } }));
    await api.html('/static/x.htm');
    expect(requests[0]).toMatchObject({ method: 'GET', responseType: 'text' });
    expect(requests[0]!.headers.get('Accept')).toBe('text/html');
  });

  it('a body that already is JSON text is sent as it is; other strings as JSON strings', async () => {
    const { api, requests } = client(() => ok([]));
    await api.put('/x', ' {"a":1} ');
    await api.put('/x', 'plain');
    expect(requests.map((r) => r.body)).toEqual(['{"a":1}', '"plain"']);
  });

  it('a DELETE sends the token and no body', async () => {
    tokenStore.set('bearer abc');
    const { api, requests } = client(() => ok([]));
    await api.delete('/x/1');
    expect(requests[0]).toMatchObject({ method: 'DELETE', body: undefined });
    expect(requests[0]!.headers.get('Authorization')).toBe('bearer abc');
  });
});

describe('api client: no answer', () => {
  it('a per-request timeout replaces the 50 s', async () => {
    vi.useFakeTimers();
    const { api } = client(() => new Promise<Reply>(() => {}));
    const call = api.post('/import', {}, { timeout: 120_000 });
    const failure = expect(call).rejects.toThrow('请求超时');
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS);
    expect(notify.error).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(120_000 - REQUEST_TIMEOUT_MS);
    await failure;
    expect(notify.error).toHaveBeenCalledWith('请求超时', 3);
  });

  it('an answer in time clears the timer', async () => {
    vi.useFakeTimers();
    const { api } = client(() => ok([]));
    await api.get('/x');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a network failure shows the network toast for 3 s and rejects', async () => {
    const { api } = client(() => Promise.reject(new TypeError('Failed to fetch')));
    const err = await api.get('/x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toBe('网络连接失败，请稍后重试');
    expect(notify.error).toHaveBeenCalledTimes(1);
    expect(notify.error).toHaveBeenCalledWith('网络连接失败，请稍后重试', 3);
  });

  it('a silent call that gets no answer shows no toast', async () => {
    const { api } = client(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(api.get('/x', { silent: true })).rejects.toThrow('网络连接失败，请稍后重试');
    expect(notify.error).not.toHaveBeenCalled();
  });

  it('a call the caller cancels rejects with its reason, aborts the transport and shows no toast', async () => {
    const { api, requests } = client(() => new Promise<Reply>(() => {}));
    const controller = new AbortController();
    const call = api.get('/web/portal/menu/list', { signal: controller.signal });
    controller.abort();
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
    expect(requests[0]!.signal.aborted).toBe(true);
    expect(notify.error).not.toHaveBeenCalled();
  });

  it('a call cancelled before it starts is not sent', async () => {
    const { api, requests } = client(() => ok([]));
    const controller = new AbortController();
    controller.abort();
    await expect(api.get('/x', { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(requests).toHaveLength(0);
    expect(notify.error).not.toHaveBeenCalled();
  });

  it('a token endpoint that does not answer rejects the queue with one toast', async () => {
    tokenStore.set('bearer old');
    const { api } = client((request) => {
      if (request.url === TOKEN_URL) return Promise.reject(new TypeError('Failed to fetch'));
      return { body: { code: 20301, msg: '访问令牌已过期' } };
    });
    const results = await Promise.allSettled([api.get('/a'), api.get('/b')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(notify.error).toHaveBeenCalledTimes(1);
    expect(notify.error).toHaveBeenCalledWith('登录已失效，请重新登录', 3);
  });
});

/** A stand-in for the browser's XMLHttpRequest: records what was set and answers when told. */
class FakeXhr {
  static last: FakeXhr | undefined;
  method = '';
  url = '';
  withCredentials = false;
  responseType = '';
  headers: Record<string, string> = {};
  sent: unknown;
  status = 0;
  response: unknown = null;
  aborted = false;
  upload: { onprogress: ((e: { loaded: number; total: number; lengthComputable: boolean }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    // Header names are case-insensitive (happy-dom keeps their case, browsers lower it).
    this.headers[name.toLowerCase()] = value;
  }
  getResponseHeader(name: string) {
    return name === 'content-type' ? 'application/json' : null;
  }
  send(body: unknown) {
    this.sent = body;
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  answer(status: number, text: string) {
    this.status = status;
    this.response = text;
    this.onload?.();
  }
}

describe('api client: the browser transport', () => {
  it('an upload with progress goes by XHR: credentials, headers, multipart body, progress, then the envelope', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const fetchSpy = vi.fn();
    vi.stubGlobal('fetch', fetchSpy);
    tokenStore.set('bearer abc');
    const api = createApiClient({ baseURL: BASE, tokenUrl: () => TOKEN_URL });
    const form = new FormData();
    form.append('file', new Blob(['a,b\r\n']), 'a.csv');
    const progress: { loaded: number; total?: number }[] = [];
    const call = api.post('/web-api/identity/v1/record/import', form, {
      params: { templateId: 3, mode: 'create' },
      onUploadProgress: (e) => progress.push(e),
    });
    await vi.waitFor(() => expect(FakeXhr.last?.sent).toBe(form));
    const xhr = FakeXhr.last!;
    expect(xhr).toMatchObject({
      method: 'POST',
      url: `${BASE}/web-api/identity/v1/record/import?templateId=3&mode=create`,
      withCredentials: true,
    });
    expect(xhr.headers['x-requested-with']).toBe('XMLHttpRequest');
    expect(xhr.headers['authorization']).toBe('bearer abc');
    // No Content-Type: the browser writes multipart/form-data with its boundary.
    expect(Object.keys(xhr.headers)).not.toContain('content-type');
    xhr.upload.onprogress!({ loaded: 50, total: 200, lengthComputable: true });
    xhr.upload.onprogress!({ loaded: 200, total: 0, lengthComputable: false });
    xhr.answer(200, JSON.stringify({ code: 20200, msg: '操作成功', data: [{ created: 1 }] }));
    await expect(call).resolves.toEqual({ code: 20200, msg: '操作成功', data: [{ created: 1 }] });
    expect(progress).toEqual([
      { loaded: 50, total: 200 },
      { loaded: 200, total: undefined },
    ]);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('an XHR that fails to connect is a network failure; one that times out is aborted', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const api = createApiClient({ baseURL: BASE, tokenUrl: () => TOKEN_URL });
    const failed = api.post('/upload', new FormData(), { onUploadProgress: () => {} });
    await vi.waitFor(() => expect(FakeXhr.last).toBeDefined());
    FakeXhr.last!.onerror!();
    await expect(failed).rejects.toThrow('网络连接失败，请稍后重试');

    vi.useFakeTimers();
    const slow = api.post('/upload', new FormData(), { onUploadProgress: () => {} });
    const failure = expect(slow).rejects.toThrow('请求超时');
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS);
    await failure;
    expect(FakeXhr.last!.aborted).toBe(true);
  });

  it('every other call goes by fetch with credentials, and reads a download as a Blob', async () => {
    const file = new Blob(['\uFEFF"时间"\r\n'], { type: 'text/csv' });
    const fetchSpy = vi.fn((url: string) =>
      Promise.resolve(
        url.includes('export')
          ? new Response(file, { status: 200, headers: { 'content-type': 'text/csv' } })
          : new Response(JSON.stringify({ code: 20200, msg: '操作成功', data: [1] }), { headers: { 'content-type': 'application/json' } }),
      ),
    );
    vi.stubGlobal('fetch', fetchSpy);
    const api = createApiClient({ baseURL: BASE, tokenUrl: () => TOKEN_URL });
    await expect(api.post('/x', { a: 1 })).resolves.toEqual({ code: 20200, msg: '操作成功', data: [1] });
    const [url, init] = fetchSpy.mock.calls[0]! as unknown as [string, RequestInit];
    expect(url).toBe(`${BASE}/x`);
    expect(init).toMatchObject({ method: 'POST', credentials: 'include', body: '{"a":1}' });
    expect(new Headers(init.headers).get('Content-Type')).toBe('application/json;charset=utf-8');
    expect(new Headers(init.headers).get('X-Requested-With')).toBe('XMLHttpRequest');
    expect(init.signal).toBeInstanceOf(AbortSignal);

    const download = await api.blob('/export');
    expect(download).toBeInstanceOf(Blob);
    expect(await download.text()).toBe(await file.text());
  });
});
