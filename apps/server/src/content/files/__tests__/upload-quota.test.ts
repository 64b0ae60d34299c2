import fs from 'node:fs';
import path from 'node:path';
import { Role } from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';

const KB = 1024;
/** A PNG signature followed by `size` bytes in all: uploads are recognised by their first bytes. */
const png = (size: number) => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(size - 8, 0x2a)]);

describe.each(testDialects())('per-enterprise upload quota (UPLOAD_QUOTA_MB) on %s', (dialect) => {
  let t: TestApp;
  let operator: string;
  let otherEnterprise: string;
  let noEnterprise: string;
  beforeAll(async () => {
    t = await createTestApp(dialect, { UPLOAD_QUOTA_MB: '1' });
    const { db } = t.database;
    // Two more platform operators: one of another enterprise, one of none.
    const role = await db.selectFrom('role').select('id').where('code', '=', Role.PlatformOperator).executeTakeFirstOrThrow();
    const enterprise = await db
      .selectFrom('enterprise')
      .select('id')
      .where('name', '=', '徐州恒岳重工机械有限公司')
      .executeTakeFirstOrThrow();
    const template = await db.selectFrom('account').selectAll().where('username', '=', 'operator').executeTakeFirstOrThrow();
    for (const [username, phone, enterpriseId] of [
      ['operator2', '13800000091', enterprise.id],
      ['operator3', '13800000092', null],
    ] as const) {
      const { id: _id, ...rest } = template;
      const { id } = await db
        .insertInto('account')
        .values({ ...rest, username, phone, number: username, enterprise_id: enterpriseId })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db.insertInto('account_role').values({ account_id: id, role_id: role.id }).execute();
    }
    [operator, otherEnterprise, noEnterprise] = await Promise.all([
      tokenFor(t, 'operator'),
      tokenFor(t, 'operator2'),
      tokenFor(t, 'operator3'),
    ]);
  });
  afterAll(() => t.close());

  const upload = (token: string, bytes: Buffer) => {
    const boundary = '----upload-quota';
    return t.app.inject({
      method: 'POST',
      url: '/web-api/files/v1/upload',
      headers: {
        'x-requested-with': 'XMLHttpRequest',
        authorization: token,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload: Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`),
        bytes,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    });
  };
  const storedFiles = () => {
    const root = path.join(t.config.filesDir, 'uploads');
    if (!fs.existsSync(root)) return 0;
    return fs.readdirSync(root, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length;
  };
  const FULL = { code: 1, msg: '上传空间已用完：企业上传文件上限为 1 MB' };

  it("refuses an upload that would take its enterprise's files over the quota, and keeps nothing of it", async () => {
    expect((await upload(operator, png(400 * KB))).statusCode).toBe(200);
    expect((await upload(operator, png(400 * KB))).statusCode).toBe(200);
    expect(storedFiles()).toBe(2);

    const refused = await upload(operator, png(400 * KB));
    expect(refused.statusCode).toBe(413);
    expect(refused.json()).toEqual(FULL);
    expect(storedFiles()).toBe(2);
    // The quota is a total: what still fits is accepted, and then nothing more.
    expect((await upload(operator, png(200 * KB))).statusCode).toBe(200);
    expect((await upload(operator, png(100 * KB))).json()).toEqual(FULL);
    expect(storedFiles()).toBe(3);

    // Another enterprise has its own quota.
    const other = await upload(otherEnterprise, png(400 * KB));
    expect(other.statusCode, other.body).toBe(200);
    expect(storedFiles()).toBe(4);
  });

  it('holds under concurrent uploads of one enterprise', async () => {
    const answers = await Promise.all(Array.from({ length: 5 }, () => upload(otherEnterprise, png(250 * KB))));
    // 400 KB already used: two more of 250 KB fit in 1 MB, the others do not.
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 413, 413, 413]);
    expect(storedFiles()).toBe(6);
  });

  it('counts the uploads of accounts without an enterprise in one quota of their own', async () => {
    expect((await upload(noEnterprise, png(600 * KB))).statusCode).toBe(200);
    expect((await upload(noEnterprise, png(600 * KB))).json()).toEqual(FULL);
    expect(storedFiles()).toBe(7);
  });
});
