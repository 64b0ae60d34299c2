import { type ApiSuccess, ResponseCode, TOKEN_REFRESH_CODES } from '@portal/shared';
import { type ResponseKind, type Transport, type TransportAnswer, type UploadProgress, browserTransport } from './http-transport';
import { notify } from './notify';
import { tokenStore } from './token';

/** Spec section 9: request timeout. */
export const REQUEST_TIMEOUT_MS = 50_000;
/** Spec section 8: error toasts stay 3 seconds. */
export const TOAST_SECONDS = 3;
export const TIMEOUT_MESSAGE = '请求超时';
export const NETWORK_MESSAGE = '网络连接失败，请稍后重试';
const LOGIN_EXPIRED = '登录已失效，请重新登录';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly code?: number,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface RequestOptions {
  /**
   * Query values: strings, numbers and booleans; null and undefined are left out. Arrays (`key[]=`) and
   * Dates (ISO) are written as axios wrote them, the format the server was built against.
   */
  params?: object;
  /** Milliseconds before the call fails with 请求超时; REQUEST_TIMEOUT_MS unless a caller needs longer. */
  timeout?: number;
  /** The caller shows its own message for a failure (spec: 密码修改失败); no error toast. */
  silent?: boolean;
  /** The caller's cancel (React Query's): the call rejects without a toast. */
  signal?: AbortSignal;
  /** Upload progress; the call then goes by XHR, since fetch reports none. */
  onUploadProgress?: (progress: UploadProgress) => void;
}

export interface BlobOptions extends RequestOptions {
  method?: 'get' | 'post' | 'put' | 'delete';
  data?: unknown;
}

/** Typed calls: each resolves with the envelope (or raw bytes, or a `rows` body). */
export interface ApiClient {
  get<T>(url: string, options?: RequestOptions): Promise<ApiSuccess<T>>;
  delete<T>(url: string, options?: RequestOptions): Promise<ApiSuccess<T>>;
  post<T>(url: string, data?: unknown, options?: RequestOptions): Promise<ApiSuccess<T>>;
  put<T>(url: string, data?: unknown, options?: RequestOptions): Promise<ApiSuccess<T>>;
  /** A static HTML page (spec section 7: `/static{path}.htm`). */
  html(url: string): Promise<string>;
  /**
   * A file download (with the token): a GET, or the `method` and `data` of `options` (a file made from
   * a request body); a refused download rejects with the server's message.
   */
  blob(url: string, options?: BlobOptions): Promise<Blob>;
}

export interface ApiClientOptions {
  baseURL: string;
  /** The central login host's token endpoint (spec section 7, token refresh). */
  tokenUrl: () => string;
  /** The server renderer answers in-process and tests in memory; the browser uses fetch (XHR for upload progress). */
  transport?: Transport;
  /**
   * The login session is over: the token endpoint refused it (ended elsewhere by 强制下线, 停用 or
   * 重置密码, or expired). Called once per refresh; the waiting calls still reject.
   */
  onSessionEnded?: () => void;
}

interface Envelope {
  code?: unknown;
  msg?: unknown;
  data?: unknown;
}

interface TokenAnswer {
  token_type: string;
  access_token: string;
}

/** One call as a caller made it; a replay after a token refresh sends it again. */
interface Call {
  method: string;
  url: string;
  data?: unknown;
  responseType: ResponseKind;
  accept?: string;
  options: RequestOptions;
}

/** Why no answer arrived: the two failures the error catalogue names (spec section 8). */
class NoAnswer {
  constructor(readonly timedOut: boolean) {}
}

/** axios's query encoding (its `buildURL`): `:`, `$` and `,` stay readable and a space is `+`. */
function encodeQuery(value: string): string {
  return encodeURIComponent(value).replace(/%3A/g, ':').replace(/%24/g, '$').replace(/%2C/g, ',').replace(/%20/g, '+');
}

function queryValue(value: unknown): string {
  return value instanceof Date ? value.toISOString() : String(value);
}

/** The query string as axios serialised `params`: null and undefined left out, arrays as `key[]=`. */
export function queryString(params: object): string {
  const pairs: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    const values: unknown[] = Array.isArray(value) ? value : [value];
    const name = Array.isArray(value) ? `${key}[]` : key;
    for (const v of values) if (v !== undefined && v !== null) pairs.push(`${encodeQuery(name)}=${encodeQuery(queryValue(v))}`);
  }
  return pairs.join('&');
}

/** A relative path joined to the base as axios did (one slash between); an absolute URL is used as it is. */
function fullUrl(baseURL: string, url: string, params?: object): string {
  const joined = baseURL && !/^([a-z][a-z\d+\-.]*:)?\/\//i.test(url) ? `${baseURL.replace(/\/+$/, '')}/${url.replace(/^\/+/, '')}` : url;
  const query = params ? queryString(params) : '';
  return query ? `${joined}${joined.includes('?') ? '&' : '?'}${query}` : joined;
}

function isFormData(value: unknown): value is FormData {
  return typeof FormData !== 'undefined' && value instanceof FormData;
}

function isBlob(value: unknown): value is Blob {
  return typeof Blob !== 'undefined' && value instanceof Blob;
}

/** JSON bodies as axios sent them: a string that already is JSON goes as it is, anything else is stringified. */
function encodeBody(data: unknown): string | FormData | undefined {
  if (data === undefined || isFormData(data)) return data;
  if (typeof data === 'string') {
    try {
      JSON.parse(data);
      return data.trim();
    } catch {
      // Not JSON: sent as a JSON string below.
    }
  }
  return JSON.stringify(data);
}

/** A JSON answer's text parsed; text that is not JSON (or empty) stays text, as axios left it. */
function parseJson(body: string | Blob): unknown {
  if (typeof body !== 'string' || !body) return body;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
}

/** Bytes (octet-stream, blob) and static HTML pages are not envelopes: returned raw. */
function isRawBody(answer: TransportAnswer, responseType: ResponseKind): boolean {
  if (answer.status >= 400) return false;
  return answer.contentType.includes('application/octet-stream') || answer.contentType.includes('text/html') || responseType === 'blob';
}

/** The JSON envelope inside an error answer's bytes, or nothing usable. */
async function bytesAsEnvelope(data: Blob): Promise<Envelope | null> {
  try {
    return JSON.parse(await data.text()) as Envelope;
  } catch {
    return null;
  }
}

function fail(message: string, code?: number, status?: number, silent = false): Promise<never> {
  if (!silent) notify.error(message, TOAST_SECONDS);
  return Promise.reject(new ApiError(message, code, status));
}

/**
 * The one HTTP client (spec sections 7 and 8): credentials and X-Requested-With on every call,
 * JSON or multipart bodies, 50 s timeout, the error catalogue, and the token refresh queue: any
 * number of concurrent 20300/20301/20302 answers share ONE token request, then all are replayed.
 */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const transport = options.transport ?? browserTransport;
  let refreshing: Promise<string> | null = null;

  /** Every status is an answer; rejects with NoAnswer on a timeout or a network failure, with the reason on the caller's cancel. */
  function send(call: Call, url: string, headers: Headers, body: string | FormData | undefined): Promise<TransportAnswer> {
    const { signal, timeout = REQUEST_TIMEOUT_MS, onUploadProgress } = call.options;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const controller = new AbortController();
    return new Promise<TransportAnswer>((resolve, reject) => {
      const stop = (reason: unknown) => {
        reject(reason);
        controller.abort();
      };
      const cancel = () => stop(signal?.reason);
      // 0 means no limit, as with axios.
      const timer = timeout > 0 ? setTimeout(() => stop(new NoAnswer(true)), timeout) : undefined;
      signal?.addEventListener('abort', cancel, { once: true });
      transport({
        method: call.method,
        url,
        params: call.options.params,
        headers,
        body,
        credentials: 'include',
        responseType: call.responseType,
        signal: controller.signal,
        onUploadProgress,
      })
        .then(resolve, () => reject(new NoAnswer(false)))
        .finally(() => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', cancel);
        });
    });
  }

  function baseHeaders(accept = 'application/json, text/plain, */*'): Headers {
    return new Headers({ Accept: accept, 'X-Requested-With': 'XMLHttpRequest' });
  }

  async function fetchToken(): Promise<string> {
    let reply: TransportAnswer;
    try {
      // The token endpoint is a plain GET on the login host: no Authorization, no body.
      const call: Call = { method: 'GET', url: options.tokenUrl(), responseType: 'json', options: {} };
      reply = await send(call, call.url, baseHeaders(), undefined);
    } catch {
      // No answer (network, timeout): the session may well be alive, so nobody is sent to log in.
      throw new ApiError(LOGIN_EXPIRED);
    }
    const body = parseJson(reply.body) as Envelope | undefined;
    const answer = Array.isArray(body?.data) ? (body.data[0] as TokenAnswer | undefined) : undefined;
    if (body?.code !== ResponseCode.Success || !answer?.access_token) {
      // 401: the login host knows no session for this browser any more; a server error is not that.
      if (reply.status === 401) options.onSessionEnded?.();
      throw new ApiError(typeof body?.msg === 'string' && body.msg ? body.msg : LOGIN_EXPIRED, Number(body?.code) || undefined);
    }
    const token = `${answer.token_type} ${answer.access_token}`;
    tokenStore.set(token);
    return token;
  }

  async function refreshAndReplay(call: Call, sentWithToken: string | null): Promise<unknown> {
    const current = tokenStore.get();
    let token: string;
    if (current && current !== sentWithToken) {
      // Another request already refreshed the token after this one went out.
      token = current;
    } else {
      refreshing ??= fetchToken()
        .catch((err: unknown) => {
          // One toast for the whole queue; every queued request rejects with the same error.
          notify.error(err instanceof Error ? err.message : 'Error', TOAST_SECONDS);
          throw err;
        })
        .finally(() => {
          refreshing = null;
        });
      token = await refreshing;
    }
    return request(call, token);
  }

  /** Sends a call and settles it by the envelope; `replayToken` marks the one replay after a token refresh. */
  async function request(call: Call, replayToken?: string): Promise<unknown> {
    const { silent } = call.options;
    const sentWithToken = tokenStore.get();
    const headers = baseHeaders(call.accept);
    const authorization = replayToken ?? sentWithToken;
    if (authorization) headers.set('Authorization', authorization);
    const body = encodeBody(call.data);
    // FormData: the browser sets multipart/form-data with its boundary.
    if (typeof body === 'string') headers.set('Content-Type', 'application/json;charset=utf-8');

    let answer: TransportAnswer;
    try {
      answer = await send(call, fullUrl(options.baseURL, call.url, call.options.params), headers, body);
    } catch (err: unknown) {
      if (!(err instanceof NoAnswer)) throw err; // the caller cancelled: no toast
      return fail(err.timedOut ? TIMEOUT_MESSAGE : NETWORK_MESSAGE, undefined, undefined, silent);
    }

    let data = call.responseType === 'json' ? parseJson(answer.body) : answer.body;
    if (answer.status >= 400 && isBlob(data)) {
      // A file download that failed answers a JSON envelope, delivered as bytes: read it as one.
      data = await bytesAsEnvelope(data);
    } else if (isRawBody(answer, call.responseType)) {
      return data;
    }
    const envelope = data as Envelope | null | undefined;
    if (envelope && typeof envelope === 'object' && 'rows' in envelope) return envelope;
    const code = typeof envelope?.code === 'number' ? envelope.code : undefined;
    if (code === ResponseCode.Success) return envelope;
    if (code !== undefined && TOKEN_REFRESH_CODES.includes(code)) {
      // A second token failure after the replay is not retried.
      if (replayToken !== undefined) return fail(LOGIN_EXPIRED, code, answer.status);
      return refreshAndReplay(call, sentWithToken);
    }
    const msg = typeof envelope?.msg === 'string' && envelope.msg ? envelope.msg : 'Error';
    // 请先验证身份: the caller opens 验证身份 (components/reauth-dialog) instead of a toast.
    return fail(msg, code, answer.status, silent || code === ResponseCode.ReauthRequired);
  }

  // The envelope's shape is the server's contract (spec section 7): typed by the caller, not checked here.
  const typed = <R>(call: Call) => request(call) as Promise<R>;
  return {
    get: (url, opts = {}) => typed({ method: 'GET', url, responseType: 'json', options: opts }),
    delete: (url, opts = {}) => typed({ method: 'DELETE', url, responseType: 'json', options: opts }),
    post: (url, data, opts = {}) => typed({ method: 'POST', url, data, responseType: 'json', options: opts }),
    put: (url, data, opts = {}) => typed({ method: 'PUT', url, data, responseType: 'json', options: opts }),
    html: (url) => typed({ method: 'GET', url, responseType: 'text', accept: 'text/html', options: {} }),
    blob: (url, { method = 'get', data, ...opts } = {}) =>
      typed({ method: method.toUpperCase(), url, data, responseType: 'blob', options: opts }),
  };
}
