import { type ApiSuccess, ResponseCode, TOKEN_REFRESH_CODES } from '@portal/shared';
import axios, {
  type AxiosAdapter,
  type AxiosInstance,
  type AxiosRequestConfig,
  type AxiosResponse,
  type InternalAxiosRequestConfig,
} from 'axios';
import { notify } from './notify';
import { tokenStore } from './token';

/** Spec section 9: request timeout. */
export const REQUEST_TIMEOUT_MS = 50_000;
/** Spec section 8: error toasts stay 3 seconds. */
export const TOAST_SECONDS = 3;
export const TIMEOUT_MESSAGE = '请求超时';

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

interface PortalRequestConfig extends InternalAxiosRequestConfig {
  /** The Authorization value this request went out with, to tell whether a newer token exists. */
  sentWithToken?: string | null;
  /** Set on the replay after a token refresh: a second token failure is not retried. */
  replayed?: boolean;
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

export interface ApiClientOptions {
  baseURL: string;
  /** The central login host's token endpoint (spec section 7, token refresh). */
  tokenUrl: () => string;
  /** Tests pass an in-memory adapter; the browser uses XHR. */
  adapter?: AxiosAdapter;
}

/** Bytes (octet-stream, blob, arraybuffer) and static HTML pages are not envelopes: returned raw. */
function isRawBody(response: AxiosResponse): boolean {
  const type = String(response.headers['content-type'] ?? '');
  const rt = response.config.responseType;
  if (response.status >= 400) return false;
  return type.includes('application/octet-stream') || type.includes('text/html') || rt === 'blob' || rt === 'arraybuffer';
}

function isBlob(value: unknown): value is Blob {
  return typeof Blob !== 'undefined' && value instanceof Blob;
}

/** The JSON envelope inside an error answer's bytes, or nothing usable. */
async function bytesAsEnvelope(data: Blob | ArrayBuffer): Promise<Envelope | null> {
  try {
    const text = isBlob(data) ? await data.text() : new TextDecoder().decode(data);
    return JSON.parse(text) as Envelope;
  } catch {
    return null;
  }
}

declare module 'axios' {
  interface AxiosRequestConfig {
    /** The caller shows its own message for a failure (spec: 密码修改失败); no error toast. */
    silent?: boolean;
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
export function createApiClient(options: ApiClientOptions): AxiosInstance {
  const base: AxiosRequestConfig = {
    withCredentials: true,
    timeout: REQUEST_TIMEOUT_MS,
    headers: { 'X-Requested-With': 'XMLHttpRequest' },
    // Every status reaches the response handler: the envelope's code decides, not the HTTP status.
    validateStatus: (status) => status >= 200 && status < 600,
    ...(options.adapter ? { adapter: options.adapter } : {}),
  };
  const instance = axios.create({ ...base, baseURL: options.baseURL });
  const tokenClient = axios.create(base);
  let refreshing: Promise<string> | null = null;

  async function fetchToken(): Promise<string> {
    let body: Envelope | undefined;
    try {
      body = (await tokenClient.get<Envelope>(options.tokenUrl())).data;
    } catch {
      throw new ApiError('登录已失效，请重新登录');
    }
    const answer = Array.isArray(body?.data) ? (body.data[0] as TokenAnswer | undefined) : undefined;
    if (body?.code !== ResponseCode.Success || !answer?.access_token) {
      throw new ApiError(typeof body?.msg === 'string' && body.msg ? body.msg : '登录已失效，请重新登录', Number(body?.code) || undefined);
    }
    const token = `${answer.token_type} ${answer.access_token}`;
    tokenStore.set(token);
    return token;
  }

  async function refreshAndReplay(config: PortalRequestConfig, code: number, status: number): Promise<unknown> {
    if (config.replayed) return fail('登录已失效，请重新登录', code, status);
    const current = tokenStore.get();
    let token: string;
    if (current && current !== config.sentWithToken) {
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
    config.replayed = true;
    config.headers.set('Authorization', token);
    return instance.request(config);
  }

  instance.interceptors.request.use((config: PortalRequestConfig) => {
    const token = tokenStore.get();
    if (token && !config.replayed) config.headers.set('Authorization', token);
    config.sentWithToken = token;
    if (typeof FormData !== 'undefined' && config.data instanceof FormData) {
      // Let the browser set multipart/form-data with its boundary.
      config.headers.setContentType(false);
    } else if (!config.headers.getContentType()) {
      config.headers.setContentType('application/json;charset=utf-8');
    }
    return config;
  });

  function settle(response: AxiosResponse): unknown {
    if (isRawBody(response)) return response.data as AxiosResponse;
    const body = response.data as Envelope | null | undefined;
    if (body && typeof body === 'object' && 'rows' in body) return body as unknown as AxiosResponse;
    const code = typeof body?.code === 'number' ? body.code : undefined;
    if (code === ResponseCode.Success) return body as unknown as AxiosResponse;
    if (code !== undefined && TOKEN_REFRESH_CODES.includes(code)) {
      return refreshAndReplay(response.config as PortalRequestConfig, code, response.status) as Promise<AxiosResponse>;
    }
    const msg = typeof body?.msg === 'string' && body.msg ? body.msg : 'Error';
    return fail(msg, code, response.status, response.config.silent);
  }

  instance.interceptors.response.use(
    (response) => {
      // A file download that failed answers a JSON envelope, delivered as bytes: read it as one.
      if (response.status >= 400 && (isBlob(response.data) || response.data instanceof ArrayBuffer)) {
        return bytesAsEnvelope(response.data).then((data) => settle({ ...response, data })) as Promise<AxiosResponse>;
      }
      return settle(response) as AxiosResponse;
    },
    (error: unknown) => {
      if (axios.isCancel(error)) return Promise.reject(error);
      if (axios.isAxiosError(error) && (error.code === 'ECONNABORTED' || error.code === 'ETIMEDOUT')) {
        return fail(TIMEOUT_MESSAGE, undefined, undefined, error.config?.silent);
      }
      return fail('网络连接失败，请稍后重试', undefined, undefined, axios.isAxiosError(error) ? error.config?.silent : false);
    },
  );
  return instance;
}

/** Typed calls: the interceptors resolve with the envelope (or raw bytes, or a `rows` body). */
export interface ApiClient {
  get<T>(url: string, config?: AxiosRequestConfig): Promise<ApiSuccess<T>>;
  delete<T>(url: string, config?: AxiosRequestConfig): Promise<ApiSuccess<T>>;
  post<T>(url: string, data?: unknown, config?: AxiosRequestConfig): Promise<ApiSuccess<T>>;
  put<T>(url: string, data?: unknown, config?: AxiosRequestConfig): Promise<ApiSuccess<T>>;
  /** A static HTML page (spec section 7: `/static{path}.htm`). */
  html(url: string): Promise<string>;
  /**
   * A file download (with the token): a GET, or the `method` and `data` of `config` (a file made from
   * a request body); a refused download rejects with the server's message.
   */
  blob(url: string, config?: AxiosRequestConfig): Promise<Blob>;
  raw: AxiosInstance;
}

export function typed(instance: AxiosInstance): ApiClient {
  return {
    get: (url, config) => instance.get(url, config),
    delete: (url, config) => instance.delete(url, config),
    post: (url, data, config) => instance.post(url, data, config),
    put: (url, data, config) => instance.put(url, data, config),
    html: (url) => instance.get(url, { responseType: 'text', headers: { Accept: 'text/html' } }),
    blob: (url, config) => instance.request({ method: 'get', ...config, url, responseType: 'blob' }),
    raw: instance,
  };
}
