import fs from 'node:fs';
import path from 'node:path';
import { CERTIFICATION_FILE_MAX_BYTES, CertificationMessage } from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';
import { certificationClient, creditCode, docxText, jpeg, pdf, png } from './certification-test-client.js';

/** Every regular file under `dir`, relative to it. */
const filesUnder = (dir: string): string[] =>
  fs.existsSync(dir)
    ? fs
        .readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    : [];

describe.each(testDialects())('certification materials on %s', (dialect) => {
  let t: TestApp;
  let c: ReturnType<typeof certificationClient>;
  let owner: string;
  let ownerStaff: string;
  let operator: string;
  let reviewer: string;
  let hengyueAdmin: string;
  let ruichiAdmin: string;
  let licence: { id: number; bytes: Buffer };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = certificationClient(t);
    const created = await c.registerEnterprise('苏州材料', 'cailiao', '13912341001', { username: 'cailiao2', phone: '13912341002' });
    owner = created.token;
    ownerStaff = created.staffToken!;
    [operator, hengyueAdmin, ruichiAdmin] = await Promise.all([tokenFor(t, 'operator'), tokenFor(t, 'admin'), tokenFor(t, 'rcadmin')]);
    reviewer = await c.reviewer('shenheyuan', '13912341003');
    const bytes = png();
    licence = { id: (await c.material(owner, 'licence', '营业执照.png', bytes, 'image/png')).id, bytes };
  });
  afterAll(() => t.close());

  const send = (token: string, filename: string, bytes: Buffer, type: string, purpose = 'licence') =>
    c.upload(token, [
      { name: 'purpose', value: purpose },
      { name: 'file', filename, type, bytes },
    ]);

  it('keeps materials under PRIVATE_FILES_DIR as yyyy/mm/<uuid>.<ext>, nothing under /files', async () => {
    // The demo enterprises' seeded materials are there too: look at the one this enterprise uploaded.
    const seeded = await t.database.db.selectFrom('private_file').select('storage_key').where('id', '!=', licence.id).execute();
    const seededPaths = new Set(seeded.map((r) => path.join(...r.storage_key.split('/'))));
    const stored = filesUnder(t.config.privateFilesDir).filter((f) => !seededPaths.has(f));
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatch(/^\d{4}[/\\]\d{2}[/\\][0-9a-f-]{36}\.png$/);
    expect(filesUnder(t.config.filesDir)).toEqual([]);
    // Not under the public /files, whatever the path.
    const key = stored[0]!.split(path.sep).join('/');
    for (const url of [`/files/${key}`, `/files/../private/${key}`, `/files/%2e%2e/private/${key}`]) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).not.toBe(200);
    }
  });

  it('recognises JPG, PNG and PDF by content, whatever their names say', async () => {
    const accepted = [
      await send(owner, 'scan.jpeg', jpeg(), 'image/jpeg'),
      await send(owner, 'no-extension', pdf(), 'application/octet-stream', 'authorization'),
      await send(owner, 'photo.pdf', png(), 'application/pdf'),
    ];
    expect(accepted.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(accepted.map((r) => r.json<{ data: { mime: string; name: string }[] }>().data[0])).toMatchObject([
      { mime: 'image/jpeg', name: 'scan.jpeg' },
      { mime: 'application/pdf', name: 'no-extension.pdf' },
      // The name says what the content is.
      { mime: 'image/png', name: 'photo.pdf.png' },
    ]);
    expect(accepted.map((r) => r.json().msg)).toEqual(['文件已上传', '文件已上传', '文件已上传']);
  });

  it('refuses a renamed text file, other types and malformed uploads, keeping nothing', async () => {
    const before = filesUnder(t.config.privateFilesDir);
    const cases: [Promise<Awaited<ReturnType<typeof send>>>, string][] = [
      [send(owner, '营业执照.png', Buffer.from('这不是图片，只是一段文字。\n'.repeat(20)), 'image/png'), CertificationMessage.fileType],
      [send(owner, 'a.gif', Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'), 'image/gif'), CertificationMessage.fileType],
      [send(owner, 'a.html', Buffer.from('<html><script>alert(1)</script></html>'), 'text/html'), CertificationMessage.fileType],
      [send(owner, 'a.png', png(), 'image/png', 'logo'), '请指明材料类型：licence（营业执照）或 authorization（授权书）'],
      [send(owner, 'a.png', Buffer.alloc(0), 'image/png'), '请选择要上传的文件'],
      [c.upload(owner, [{ name: 'purpose', value: 'licence' }]), '请选择要上传的文件'],
    ];
    for (const [answer, msg] of cases) {
      const res = await answer;
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual({ code: 1, msg });
    }
    const json = await c.call(owner, 'POST', '/enterprise/certification/file', { purpose: 'licence' });
    expect(json.statusCode).toBe(400);
    expect(json.json()).toEqual({ code: 1, msg: '请以 multipart/form-data 上传一个文件' });
    expect(filesUnder(t.config.privateFilesDir)).toEqual(before);
    const failures = await c.audit(operator, 'certification.file');
    expect(failures.filter((r) => r.outcome === 'failure').map((r) => r.detail)).toContain(CertificationMessage.fileType);
  });

  it('accepts a file of exactly 10 MB and refuses one byte more with 413, keeping nothing', async () => {
    const limit = await send(owner, 'big.pdf', pdf(CERTIFICATION_FILE_MAX_BYTES), 'application/pdf');
    expect(limit.statusCode, limit.body).toBe(200);
    const before = filesUnder(t.config.privateFilesDir);
    const over = await send(owner, 'bigger.pdf', pdf(CERTIFICATION_FILE_MAX_BYTES + 1), 'application/pdf');
    expect(over.statusCode).toBe(413);
    expect(over.json()).toEqual({ code: 1, msg: CertificationMessage.fileTooLarge });
    expect(filesUnder(t.config.privateFilesDir)).toEqual(before);
  });

  it('keeps no file when its row cannot be committed', async () => {
    const before = filesUnder(t.config.privateFilesDir);
    // The audit log's table is out of reach: the upload's audit row, and with it the upload, fails.
    await t.database.db.schema.alterTable('audit_log').renameTo('audit_log_away').execute();
    try {
      const res = await send(owner, 'a.png', png(), 'image/png');
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ code: 1, msg: '服务器内部错误，请稍后重试' });
    } finally {
      await t.database.db.schema.alterTable('audit_log_away').renameTo('audit_log').execute();
    }
    expect(filesUnder(t.config.privateFilesDir)).toEqual(before);
  });

  it('takes uploads only from holders of enterprise:manage', async () => {
    const res = await send(ownerStaff, 'a.png', png(), 'image/png');
    expect(res.statusCode).toBe(403);
    const noToken = await t.app.inject({
      method: 'POST',
      url: '/web-api/console/v1/enterprise/certification/file',
      headers: { 'x-requested-with': 'XMLHttpRequest', 'content-type': 'multipart/form-data; boundary=x' },
      payload: '--x--\r\n',
    });
    expect(noToken.statusCode).toBe(401);
  });

  it("serves a material to the enterprise's administrators and to reviewers, 404 to everyone else", async () => {
    for (const [who, token] of [
      ['owner', owner],
      ['operator', operator],
      ['reviewer', reviewer],
    ] as const) {
      const res = await c.file(token, licence.id);
      expect(res.statusCode, who).toBe(200);
      expect(res.rawPayload.equals(licence.bytes), who).toBe(true);
      expect(res.headers).toMatchObject({
        'content-type': 'image/png',
        'content-length': String(licence.bytes.length),
        'cache-control': 'private, no-store',
        'x-content-type-options': 'nosniff',
        'content-disposition': `inline; filename="????.png"; filename*=UTF-8''${encodeURIComponent('营业执照.png')}`,
      });
      expect(res.headers['content-security-policy']).toContain('sandbox');
    }
    for (const [who, token] of [
      ['staff of the same enterprise', ownerStaff],
      ["another enterprise's administrator", ruichiAdmin],
      ['a certified enterprise’s administrator', hengyueAdmin],
    ] as const) {
      const res = await c.file(token, licence.id);
      expect(res.statusCode, who).toBe(404);
      expect(res.json(), who).toEqual({ code: 1, msg: '文件不存在' });
    }
    const unknown = await c.file(owner, 999_999);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ code: 1, msg: '文件不存在' });
    const anonymous = await c.file(undefined, licence.id);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ code: 20300, msg: '缺少访问令牌' });
    expect((await c.file(owner, 'abc')).statusCode).toBe(400);
  });

  it('the authorisation letter template is a .docx with the enterprise filled in when known', async () => {
    const blank = await c.call(owner, 'GET', '/enterprise/certification/authorization-template');
    expect(blank.statusCode).toBe(200);
    expect(blank.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(blank.headers['content-disposition']).toBe(
      `attachment; filename=authorization-letter.docx; filename*=UTF-8''${encodeURIComponent('授权委托书.docx')}`,
    );
    const blankText = docxText(blank.rawPayload);
    expect(blankText).toContain('授权委托书');
    expect(blankText).toContain('致：Engineering e+ 工业互联网平台');
    expect(blankText).toContain('委托单位（全称）：苏州材料');
    // No credit code yet: a blank to fill in by hand.
    expect(blankText).toMatch(/统一社会信用代码：\u3000+法定代表人：\u3000+受托人/);

    const code = creditCode('91320500MA1K2L3M4');
    const submitted = await c.submit(owner, {
      enterpriseName: '苏州材料科技有限公司',
      creditCode: code,
      legalRepresentative: '赵六',
      applicantRole: 'legal',
      licenceFileId: licence.id,
      authorizationFileId: null,
      declaration: true,
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    const filled = docxText((await c.call(owner, 'GET', '/enterprise/certification/authorization-template')).rawPayload);
    expect(filled).toContain('委托单位（全称）：苏州材料科技有限公司');
    expect(filled).toContain(`统一社会信用代码：${code}`);
    expect(filled).toContain('法定代表人：赵六');

    expect((await c.call(ownerStaff, 'GET', '/enterprise/certification/authorization-template')).statusCode).toBe(403);
  });
});
