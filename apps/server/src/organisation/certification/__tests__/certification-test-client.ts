import { deflateSync, inflateRawSync, crc32 } from 'node:zlib';
import {
  type CertificationReviewDetail,
  type CertificationReviewRow,
  type CertificationState,
  type CertificationSubmitBody,
  creditCodeCheckChar,
  type PrivateFileRef,
  Role,
} from '@portal/shared';
import { expect } from 'vitest';
import { type TestApp, tokenFor } from '../../../testing/test-app.js';

export const BASE = '/web-api/console/v1';
const XHR = { 'x-requested-with': 'XMLHttpRequest' };

export interface Answer {
  statusCode: number;
  body: string;
  headers: Record<string, string | string[] | number | undefined>;
  rawPayload: Buffer;
  json<T = { code: number; msg: string; data: unknown[] }>(): T;
}

/** A credit code with a correct check character (GB 32100-2015) from its first 17 characters. */
export const creditCode = (first17: string) => `${first17}${creditCodeCheckChar(first17)}`;

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real 2×2 PNG (RFC 2083): signature, IHDR, IDAT, IEND. */
export function png(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(2, 0);
  header.writeUInt32BE(2, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const rows = Buffer.from([0, 255, 0, 0, 0, 0, 255, 0, 0, 255, 0, 0, 0, 0, 255]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A PDF of `size` bytes (a one-page document padded with a comment). */
export function pdf(size = 600): Buffer {
  const head = '%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [] /Count 0>> endobj\n';
  const tail = 'trailer <</Root 1 0 R>>\n%%EOF\n';
  const padding = Math.max(0, size - head.length - tail.length - 2);
  return Buffer.concat([Buffer.from(head), Buffer.from(`%${'x'.repeat(padding)}\n`), Buffer.from(tail)]);
}

/** A JPEG's first bytes (SOI, JFIF APP0): what content detection looks at. */
export function jpeg(): Buffer {
  return Buffer.concat([
    Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]),
    Buffer.alloc(200, 0x20),
    Buffer.from([0xff, 0xd9]),
  ]);
}

export interface UploadPart {
  name: string;
  value?: string;
  filename?: string;
  type?: string;
  bytes?: Buffer;
}

export function multipart(parts: UploadPart[]): { boundary: string; body: Buffer } {
  const boundary = '----certification-material';
  const pieces = parts.flatMap((p) => {
    const disposition =
      p.filename === undefined
        ? `Content-Disposition: form-data; name="${p.name}"\r\n\r\n`
        : `Content-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\nContent-Type: ${p.type ?? 'application/octet-stream'}\r\n\r\n`;
    return [Buffer.from(`--${boundary}\r\n${disposition}`), p.bytes ?? Buffer.from(p.value ?? ''), Buffer.from('\r\n')];
  });
  return { boundary, body: Buffer.concat([...pieces, Buffer.from(`--${boundary}--\r\n`)]) };
}

/** The entry `name` of a zip file (a .docx), read through its central directory. */
export function zipEntry(zip: Buffer, name: string): Buffer | undefined {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) return undefined;
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  for (let i = 0; i < count; i++) {
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const skip = nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    if (zip.toString('utf8', at + 46, at + 46 + nameLength) === name) {
      const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
      const data = zip.subarray(start, start + size);
      return method === 8 ? inflateRawSync(data) : data;
    }
    at += 46 + skip;
  }
  return undefined;
}

/** The visible text of a .docx's body. */
export function docxText(docx: Buffer): string {
  const xml = zipEntry(docx, 'word/document.xml')?.toString('utf8') ?? '';
  return [...xml.matchAll(/<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>/g)].map((m) => m[1]).join('');
}

/** 企业认证 and 认证审核 as the console calls them, one account (its bearer token) at a time. */
export function certificationClient(t: TestApp) {
  const call = (token: string | undefined, method: 'GET' | 'POST', url: string, payload?: object): Promise<Answer> =>
    t.app.inject({
      method,
      url: `${BASE}${url}`,
      headers: { ...XHR, ...(token ? { authorization: token } : {}) },
      ...(payload ? { payload } : {}),
    });

  /** The `data[0]` of a 200 answer. */
  const data = async <T>(answer: Promise<Answer>): Promise<T> => {
    const res = await answer;
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: T[] }>().data[0] as T;
  };

  const upload = (token: string, parts: UploadPart[]): Promise<Answer> => {
    const { boundary, body } = multipart(parts);
    return t.app.inject({
      method: 'POST',
      url: `${BASE}/enterprise/certification/file`,
      headers: { ...XHR, authorization: token, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: body,
    });
  };

  /** Uploads a material (purpose first, then the file, as the console sends them) and answers its reference. */
  const material = (token: string, purpose: 'licence' | 'authorization', filename: string, bytes: Buffer, type: string) =>
    data<PrivateFileRef>(
      upload(token, [
        { name: 'purpose', value: purpose },
        { name: 'file', filename, type, bytes },
      ]),
    );

  const state = (token: string) => data<CertificationState>(call(token, 'GET', '/enterprise/certification'));
  const submit = (token: string, body: Partial<CertificationSubmitBody>) => call(token, 'POST', '/enterprise/certification', body);
  const queue = (token: string, query = '') =>
    data<{ total: number; rows: CertificationReviewRow[] }>(call(token, 'GET', `/certification/page/list?limit=100${query}`));
  const detail = (token: string, id: number) => data<CertificationReviewDetail>(call(token, 'GET', `/certification/${id}`));
  const decide = (token: string, id: number, body: object) => call(token, 'POST', `/certification/${id}/decision`, body);
  const file = (token: string | undefined, id: number | string) => call(token, 'GET', `/enterprise/certification/file/${id}`);

  /** SMS the development sender kept for `phone`, newest first. */
  const outbox = async (phone: string) => {
    const res = await t.app.inject({ url: `/dev/sms-outbox?phone=${phone}` });
    return res.statusCode === 200 ? (res.json().data as { templateKey: string; params: Record<string, string> }[]) : [];
  };

  /** The newest audit entries of an action, as a platform operator's 操作日志 shows them. */
  const audit = async (operatorToken: string, action: string) =>
    (
      await data<{ rows: { action: string; outcome: string; target: string; detail: string; username: string }[] }>(
        call(operatorToken, 'GET', `/audit/page/list?action=${action}&limit=100`),
      )
    ).rows;

  /**
   * A newly registered enterprise (未认证) administered by `username`, and `staff` (if named) who
   * joined it by invitation; answers their tokens and ids.
   */
  const registerEnterprise = async (
    enterpriseName: string,
    username: string,
    phone: string,
    staff?: { username: string; phone: string },
  ) => {
    const created = await t.app.accountRepository.register(
      { username, email: `${username}@example.cn`, enterpriseName, phone, passwordHash: 'x' },
      async () => undefined,
    );
    const enterpriseId = created.enterpriseId!;
    let staffToken: string | undefined;
    if (staff) {
      await t.app.accountRepository.register(
        {
          username: staff.username,
          email: `${staff.username}@example.cn`,
          enterpriseName: '',
          phone: staff.phone,
          passwordHash: 'x',
          invitedTo: enterpriseId,
        },
        async () => undefined,
      );
      staffToken = await tokenFor(t, staff.username);
    }
    return { enterpriseId, accountId: created.accountId, token: await tokenFor(t, username), staffToken };
  };

  /** An account of no enterprise holding only 认证审核员. */
  const reviewer = async (username: string, phone: string) => {
    const { db } = t.database;
    const now = new Date().toISOString();
    const { id } = await db
      .insertInto('account')
      .values({
        username,
        name: '审核员',
        phone,
        email: '',
        number: '',
        password_hash: 'x',
        enterprise_id: null,
        status: 'active',
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const role = await db.selectFrom('role').select('id').where('code', '=', Role.CertificationReviewer).executeTakeFirstOrThrow();
    await db.insertInto('account_role').values({ account_id: id, role_id: role.id }).execute();
    return tokenFor(t, username);
  };

  return { call, data, upload, material, state, submit, queue, detail, decide, file, outbox, audit, registerEnterprise, reviewer };
}
