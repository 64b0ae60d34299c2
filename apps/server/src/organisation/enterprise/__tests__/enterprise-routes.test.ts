import {
  CertificationMessage,
  type EnterpriseProfile,
  type EnterpriseProfileBody,
  EnterpriseMessage,
  creditCodeCheckChar,
} from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CERTIFICATIONS } from '../../../seed/certification-data.js';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';

const HENGYUE = '徐州恒岳重工机械有限公司';
const RUICHI = '常州瑞驰液压科技有限公司';
/** Registered during the test: 未认证, administered by its registrant. */
const XINYUAN = '徐州鑫源新材料有限公司';
const XHR = { 'x-requested-with': 'XMLHttpRequest' };

const demo = (name: string) => DEMO_CERTIFICATIONS.find((d) => d.enterprise === name)!;
const withCheck = (first17: string) => first17 + creditCodeCheckChar(first17);
/** A fictional code of 徐州 (division 320311) that passes the check. */
const XINYUAN_CODE = withCheck('91320311MA7H4K2N6');

/** The editable fields of a profile, as the console's form sends them back. */
const bodyOf = (p: EnterpriseProfile): EnterpriseProfileBody => ({
  name: p.name,
  creditCode: p.creditCode,
  legalRepresentative: p.legalRepresentative,
  address: p.address,
  industryCode: p.industryCode,
  regionCode: p.regionCode,
  contactName: p.contactName,
  contactPhone: p.contactPhone,
  introduction: p.introduction,
  logo: p.logo,
});

describe.each(testDialects())('企业信息 API on %s', (dialect) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp(dialect, { SMS_OUTBOX: '1', SMS_IP_DAILY_LIMIT: '1000' });
    // A new enterprise registered as a visitor does it: its registrant administers it, 未认证.
    const phone = '13912340088';
    await t.app.inject({ method: 'POST', url: `/web-api/register/v1/sms?phone=${phone}`, headers: XHR });
    const outbox = await t.app.inject({ url: `/dev/sms-outbox?phone=${phone}` });
    const smsCode = (outbox.json() as { data: { params: { code: string } }[] }).data[0]?.params.code ?? '';
    const registered = await t.app.inject({
      method: 'POST',
      url: '/web-api/register/v1/user',
      headers: XHR,
      payload: { username: 'xinyuan', email: '', enterpriseName: XINYUAN, password: 'Xinyuan#2026', phone, smsCode },
    });
    expect(registered.json().code).toBe(20200);
    for (const username of ['admin', 'staff', 'rcadmin', 'service', 'sunhao', 'mcadmin', 'xinyuan']) {
      tokens[username] = await tokenFor(t, username);
    }
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'PUT', token?: string, payload?: object) =>
    t.app.inject({
      method,
      url: '/web-api/console/v1/enterprise/profile',
      headers: { ...XHR, ...(token ? { authorization: token } : {}) },
      ...(payload ? { payload } : {}),
    });
  const profile = async (username: string) => {
    const res = await call('GET', tokens[username]);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data[0] as EnterpriseProfile;
  };
  const save = (username: string, body: EnterpriseProfileBody) => call('PUT', tokens[username], body);

  it("shows members their enterprise's profile; only enterprise:manage holders may edit it", async () => {
    const hengyue = demo(HENGYUE);
    const admin = await profile('admin');
    expect(admin).toEqual({
      id: expect.any(Number),
      name: HENGYUE,
      creditCode: hengyue.creditCode,
      legalRepresentative: '徐振岳',
      address: hengyue.address,
      industryCode: '35',
      industryLabel: 'C 制造业 / 35 专用设备制造业',
      regionCode: '320300',
      regionLabel: '江苏省 / 徐州市',
      contactName: '张伟',
      contactPhone: '0516-87656600',
      introduction: hengyue.introduction,
      logo: '',
      certificationStatus: 'certified',
      certifiedAt: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      certifiedFieldsLocked: true,
      editable: true,
    });
    // 普通员工 read the same profile and may not save it.
    expect(await profile('staff')).toEqual({ ...admin, editable: false });
    const refused = await save('staff', { ...bodyOf(admin), contactName: '李娜' });
    expect([refused.statusCode, refused.json()]).toEqual([403, { code: 1, msg: '当前账号无权限' }]);
    expect((await profile('admin')).contactName).toBe('张伟');
  });

  it('answers accounts without the authority, without an enterprise and without a token', async () => {
    // 客户员工 have no console authorities.
    expect((await call('GET', tokens.service)).statusCode).toBe(403);
    const none = await call('GET', tokens.sunhao);
    expect([none.statusCode, none.json()]).toEqual([400, { code: 1, msg: CertificationMessage.noEnterprise }]);
    expect((await call('GET')).json().code).toBe(20300);
  });

  it("never shows or changes another enterprise's profile", async () => {
    const ruichi = await profile('rcadmin');
    expect([ruichi.name, ruichi.creditCode, ruichi.regionLabel, ruichi.industryLabel]).toEqual([
      RUICHI,
      demo(RUICHI).creditCode,
      '江苏省 / 常州市',
      'C 制造业 / 34 通用设备制造业',
    ]);
    const before = await profile('admin');
    const saved = await save('rcadmin', { ...bodyOf(ruichi), contactName: '孙丽华', contactPhone: '0519-86501234' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await profile('rcadmin')).contactName).toBe('孙丽华');
    expect(await profile('admin')).toEqual(before);
  });

  it("saves an uncertified enterprise's profile with the labels, a blank credit code as none, and audits it", async () => {
    const fresh = await profile('xinyuan');
    expect(fresh).toMatchObject({
      name: XINYUAN,
      creditCode: '',
      legalRepresentative: '',
      industryLabel: '',
      regionLabel: '',
      certificationStatus: 'none',
      certifiedAt: null,
      certifiedFieldsLocked: false,
      editable: true,
    });
    const body: EnterpriseProfileBody = {
      name: ` ${XINYUAN} `,
      creditCode: XINYUAN_CODE,
      legalRepresentative: '刘鑫源',
      address: '江苏省徐州市泉山区金山东路18号',
      industryCode: '30',
      regionCode: '110100',
      contactName: '刘晓',
      contactPhone: '0516-83456789-802',
      introduction: '专注于新型建筑材料与工程机械耐磨件的研发和生产。',
      logo: '',
    };
    const res = await save('xinyuan', body);
    expect(res.statusCode, res.body).toBe(200);
    const saved = res.json() as { code: number; msg: string; data: EnterpriseProfile[] };
    expect([saved.code, saved.msg]).toEqual([20200, '企业信息已保存']);
    expect(saved.data[0]).toEqual({
      ...fresh,
      ...body,
      name: XINYUAN,
      industryLabel: 'C 制造业 / 30 非金属矿物制品业',
      // A 直辖市 is named once.
      regionLabel: '北京市',
    });
    expect(await profile('xinyuan')).toEqual(saved.data[0]);

    // Before any application the credit code may be taken back; it is stored as none, so another enterprise may use it.
    const cleared = await save('xinyuan', { ...body, creditCode: '', regionCode: '320300' });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(await profile('xinyuan')).toMatchObject({ creditCode: '', regionLabel: '江苏省 / 徐州市' });
    const stored = await t.database.db.selectFrom('enterprise').select('credit_code').where('name', '=', XINYUAN).executeTakeFirstOrThrow();
    expect(stored.credit_code).toBeNull();

    const audit = await t.database.db
      .selectFrom('audit_log')
      .select(['username', 'target', 'outcome', 'detail'])
      .where('action', '=', 'enterprise.profile')
      .where('username', '=', 'xinyuan')
      .orderBy('id')
      .execute();
    expect(audit).toEqual([
      {
        username: 'xinyuan',
        target: XINYUAN,
        outcome: 'success',
        detail: '统一社会信用代码、法定代表人、注册地址、所属行业、所在地区、联系人、联系电话、企业简介',
      },
      { username: 'xinyuan', target: XINYUAN, outcome: 'success', detail: '统一社会信用代码、所在地区' },
    ]);
  });

  it('refuses each bad field with its Chinese message and changes nothing', async () => {
    const valid: EnterpriseProfileBody = {
      ...bodyOf(await profile('xinyuan')),
      creditCode: XINYUAN_CODE,
      legalRepresentative: '刘鑫源',
    };
    expect((await save('xinyuan', valid)).statusCode).toBe(200);
    const before = await profile('xinyuan');
    const wrongCheck = XINYUAN_CODE.slice(0, 17) + (XINYUAN_CODE.endsWith('0') ? '1' : '0');
    const cases: [Partial<EnterpriseProfileBody>, string][] = [
      [{ name: '' }, EnterpriseMessage.nameRequired],
      [{ name: '  ' }, EnterpriseMessage.nameRequired],
      [{ name: '鑫' }, EnterpriseMessage.nameTooShort],
      [{ name: '鑫'.repeat(101) }, EnterpriseMessage.nameTooLong],
      [{ creditCode: '91320311MA7H4K2N' }, EnterpriseMessage.creditCodeInvalid],
      [{ creditCode: XINYUAN_CODE.toLowerCase() }, EnterpriseMessage.creditCodeInvalid],
      [{ creditCode: `${XINYUAN_CODE.slice(0, 16)}I${XINYUAN_CODE.slice(17)}` }, EnterpriseMessage.creditCodeInvalid],
      [{ creditCode: wrongCheck }, EnterpriseMessage.creditCodeCheck],
      [{ legalRepresentative: '' }, EnterpriseMessage.legalRepresentativeRequired],
      [{ legalRepresentative: '刘'.repeat(33) }, EnterpriseMessage.legalRepresentativeTooLong],
      [{ address: '路'.repeat(201) }, EnterpriseMessage.addressTooLong],
      [{ industryCode: '98' }, EnterpriseMessage.industryInvalid],
      [{ industryCode: 'C' }, EnterpriseMessage.industryInvalid],
      // A province, a district and an unknown code are no city.
      [{ regionCode: '320000' }, EnterpriseMessage.regionInvalid],
      [{ regionCode: '320311' }, EnterpriseMessage.regionInvalid],
      [{ regionCode: '999999' }, EnterpriseMessage.regionInvalid],
      [{ contactName: '晓'.repeat(33) }, EnterpriseMessage.contactNameTooLong],
      [{ contactPhone: '12345' }, EnterpriseMessage.contactPhoneInvalid],
      [{ contactPhone: '1380000003' }, EnterpriseMessage.contactPhoneInvalid],
      [{ introduction: '简'.repeat(2001) }, EnterpriseMessage.introductionTooLong],
      [{ logo: 'javascript:alert(1)' }, EnterpriseMessage.logoInvalid],
      [{ logo: 'https://images.example.com/logo.png' }, EnterpriseMessage.logoInvalid],
      [{ logo: '/uploads/../../etc/passwd' }, EnterpriseMessage.logoInvalid],
    ];
    for (const [patch, msg] of cases) {
      const res = await save('xinyuan', { ...valid, ...patch, contactName: patch.contactName ?? '改过的联系人' });
      expect([JSON.stringify(patch).slice(0, 60), res.statusCode, res.json()]).toEqual([
        JSON.stringify(patch).slice(0, 60),
        400,
        { code: 1, msg },
      ]);
    }
    const { contactName: _omitted, ...partial } = valid;
    expect((await save('xinyuan', partial as EnterpriseProfileBody)).statusCode).toBe(400);
    expect(await profile('xinyuan')).toEqual(before);
    const failures = await t.database.db
      .selectFrom('audit_log')
      .select('detail')
      .where('action', '=', 'enterprise.profile')
      .where('outcome', '=', 'failure')
      .where('username', '=', 'xinyuan')
      .execute();
    expect(failures.map((f) => f.detail)).toContain(EnterpriseMessage.creditCodeCheck);
  });

  it('refuses a name or credit code another enterprise holds', async () => {
    const before = await profile('xinyuan');
    const name = await save('xinyuan', { ...bodyOf(before), name: RUICHI });
    expect([name.statusCode, name.json()]).toEqual([400, { code: 1, msg: EnterpriseMessage.nameTaken }]);
    const code = await save('xinyuan', { ...bodyOf(before), creditCode: demo(HENGYUE).creditCode });
    expect([code.statusCode, code.json()]).toEqual([400, { code: 1, msg: EnterpriseMessage.creditCodeTaken }]);
    expect(await profile('xinyuan')).toEqual(before);
  });

  it('keeps the reviewed name and credit code of a certified or pending enterprise, and saves the rest', async () => {
    const admin = await profile('admin');
    for (const patch of [{ name: '徐州恒岳重工集团有限公司' }, { creditCode: XINYUAN_CODE }, { creditCode: '' }]) {
      const res = await save('admin', { ...bodyOf(admin), ...patch });
      expect([res.statusCode, res.json()]).toEqual([400, { code: 1, msg: EnterpriseMessage.certifiedFieldsLocked }]);
    }
    expect(await profile('admin')).toEqual(admin);
    const saved = await save('admin', { ...bodyOf(admin), contactName: '王芳', contactPhone: '13800000011' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await profile('admin')).toEqual({ ...admin, contactName: '王芳', contactPhone: '13800000011' });

    // 待审核: the application's name and code are under review.
    const pending = await profile('mcadmin');
    expect([pending.certificationStatus, pending.certifiedFieldsLocked]).toEqual(['pending', true]);
    const renamed = await save('mcadmin', { ...bodyOf(pending), name: '江苏明川智能科技有限公司' });
    expect([renamed.statusCode, renamed.json()]).toEqual([400, { code: 1, msg: EnterpriseMessage.certifiedFieldsLocked }]);
  });

  it('takes a logo uploaded through the image upload', async () => {
    const boundary = '----enterprise-logo';
    const upload = (token: string | undefined) =>
      t.app.inject({
        method: 'POST',
        url: '/web-api/files/v1/upload',
        headers: { ...XHR, ...(token ? { authorization: token } : {}), 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: Buffer.concat([
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="logo.png"\r\nContent-Type: image/png\r\n\r\n`,
          ),
          Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
          Buffer.alloc(64, 0x2a),
          Buffer.from(`\r\n--${boundary}--\r\n`),
        ]),
      });
    expect((await upload(tokens.staff)).statusCode).toBe(403);
    const uploaded = await upload(tokens.xinyuan);
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const { path } = uploaded.json().data[0] as { path: string };
    expect(path).toMatch(/^\/uploads\/\d{4}\/\d\d\/[0-9a-f-]+\.png$/);
    const before = await profile('xinyuan');
    expect((await save('xinyuan', { ...bodyOf(before), logo: path })).statusCode).toBe(200);
    expect((await profile('xinyuan')).logo).toBe(path);
    expect((await t.app.inject({ url: `/files${path}` })).statusCode).toBe(200);
  });
});
