import { CertificationMessage, EnterpriseMessage } from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';
import { certificationClient, creditCode, pdf, png } from './certification-test-client.js';

const NAME = '徐州新材智造科技有限公司';
const CODE = creditCode('91320301MA1Q2W3E4');
const PHONE = '13912340001';
const RUICHI = '常州瑞驰液压科技有限公司';

describe.each(testDialects())('企业认证 from application to decision on %s', (dialect) => {
  let t: TestApp;
  let c: ReturnType<typeof certificationClient>;
  let applicant: string;
  let applicantId: number;
  let colleague: string;
  let operator: string;
  let admin: string;
  let staff: string;
  let licenceId: number;
  let letterId: number;
  let applicationId: number;

  beforeAll(async () => {
    t = await createTestApp(dialect, { SMS_OUTBOX: '1' });
    c = certificationClient(t);
    const created = await c.registerEnterprise('徐州新材', 'xincai', PHONE, { username: 'xincai2', phone: '13912340002' });
    applicant = created.token;
    applicantId = created.accountId;
    colleague = created.staffToken!;
    [operator, admin, staff] = await Promise.all([tokenFor(t, 'operator'), tokenFor(t, 'admin'), tokenFor(t, 'staff')]);
  });
  afterAll(() => t.close());

  const valid = () => ({
    enterpriseName: NAME,
    creditCode: CODE,
    legalRepresentative: '王建国',
    applicantRole: 'agent' as const,
    licenceFileId: licenceId,
    authorizationFileId: letterId,
    declaration: true,
  });

  /** A refusal: the status, the Chinese message, and nothing changed (the state read back). */
  async function refused(answer: ReturnType<typeof c.submit>, status: number, msg: string) {
    const before = await c.state(applicant);
    const res = await answer;
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json()).toEqual({ code: 1, msg });
    expect(await c.state(applicant)).toEqual(before);
  }

  it('a new enterprise is 未认证 with no applications', async () => {
    expect(await c.state(applicant)).toEqual({ status: 'none', certifiedAt: null, applications: [] });
    expect(await c.state(colleague)).toEqual({ status: 'none', certifiedAt: null, applications: [] });
  });

  it('uploads the licence and the authorisation letter', async () => {
    const licence = await c.material(applicant, 'licence', '营业执照.png', png(), 'image/png');
    expect(licence).toEqual({ id: expect.any(Number), name: '营业执照.png', mime: 'image/png', bytes: png().length });
    const letter = await c.material(applicant, 'authorization', 'letter.pdf', pdf(), 'application/pdf');
    expect(letter).toMatchObject({ name: 'letter.pdf', mime: 'application/pdf', bytes: pdf().length });
    licenceId = licence.id;
    letterId = letter.id;
  });

  it('refuses bad applications with a Chinese message and changes nothing', async () => {
    const wrongCheck = `${CODE.slice(0, 17)}${CODE.endsWith('0') ? '1' : '0'}`;
    await refused(c.submit(applicant, { ...valid(), creditCode: wrongCheck }), 400, EnterpriseMessage.creditCodeCheck);
    await refused(c.submit(applicant, { ...valid(), creditCode: 'ABC' }), 400, EnterpriseMessage.creditCodeInvalid);
    await refused(c.submit(applicant, { ...valid(), enterpriseName: '' }), 400, EnterpriseMessage.nameRequired);
    await refused(c.submit(applicant, { ...valid(), legalRepresentative: ' ' }), 400, EnterpriseMessage.legalRepresentativeRequired);
    await refused(c.submit(applicant, { ...valid(), declaration: false }), 400, CertificationMessage.declarationRequired);
    await refused(c.submit(applicant, { ...valid(), licenceFileId: null as unknown as number }), 400, CertificationMessage.licenceRequired);
    await refused(c.submit(applicant, { ...valid(), authorizationFileId: null }), 400, CertificationMessage.authorizationRequired);
    // A file of the wrong purpose, or one that is not the enterprise's, is as good as missing.
    await refused(c.submit(applicant, { ...valid(), licenceFileId: letterId }), 400, CertificationMessage.fileMissing);
    await refused(c.submit(applicant, { ...valid(), licenceFileId: 999_999 }), 400, CertificationMessage.fileMissing);
    await refused(c.submit(applicant, { ...valid(), enterpriseName: RUICHI }), 400, EnterpriseMessage.nameTaken);
    // Staff read 企业认证 but do not apply.
    expect((await c.submit(colleague, valid())).statusCode).toBe(403);
    const failures = await c.audit(operator, 'certification.submit');
    expect(failures.find((r) => r.username === 'xincai')).toMatchObject({ outcome: 'failure', detail: EnterpriseMessage.nameTaken });
  });

  it('a submission copies name, credit code and legal representative into the profile and makes it 待审核', async () => {
    const res = await c.submit(applicant, valid());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().msg).toBe('认证申请已提交，请等待审核（1–3 个工作日）');
    applicationId = res.json<{ data: { id: number }[] }>().data[0]!.id;
    // Reviewers are told in 消息中心.
    const operatorAccount = await t.database.db
      .selectFrom('account')
      .select('id')
      .where('username', '=', 'operator')
      .executeTakeFirstOrThrow();
    expect((await t.app.notificationRepository.page(operatorAccount.id, { kind: 'certification' }, 0, 1)).rows[0]).toMatchObject({
      title: '新的企业认证申请',
      content: `${NAME}（${CODE}）提交了企业认证申请，请在认证审核中处理。`,
      link: '/console/certification',
    });
    const state = await c.state(applicant);
    expect(state.status).toBe('pending');
    expect(state.applications).toEqual([
      {
        id: applicationId,
        status: 'pending',
        enterpriseName: NAME,
        creditCode: CODE,
        legalRepresentative: '王建国',
        applicantRole: 'agent',
        applicantName: 'xincai',
        licence: { id: licenceId, name: '营业执照.png', mime: 'image/png', bytes: png().length },
        authorization: { id: letterId, name: 'letter.pdf', mime: 'application/pdf', bytes: pdf().length },
        submittedAt: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
        decidedAt: null,
        reviewerName: '',
        reasons: [],
        comment: '',
      },
    ]);
    // Members without enterprise:manage see the timeline, not the materials.
    const seenByStaff = await c.state(colleague);
    expect(seenByStaff.applications[0]).toMatchObject({ id: applicationId, licence: null, authorization: null });
    // The enterprise now carries the submitted name (the session's profile shows it).
    const profile = await t.app.accountRepository.profile(applicantId);
    expect(profile).toMatchObject({ enterpriseName: NAME, certificationStatus: 'pending' });
    expect((await c.audit(operator, 'certification.submit'))[0]).toMatchObject({ outcome: 'success', target: `${NAME} ${CODE}` });
  });

  it('refuses a second submission and more uploads while one is pending', async () => {
    await refused(c.submit(applicant, valid()), 409, CertificationMessage.pending);
    const upload = await c.upload(applicant, [
      { name: 'purpose', value: 'licence' },
      { name: 'file', filename: 'b.png', type: 'image/png', bytes: png() },
    ]);
    expect(upload.statusCode).toBe(409);
    expect(upload.json()).toEqual({ code: 1, msg: CertificationMessage.pending });
  });

  it('认证审核 is for reviewers: the queue, filtered, and the detail with materials and the current profile', async () => {
    for (const token of [applicant, admin, staff]) {
      expect((await c.call(token, 'GET', '/certification/page/list')).statusCode).toBe(403);
      expect((await c.call(token, 'GET', `/certification/${applicationId}`)).statusCode).toBe(403);
      expect((await c.decide(token, applicationId, { decision: 'approve' })).statusCode).toBe(403);
    }
    expect((await c.call(undefined, 'GET', '/certification/page/list')).json().code).toBe(20300);

    const pending = await c.queue(operator, '&status=pending');
    expect(pending.rows.find((r) => r.id === applicationId)).toEqual({
      id: applicationId,
      enterpriseId: expect.any(Number),
      enterpriseName: NAME,
      creditCode: CODE,
      applicantName: 'xincai',
      applicantPhone: PHONE,
      status: 'pending',
      submittedAt: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      decidedAt: null,
      reviewerName: '',
    });
    expect((await c.queue(operator, `&keyword=${encodeURIComponent('新材智造')}`)).rows.map((r) => r.id)).toEqual([applicationId]);
    expect((await c.queue(operator, `&keyword=${CODE.slice(4, 12).toLowerCase()}`)).rows.map((r) => r.id)).toEqual([applicationId]);
    expect((await c.queue(operator, '&status=approved&keyword=新材')).total).toBe(0);
    expect((await c.queue(operator, '&filterEndTime=2000-01-01')).total).toBe(0);
    expect((await c.queue(operator, '&filterStartTime=2000-01-01&filterEndTime=2999-12-31 23:59:59')).rows.map((r) => r.id)).toContain(
      applicationId,
    );
    const badTime = await c.call(operator, 'GET', '/certification/page/list?filterStartTime=2024-02-30');
    expect(badTime.statusCode).toBe(400);
    expect(badTime.json()).toEqual({ code: 1, msg: '开始时间格式应为 yyyy-MM-dd HH:mm:ss' });

    const detail = await c.detail(operator, applicationId);
    expect(detail.application).toMatchObject({ id: applicationId, licence: { id: licenceId }, authorization: { id: letterId } });
    expect(detail.applicantPhone).toBe(PHONE);
    expect(detail.profile).toMatchObject({
      name: NAME,
      creditCode: CODE,
      legalRepresentative: '王建国',
      certificationStatus: 'pending',
      certifiedFieldsLocked: true,
      editable: false,
    });
    expect(detail.history).toEqual([]);
    const missing = await c.call(operator, 'GET', '/certification/999999');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ code: 1, msg: '认证申请不存在' });
  });

  it('驳回 needs a reason, 其他 needs a comment; a refused decision changes nothing', async () => {
    const cases: [object, string][] = [
      [{ decision: 'reject', reasons: [], comment: '' }, CertificationMessage.reasonRequired],
      [{ decision: 'reject', reasons: ['other'], comment: '  ' }, CertificationMessage.commentRequired],
      [{ decision: 'reject', reasons: ['licence-unclear'], comment: '字'.repeat(501) }, CertificationMessage.commentTooLong],
    ];
    for (const [body, msg] of cases) {
      const res = await c.decide(operator, applicationId, body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual({ code: 1, msg });
    }
    expect((await c.decide(operator, applicationId, { decision: 'reject', reasons: ['no-such-reason'] })).statusCode).toBe(400);
    expect((await c.state(applicant)).status).toBe('pending');
    expect((await c.detail(operator, applicationId)).application.status).toBe('pending');
    expect((await t.app.notificationRepository.page(applicantId, {}, 0, 20)).total).toBe(0);
    const failures = await c.audit(operator, 'certification.reject');
    expect(failures.map((r) => [r.outcome, r.detail])).toContainEqual(['failure', CertificationMessage.commentRequired]);
  });

  it('驳回 with two reasons: the enterprise is 已驳回, told in 消息中心 and by SMS; the decision is final', async () => {
    const res = await c.decide(operator, applicationId, {
      decision: 'reject',
      reasons: ['licence-unclear', 'other'],
      // Typed as a sentence: the message closes it once, never 。。.
      comment: '公章不清晰。',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ code: 20200, msg: '已驳回，已短信通知申请人', data: [] });

    const state = await c.state(applicant);
    expect(state.status).toBe('rejected');
    expect(state.applications[0]).toMatchObject({
      status: 'rejected',
      reasons: ['licence-unclear', 'other'],
      comment: '公章不清晰。',
      reviewerName: '陈静',
      decidedAt: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
    });
    const messages = await t.app.notificationRepository.page(applicantId, {}, 0, 20);
    expect(messages.rows).toEqual([
      {
        id: expect.any(Number),
        kind: 'certification',
        title: '企业认证未通过',
        content: `“${NAME}”的企业认证申请被驳回。驳回原因：营业执照不清晰；其他（公章不清晰）。请在企业信息的“企业认证”中按原因修改后重新提交。`,
        link: '/console/enterprise?tab=certification',
        read: false,
        createdAt: expect.any(String),
      },
    ]);
    expect((await c.outbox(PHONE)).filter((m) => m.templateKey === 'certification-result').map((m) => m.params)).toEqual([
      { enterprise: NAME, result: '未通过' },
    ]);
    expect((await c.audit(operator, 'certification.reject'))[0]).toMatchObject({
      outcome: 'success',
      target: NAME,
      detail: '营业执照不清晰；其他（公章不清晰）',
    });

    // Decided once: a second decision, either way, is refused and changes nothing.
    for (const decision of ['approve', 'reject']) {
      const again = await c.decide(operator, applicationId, { decision, reasons: ['licence-expired'] });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({ code: 1, msg: CertificationMessage.notPending });
    }
    expect((await c.state(applicant)).status).toBe('rejected');
    expect((await t.app.notificationRepository.page(applicantId, {}, 0, 20)).total).toBe(1);
    expect((await c.audit(operator, 'certification.approve'))[0]).toMatchObject({
      outcome: 'failure',
      detail: CertificationMessage.notPending,
    });
  });

  it('after a rejection the enterprise resubmits; 通过 certifies it and tells the applicant', async () => {
    const licence = await c.material(applicant, 'licence', '营业执照-清晰.pdf', pdf(2048), 'application/pdf');
    const res = await c.submit(applicant, { ...valid(), applicantRole: 'legal', licenceFileId: licence.id, authorizationFileId: null });
    expect(res.statusCode, res.body).toBe(200);
    const secondId = res.json<{ data: { id: number }[] }>().data[0]!.id;
    const detail = await c.detail(operator, secondId);
    expect(detail.application).toMatchObject({ applicantRole: 'legal', authorization: null, licence: { id: licence.id } });
    expect(detail.history.map((a) => [a.id, a.status])).toEqual([[applicationId, 'rejected']]);
    // The earlier application's history holds what came before it: nothing.
    expect((await c.detail(operator, applicationId)).history).toEqual([]);

    const approved = await c.decide(operator, secondId, { decision: 'approve' });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().msg).toBe('认证已通过，已短信通知申请人');
    const state = await c.state(applicant);
    expect(state.status).toBe('certified');
    expect(state.certifiedAt).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(state.applications.map((a) => [a.id, a.status])).toEqual([
      [secondId, 'approved'],
      [applicationId, 'rejected'],
    ]);
    expect((await t.app.accountRepository.profile(applicantId))?.certificationStatus).toBe('certified');
    const [newest] = (await t.app.notificationRepository.page(applicantId, {}, 0, 20)).rows;
    expect(newest).toMatchObject({ kind: 'certification', title: '企业认证已通过', link: '/console/enterprise?tab=certification' });
    expect(newest?.content).toContain(NAME);
    expect((await c.outbox(PHONE)).find((m) => m.templateKey === 'certification-result')?.params).toEqual({
      enterprise: NAME,
      result: '已通过',
    });
    expect((await c.audit(operator, 'certification.approve'))[0]).toMatchObject({ outcome: 'success', target: NAME });

    // Certified: nothing more to apply for.
    await refused(c.submit(applicant, valid()), 409, CertificationMessage.alreadyCertified);
    const upload = await c.upload(applicant, [
      { name: 'purpose', value: 'licence' },
      { name: 'file', filename: 'c.png', type: 'image/png', bytes: png() },
    ]);
    expect(upload.json()).toEqual({ code: 1, msg: CertificationMessage.alreadyCertified });
  });

  it("another enterprise cannot take a certified enterprise's credit code", async () => {
    const other = await c.registerEnterprise('常州某公司', 'mougongsi', '13912340003');
    const licence = await c.material(other.token, 'licence', 'l.png', png(), 'image/png');
    const before = await c.state(other.token);
    const res = await c.submit(other.token, {
      ...valid(),
      enterpriseName: '常州某某机械有限公司',
      applicantRole: 'legal',
      licenceFileId: licence.id,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 1, msg: EnterpriseMessage.creditCodeTaken });
    expect(await c.state(other.token)).toEqual(before);
  });

  it('a submission or a decision whose audit row cannot be written leaves everything as it was', async () => {
    const other = await c.registerEnterprise('南通原子', 'yuanzi', '13912340007');
    const licence = await c.material(other.token, 'licence', 'l.png', png(), 'image/png');
    const body = {
      ...valid(),
      enterpriseName: '南通原子写入有限公司',
      creditCode: creditCode('91320600MA1C2D3E4'),
      applicantRole: 'legal' as const,
      licenceFileId: licence.id,
    };
    /** The audit log's table is out of reach while `fn` runs: every audit insert fails. */
    const withBrokenAuditLog = async (fn: () => Promise<void>) => {
      await t.database.db.schema.alterTable('audit_log').renameTo('audit_log_away').execute();
      try {
        await fn();
      } finally {
        await t.database.db.schema.alterTable('audit_log_away').renameTo('audit_log').execute();
      }
    };
    const before = await c.state(other.token);
    await withBrokenAuditLog(async () => expect((await c.submit(other.token, body)).statusCode).toBe(500));
    expect(await c.state(other.token)).toEqual(before);
    expect((await t.app.accountRepository.profile(other.accountId))?.enterpriseName).toBe('南通原子');

    const res = await c.submit(other.token, body);
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json<{ data: { id: number }[] }>().data[0]!.id;
    await withBrokenAuditLog(async () => expect((await c.decide(operator, id, { decision: 'approve' })).statusCode).toBe(500));
    expect((await c.state(other.token)).status).toBe('pending');
    expect((await c.detail(operator, id)).application.status).toBe('pending');
    expect((await t.app.notificationRepository.page(other.accountId, {}, 0, 20)).total).toBe(0);
    expect((await c.outbox('13912340007')).filter((m) => m.templateKey === 'certification-result')).toEqual([]);
  });

  it('of two reviewers deciding at once, one decides and the other is told it is no longer pending', async () => {
    const other = await c.registerEnterprise('无锡并发', 'bingfa', '13912340004');
    const licence = await c.material(other.token, 'licence', 'l.png', png(), 'image/png');
    const res = await c.submit(other.token, {
      ...valid(),
      enterpriseName: '无锡并发测试有限公司',
      creditCode: creditCode('91320200MA1B2C3D4'),
      applicantRole: 'legal',
      licenceFileId: licence.id,
    });
    const id = res.json<{ data: { id: number }[] }>().data[0]!.id;
    const reviewer = await c.reviewer('shenhe', '13912340005');
    const answers = await Promise.all([
      c.decide(operator, id, { decision: 'approve' }),
      c.decide(reviewer, id, { decision: 'reject', reasons: ['name-mismatch'] }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const state = await c.state(other.token);
    const won = answers[0]!.statusCode === 200 ? 'approved' : 'rejected';
    expect(state.applications[0]?.status).toBe(won);
    expect(state.status).toBe(won === 'approved' ? 'certified' : 'rejected');
    expect((await t.app.notificationRepository.page(other.accountId, {}, 0, 20)).total).toBe(1);
  });
});

describe.each(testDialects())('企业认证 decision when the SMS cannot be sent, on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    // A real provider without the certification-result template: the send fails before any call.
    t = await createTestApp(dialect, {
      SMS_PROVIDER: 'aliyun',
      ALIYUN_SMS_ACCESS_KEY_ID: 'id',
      ALIYUN_SMS_ACCESS_KEY_SECRET: 'secret',
      ALIYUN_SMS_SIGN_NAME: '工程e加',
      ALIYUN_SMS_TEMPLATE_REGISTER: 'SMS_1',
    });
  });
  afterAll(() => t.close());

  it('still decides, tells in 消息中心 and says the SMS failed', async () => {
    const c = certificationClient(t);
    const operator = await tokenFor(t, 'operator');
    const created = await c.registerEnterprise('短信失败', 'duanxin', '13912340006');
    const licence = await c.material(created.token, 'licence', 'l.png', png(), 'image/png');
    const res = await c.submit(created.token, {
      enterpriseName: '短信失败测试有限公司',
      creditCode: creditCode('91320100MA1X2Y3R4'),
      legalRepresentative: '李四',
      applicantRole: 'legal',
      licenceFileId: licence.id,
      authorizationFileId: null,
      declaration: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json<{ data: { id: number }[] }>().data[0]!.id;
    const decided = await c.decide(operator, id, { decision: 'approve' });
    expect(decided.statusCode).toBe(200);
    expect(decided.json().msg).toBe('认证已通过，短信通知发送失败');
    expect((await c.state(created.token)).status).toBe('certified');
    expect((await t.app.notificationRepository.page(created.accountId, {}, 0, 20)).rows[0]?.title).toBe('企业认证已通过');
  });
});
