/** How far an upload has got; `total` is unknown when the browser cannot tell the body's length. */
export interface UploadProgress {
  loaded: number;
  total?: number;
}

/** What the API client reads an answer as: JSON (parsed by the client), text, or a file. */
export type ResponseKind = 'json' | 'text' | 'blob';

/** One call as it goes on the wire, built by the API client. */
export interface TransportRequest {
  /** Upper case, as fetch expects (it normalises only some names). */
  method: string;
  /** The full address with its query string. */
  url: string;
  /** The caller's query values, already in `url`: kept so a fake server in tests sees what a page asked for. */
  params?: object;
  headers: Headers;
  body?: string | FormData;
  credentials: RequestCredentials;
  responseType: ResponseKind;
  /** Aborted on the client's timeout and on the caller's own cancel. */
  signal: AbortSignal;
  onUploadProgress?: (progress: UploadProgress) => void;
}

/** An answer of any status: the API client decides from the envelope, not from the status. */
export interface TransportAnswer {
  status: number;
  contentType: string;
  /** Text for `json` and `text` calls, a Blob for `blob` calls. */
  body: string | Blob;
}

/** Sends a call and answers it; rejects only when no answer arrived (network down, aborted). */
export type Transport = (request: TransportRequest) => Promise<TransportAnswer>;

async function fetchTransport(request: TransportRequest): Promise<TransportAnswer> {
  const { method, url, headers, body, credentials, signal } = request;
  const response = await fetch(url, { method, headers, body, credentials, signal });
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    body: request.responseType === 'blob' ? await response.blob() : await response.text(),
  };
}

/** XHR for uploads whose progress is shown: fetch has no upload progress. */
export function xhrTransport(request: TransportRequest): Promise<TransportAnswer> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(request.method, request.url);
    xhr.withCredentials = request.credentials === 'include';
    xhr.responseType = request.responseType === 'blob' ? 'blob' : 'text';
    request.headers.forEach((value, name) => xhr.setRequestHeader(name, value));
    const report = request.onUploadProgress;
    if (report) xhr.upload.onprogress = (e) => report({ loaded: e.loaded, total: e.lengthComputable ? e.total : undefined });
    xhr.onload = () =>
      resolve({ status: xhr.status, contentType: xhr.getResponseHeader('content-type') ?? '', body: xhr.response as string | Blob });
    xhr.onerror = () => reject(new TypeError('network error'));
    xhr.onabort = () => reject(new DOMException('aborted', 'AbortError'));
    request.signal.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(request.body ?? null);
  });
}

/** The browser's transport: fetch, or XHR when the caller follows the upload's progress. */
export const browserTransport: Transport = (request) => (request.onUploadProgress ? xhrTransport(request) : fetchTransport(request));
