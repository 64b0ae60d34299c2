import { constants, createPublicKey, publicEncrypt } from 'node:crypto';
import type { AccountRow } from '@portal/shared';
import { expect } from 'vitest';
import type { TestApp } from '../../../testing/test-app.js';

export const BASE = '/web-api/console/v1';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface Answer {
  statusCode: number;
  body: string;
  headers: Record<string, string | string[] | number | undefined>;
  rawPayload: Buffer;
  json<T = { code: number; msg: string; data: unknown[] }>(): T;
}

/** Console calls of 账号管理 as one account (its bearer token), the way the web app makes them. */
export function consoleClient(t: TestApp) {
  const call = (token: string, method: Method, url: string, payload?: object): Promise<Answer> =>
    t.app.inject({
      method,
      url: `${BASE}${url}`,
      headers: { 'x-requested-with': 'XMLHttpRequest', authorization: token },
      ...(payload ? { payload } : {}),
    });

  /** The `data[0]` of a 200 answer. */
  const data = async <T>(answer: Promise<Answer>): Promise<T> => {
    const res = await answer;
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: T[] }>().data[0] as T;
  };

  const page = (token: string, query = '') =>
    data<{ total: number; rows: AccountRow[] }>(call(token, 'GET', `/account/page/list?limit=100${query ? `&${query}` : ''}`));

  /** The row of `username` in the caller's list, if listed. */
  const row = async (token: string, username: string) =>
    (await page(token, `keyword=${username}`)).rows.find((r) => r.username === username);

  const upload = (token: string, filename: string, bytes: Buffer | string, type = 'text/csv'): Promise<Answer> => {
    const boundary = '----account-import';
    return t.app.inject({
      method: 'POST',
      url: `${BASE}/account/import`,
      headers: {
        'x-requested-with': 'XMLHttpRequest',
        authorization: token,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload: Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
        ),
        Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    });
  };

  /** A password encoded as the web app's dialogs send it (RSA-OAEP SHA-256 under the server's key). */
  const encoded = async (password: string) => {
    const res = await t.app.inject({ url: '/web/portal/account/public-key' });
    const key = createPublicKey({
      key: Buffer.from(res.json<{ data: { publicKey: string }[] }>().data[0]?.publicKey ?? '', 'base64'),
      format: 'der',
      type: 'spki',
    });
    return publicEncrypt({ key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(password)).toString('base64');
  };

  /** The enterprise's groups and roles by name (as 新增's dialog offers them). */
  const options = (token: string) =>
    data<{ groups: { id: number; name: string }[]; roles: { id: number; name: string; code: string }[] }>(
      call(token, 'GET', '/org/options'),
    );

  /** The newest audit entries of an action, as the caller's 操作日志 shows them. */
  const audit = async (token: string, action: string) =>
    (
      await data<{ rows: { username: string; target: string; outcome: string; detail: string; enterpriseName: string }[] }>(
        call(token, 'GET', `/audit/page/list?action=${action}`),
      )
    ).rows;

  return { call, data, page, row, upload, encoded, options, audit };
}

/** The SMS the development outbox holds for a phone, newest first. */
export async function outbox(t: TestApp, phone: string) {
  const res = await t.app.inject({ url: `/dev/sms-outbox?phone=${phone}` });
  return res.statusCode === 200 ? res.json<{ data: { templateKey: string; params: Record<string, string> }[] }>().data : [];
}
