import { createHmac } from 'node:crypto';
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
  /** A multipart POST (a file upload). */
  upload<T>(url: string, multipart: Record<string, string | { name: string; mimeType: string; buffer: Buffer }>): Promise<T[]>;
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
    upload: (url, multipart) => data(page.request.post(url, { headers: auth, multipart }), url),
  };
}

/** A base32 key as an authenticator app reads it (RFC 4648, padding and spaces ignored). */
export function base32Decode(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const ch of text.replace(/[\s=]/g, '').toUpperCase()) bits += alphabet.indexOf(ch).toString(2).padStart(5, '0');
  const bytes: number[] = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}

/** RFC 6238 TOTP (HMAC-SHA1, 30 s, 6 digits) for the time step `step`, computed here, not by the server's library. */
export function totp(secret: Buffer, step: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac('sha1', secret).update(counter).digest();
  const offset = (mac[mac.length - 1] ?? 0) & 0x0f;
  const value = (mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return String(value).padStart(6, '0');
}

/** The current RFC 6238 time step (30 s). */
export const totpStepNow = () => Math.floor(Date.now() / 30_000);
