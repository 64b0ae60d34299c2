import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type EnterpriseProfile, EnterpriseRules, type PortalMenuEntry, type PortalRouter, creditCodeCheckChar } from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../platform/config.js';
import { DEMO_PASSWORD, seedAccounts, seedOrganisation } from '../../../seed/accounts-seed.js';
import { DEMO_CERTIFICATIONS, PENDING_ENTERPRISE } from '../../../seed/certification-data.js';
import { seedDemoData } from '../../../seed/index.js';
import { createPortalServer } from '../../../server.js';
import { createTestApp, createTestDatabase, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';
import { listen, TestBrowser } from '../../../testing/test-browser.js';

const PLATFORM = 'Engineering e+ 平台运营中心';
const demo = (name: string) => DEMO_CERTIFICATIONS.find((d) => d.enterprise === name)!;
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff]);
const PDF = Buffer.from('%PDF-');

describe.each(testDialects())('demo data of 企业信息 and 企业认证 on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp(dialect, { LOGIN_ATTEMPTS_PER_MINUTE: '1000' });
    base = await listen(t.app);
  });
  afterAll(() => t.close());

  const profileOf = async (username: string) => {
    const res = await t.app.inject({
      url: '/web-api/console/v1/enterprise/profile',
      headers: { authorization: await tokenFor(t, username) },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data[0] as EnterpriseProfile;
  };
  const menusOf = async (username: string) => {
    const browser = new TestBrowser(base);
    await browser.portalLogin(username, DEMO_PASSWORD);
    const { body } = await browser.json<{ data: PortalMenuEntry[] }>('/web/portal/menu/list');
    return body.data[0]!;
  };
  const paths = (routers: PortalRouter[]): string[] => routers.flatMap((r) => [r.path, ...paths(r.children)]);
  /** The applications of an enterprise with the usernames of applicant and reviewer, and their files. */
  const applicationsOf = (enterprise: string) =>
    t.database.db
      .selectFrom('certification_application as a')
      .innerJoin('enterprise as e', 'e.id', 'a.enterprise_id')
      .leftJoin('account as applicant', 'applicant.id', 'a.applicant_id')
      .leftJoin('account as reviewer', 'reviewer.id', 'a.reviewer_id')
      .select([
        'a.status',
        'a.enterprise_name',
        'a.credit_code',
        'a.legal_representative',
        'a.applicant_role',
        'a.licence_file_id',
        'a.authorization_file_id',
        'a.submitted_at',
        'a.decided_at',
        'e.certified_at',
        'applicant.username as applicant',
        'reviewer.username as reviewer',
      ])
      .where('e.name', '=', enterprise)
      .execute();
  const privateFile = (id: number | null) =>
    t.database.db
      .selectFrom('private_file')
      .innerJoin('enterprise', 'enterprise.id', 'private_file.enterprise_id')
      .select(['private_file.purpose', 'private_file.storage_key', 'private_file.mime', 'private_file.bytes', 'enterprise.name'])
      .where('private_file.id', '=', id ?? 0)
      .executeTakeFirstOrThrow();
  /** A stored material: where the private files live, its content as declared, never served under /files. */
  const expectStored = async (id: number | null, enterprise: string, purpose: string, mime: string, magic: Buffer) => {
    const file = await privateFile(id);
    expect(file).toMatchObject({ name: enterprise, purpose, mime });
    expect(file.storage_key).toMatch(/^\d{4}\/\d\d\/[0-9a-f-]{36}\.(png|jpg|pdf)$/);
    const bytes = fs.readFileSync(path.join(t.config.privateFilesDir, file.storage_key));
    expect(bytes.length).toBe(file.bytes);
    expect(bytes.length).toBeLessThan(300 * 1024);
    expect(bytes.subarray(0, magic.length).equals(magic), file.storage_key).toBe(true);
    expect(fs.existsSync(path.join(t.config.filesDir, file.storage_key))).toBe(false);
    expect((await t.app.inject({ url: `/files/${file.storage_key}` })).statusCode).toBe(404);
  };

  it('certifies the demo enterprises with complete profiles, each through one approved application', async () => {
    for (const [username, enterprise, applicant, role, reviewer] of [
      ['admin', '徐州恒岳重工机械有限公司', 'admin', 'agent', 'operator'],
      ['rcadmin', '常州瑞驰液压科技有限公司', 'rcadmin', 'legal', 'operator'],
      ['operator', PLATFORM, 'operator', 'agent', 'reviewer'],
    ] as const) {
      const facts = demo(enterprise);
      const profile = await profileOf(username);
      expect(profile).toMatchObject({
        name: enterprise,
        creditCode: facts.creditCode,
        legalRepresentative: facts.legalRepresentative,
        address: facts.address,
        industryCode: facts.industryCode,
        regionCode: facts.regionCode,
        contactName: facts.contactName,
        contactPhone: facts.contactPhone,
        introduction: facts.introduction,
        certificationStatus: 'certified',
        certifiedFieldsLocked: true,
      });
      expect(EnterpriseRules.creditCode(profile.creditCode), enterprise).toBeUndefined();
      for (const field of [
        'legalRepresentative',
        'address',
        'industryLabel',
        'regionLabel',
        'contactName',
        'contactPhone',
        'introduction',
      ] as const) {
        expect(profile[field], `${enterprise} ${field}`).not.toBe('');
      }
      expect(profile.regionLabel).toMatch(/^江苏省 \/ (徐州|常州)市$/);
      expect(profile.certifiedAt).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);

      const applications = await applicationsOf(enterprise);
      expect(applications).toHaveLength(1);
      const [application] = applications;
      expect(application).toMatchObject({
        status: 'approved',
        enterprise_name: enterprise,
        credit_code: facts.creditCode,
        legal_representative: facts.legalRepresentative,
        applicant_role: role,
        applicant,
        reviewer,
      });
      expect(application!.certified_at).toBe(application!.decided_at);
      expect(new Date(application!.decided_at!).getTime()).toBeGreaterThan(new Date(application!.submitted_at).getTime());
      await expectStored(
        application!.licence_file_id,
        enterprise,
        'licence',
        facts.licence.mime,
        facts.licence.mime === 'image/png' ? PNG : JPEG,
      );
      if (role === 'agent') await expectStored(application!.authorization_file_id, enterprise, 'authorization', 'application/pdf', PDF);
      else expect(application!.authorization_file_id).toBeNull();
    }
  });

  it("gives 认证审核 a queue: 江苏明川's application by its 经办人 mcadmin awaits review with a licence and an authorisation letter", async () => {
    const menus = await menusOf('mcadmin');
    expect(menus.user).toMatchObject({ name: '周明川', enterpriseName: PENDING_ENTERPRISE, certificationStatus: 'pending' });
    expect(paths(menus.routers)).toContain('/console/enterprise');
    const profile = await profileOf('mcadmin');
    const facts = demo(PENDING_ENTERPRISE);
    expect(profile).toMatchObject({
      name: PENDING_ENTERPRISE,
      creditCode: facts.creditCode,
      legalRepresentative: '吴建平',
      regionLabel: '江苏省 / 无锡市',
      industryLabel: 'C 制造业 / 34 通用设备制造业',
      certificationStatus: 'pending',
      certifiedAt: null,
      certifiedFieldsLocked: true,
      editable: true,
    });
    const [application, ...others] = await applicationsOf(PENDING_ENTERPRISE);
    expect(others).toEqual([]);
    expect(application).toMatchObject({
      status: 'pending',
      enterprise_name: PENDING_ENTERPRISE,
      credit_code: facts.creditCode,
      legal_representative: '吴建平',
      applicant_role: 'agent',
      applicant: 'mcadmin',
      reviewer: null,
      decided_at: null,
    });
    await expectStored(application!.licence_file_id, PENDING_ENTERPRISE, 'licence', 'image/png', PNG);
    await expectStored(application!.authorization_file_id, PENDING_ENTERPRISE, 'authorization', 'application/pdf', PDF);
  });

  it('has a reviewer of the platform who signs in to 认证审核', async () => {
    const menus = await menusOf('reviewer');
    expect(menus.user).toMatchObject({ username: 'reviewer', enterpriseName: PLATFORM });
    expect(menus.authorities).toContain('ROLE_CERTIFICATION_REVIEWER');
    expect(paths(menus.routers)).toContain('/console/certification');
    expect(paths(menus.routers)).not.toContain('/console/enterprise');
  });

  it('seeds once', async () => {
    const files = () => t.database.db.selectFrom('private_file').select('storage_key').orderBy('id').execute();
    const before = await files();
    expect(before).toHaveLength(7);
    expect(await seedDemoData(t.database.db, t.config)).toEqual([]);
    expect(await files()).toEqual(before);
  });
});

describe('the certification demo data on installations', () => {
  it('reaches an installation seeded before it, leaving a demo enterprise its own credit code', async () => {
    const t = await createTestDatabase('sqlite', {}, { seed: false });
    try {
      const { db } = t.database;
      const now = new Date().toISOString();
      await seedAccounts(db, now);
      await seedOrganisation(db, now);
      // 瑞驰's administrator filled in its code before this seed existed.
      const own = `91320412MA1P3TQ58${creditCodeCheckChar('91320412MA1P3TQ58')}`;
      await db.updateTable('enterprise').set({ credit_code: own }).where('name', '=', '常州瑞驰液压科技有限公司').execute();
      expect(await seedDemoData(db, t.config)).toContain('certification');
      const enterprises = await db.selectFrom('enterprise').select(['name', 'credit_code', 'certification_status']).orderBy('id').execute();
      expect(enterprises).toEqual([
        { name: '徐州恒岳重工机械有限公司', credit_code: demo('徐州恒岳重工机械有限公司').creditCode, certification_status: 'certified' },
        { name: '常州瑞驰液压科技有限公司', credit_code: own, certification_status: 'certified' },
        { name: PLATFORM, credit_code: demo(PLATFORM).creditCode, certification_status: 'certified' },
        { name: PENDING_ENTERPRISE, credit_code: demo(PENDING_ENTERPRISE).creditCode, certification_status: 'pending' },
      ]);
      const applied = await db
        .selectFrom('certification_application')
        .innerJoin('enterprise', 'enterprise.id', 'certification_application.enterprise_id')
        .select('enterprise.name')
        .orderBy('certification_application.id')
        .execute();
      expect(applied.map((a) => a.name)).toEqual(['徐州恒岳重工机械有限公司', PLATFORM, PENDING_ENTERPRISE]);
    } finally {
      await t.drop();
    }
  });

  it('is not seeded with SEED_DEMO=0', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-noseed-'));
    const config = loadConfig({
      PORT: '80',
      SQLITE_FILE: path.join(dir, 'portal.sqlite'),
      WEB_DIST: path.join(dir, 'no-web'),
      FILES_DIR: path.join(dir, 'files'),
      PRIVATE_FILES_DIR: path.join(dir, 'private'),
      LOG_LEVEL: 'silent',
      SEED_DEMO: '0',
    });
    const server = await createPortalServer(config, { logger: false });
    try {
      const { db } = server.database;
      expect(await db.selectFrom('enterprise').select('name').execute()).toEqual([]);
      expect(await db.selectFrom('account').select('username').where('username', 'in', ['mcadmin', 'reviewer']).execute()).toEqual([]);
      // The server makes the (private) directory at start; no material is copied into it.
      expect(fs.readdirSync(config.privateFilesDir, { recursive: true })).toEqual([]);
    } finally {
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
