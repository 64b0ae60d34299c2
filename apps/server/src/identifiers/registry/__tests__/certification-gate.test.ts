import { CertificationMessage, PREFIX_NEEDS_CERTIFICATION, PrefixRequestMessage } from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CertificationStatus } from '@portal/shared';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';

describe.each(testDialects())('identifier management waits for 企业认证 on %s', (dialect) => {
  let t: TestApp;
  let operator: string;
  let admin: string;
  let staff: string;
  let rcadmin: string;
  let hengyue: number;
  let ruichi: number;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    operator = await tokenFor(t, 'operator');
    admin = await tokenFor(t, 'admin');
    staff = await tokenFor(t, 'staff');
    rcadmin = await tokenFor(t, 'rcadmin');
    const enterprises = await t.database.db.selectFrom('enterprise').select(['id', 'name']).execute();
    hengyue = enterprises.find((e) => e.name === '徐州恒岳重工机械有限公司')!.id;
    ruichi = enterprises.find((e) => e.name === '常州瑞驰液压科技有限公司')!.id;
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, token: string, payload?: object) =>
    t.app.inject({
      method,
      url,
      headers: { 'x-requested-with': 'XMLHttpRequest', authorization: token },
      ...(payload ? { payload } : {}),
    });
  // Fixture: the state a reviewer's decision leaves behind (the review itself is tested with 认证审核).
  const setCertification = (id: number, status: CertificationStatus) =>
    t.database.db.updateTable('enterprise').set({ certification_status: status }).where('id', '=', id).execute();
  const prefixes = async () => (await t.database.db.selectFrom('idf_prefix').select(['prefix', 'name', 'enterprise_id']).execute()).sort();
  const messagesOf = async (username: string) => {
    const account = await t.database.db.selectFrom('account').select('id').where('username', '=', username).executeTakeFirstOrThrow();
    return (await t.app.notificationRepository.page(account.id, {}, 0, 20)).rows;
  };

  it('closes the identifier pages to an enterprise until it is certified, and opens them at once after', async () => {
    for (const status of ['none', 'pending', 'rejected'] as const) {
      await setCertification(ruichi, status);
      for (const url of [
        '/web-api/identity/v1/prefix/list',
        '/web-api/identity/v1/template/list',
        '/web-api/identity/v1/record/page/list',
      ]) {
        const closed = await call('GET', url, rcadmin);
        expect(closed.statusCode).toBe(403);
        expect(closed.json()).toEqual({ code: 1, msg: CertificationMessage.certificationRequired });
      }
      const write = await call('POST', '/web-api/identity/v1/prefix-request', rcadmin, { prefix: '88.118.30', purpose: '液压件追溯' });
      expect(write.json()).toEqual({ code: 1, msg: CertificationMessage.certificationRequired });
    }
    await setCertification(ruichi, 'certified');
    expect((await call('GET', '/web-api/identity/v1/template/list', rcadmin)).statusCode).toBe(200);
    // Platform operators run the node whatever the state of their own enterprise.
    const platform = (
      await t.database.db.selectFrom('enterprise').select('id').where('name', '=', 'Engineering e+ 平台运营中心').executeTakeFirstOrThrow()
    ).id;
    await setCertification(platform, 'none');
    expect((await call('GET', '/web-api/identity/v1/prefix/list', operator)).statusCode).toBe(200);
    expect((await call('GET', '/web-api/identity/v1/record/page/list', operator)).statusCode).toBe(200);
    await setCertification(platform, 'certified');
  });

  it('lets operators assign or move prefixes only to certified enterprises', async () => {
    await setCertification(ruichi, 'pending');
    const before = await prefixes();
    const assign = await call('POST', '/web-api/identity/v1/prefix', operator, { prefix: '88.118.31', name: '瑞驰', enterpriseId: ruichi });
    expect(assign.statusCode).toBe(400);
    expect(assign.json().msg).toBe(PREFIX_NEEDS_CERTIFICATION);
    const move = await call('PUT', '/web-api/identity/v1/prefix/88.118.8', operator, { name: '恒岳挖掘机', enterpriseId: ruichi });
    expect(move.json().msg).toBe(PREFIX_NEEDS_CERTIFICATION);
    expect(await prefixes()).toEqual(before);
    // Renaming within the same enterprise is not an assignment.
    const options = (await call('GET', '/web-api/identity/v1/enterprise/list', operator)).json().data;
    expect(options.find((e: { id: number }) => e.id === ruichi).certificationStatus).toBe('pending');
    await setCertification(ruichi, 'certified');
    expect(
      (await call('POST', '/web-api/identity/v1/prefix', operator, { prefix: '88.118.31', name: '瑞驰', enterpriseId: ruichi })).json()
        .code,
    ).toBe(20200);
  });

  it('takes 申请标识前缀 from a certified enterprise; refuses bad, duplicate and unauthorised requests without writing', async () => {
    const list = async (token: string) => (await call('GET', '/web-api/identity/v1/prefix-request/page/list', token)).json().data[0];
    const before = (await list(operator)).total;
    expect((await call('POST', '/web-api/identity/v1/prefix-request', admin, { prefix: '88-118', purpose: '追溯' })).json().msg).toMatch(
      /标识前缀格式不正确/,
    );
    expect((await call('POST', '/web-api/identity/v1/prefix-request', admin, { prefix: '88.118.40', purpose: '  ' })).json().msg).toBe(
      PrefixRequestMessage.purposeRequired,
    );
    expect((await call('POST', '/web-api/identity/v1/prefix-request', admin, { prefix: '88.118.8', purpose: '已有' })).statusCode).toBe(
      409,
    );
    expect((await call('POST', '/web-api/identity/v1/prefix-request', staff, { prefix: '88.118.40', purpose: '追溯' })).statusCode).toBe(
      403,
    );
    expect((await list(operator)).total).toBe(before);

    const created = await call('POST', '/web-api/identity/v1/prefix-request', admin, {
      prefix: '88.118.40',
      purpose: '恒岳装载机整机追溯',
    });
    expect(created.json()).toMatchObject({ code: 20200, msg: '申请已提交，请等待平台审批' });
    const again = await call('POST', '/web-api/identity/v1/prefix-request', rcadmin, { prefix: '88.118.40', purpose: '抢注' });
    expect(again.statusCode).toBe(409);
    expect(again.json().msg).toBe('标识前缀 88.118.40 已有待审批的申请');

    // Each enterprise sees its own requests; operators see all and are told of the new one.
    expect((await list(admin)).rows.map((r: { prefix: string }) => r.prefix)).toContain('88.118.40');
    expect((await list(rcadmin)).rows.map((r: { prefix: string }) => r.prefix)).not.toContain('88.118.40');
    expect((await list(operator)).rows[0]).toMatchObject({
      prefix: '88.118.40',
      enterpriseId: hengyue,
      enterpriseName: '徐州恒岳重工机械有限公司',
      purpose: '恒岳装载机整机追溯',
      status: 'pending',
      applicantName: '张伟',
    });
    expect((await messagesOf('operator'))[0]).toMatchObject({ kind: 'identifier', title: '新的标识前缀申请' });
  });

  it('an operator rejects with a reason or approves, which creates the prefix for the enterprise; the applicant is told', async () => {
    const id = (await call('POST', '/web-api/identity/v1/prefix-request', admin, { prefix: '88.118.41', purpose: '恒岳配件追溯' })).json()
      .data[0].id;
    const url = `/web-api/identity/v1/prefix-request/${id}/decision`;
    expect((await call('POST', url, admin, { decision: 'approve', reason: '' })).statusCode).toBe(403);
    expect((await call('POST', url, operator, { decision: 'reject', reason: ' ' })).json().msg).toBe(PrefixRequestMessage.reasonRequired);
    expect((await call('POST', url, operator, { decision: 'reject', reason: '前缀号段已规划给其他用途' })).json().code).toBe(20200);
    expect((await call('POST', url, operator, { decision: 'approve', reason: '' })).statusCode).toBe(409);
    expect((await prefixes()).map((p) => p.prefix)).not.toContain('88.118.41');
    expect((await messagesOf('admin'))[0]).toMatchObject({
      kind: 'identifier',
      title: '标识前缀申请被驳回',
      content: '标识前缀 88.118.41 的申请被驳回：前缀号段已规划给其他用途',
    });

    const next = (await call('POST', '/web-api/identity/v1/prefix-request', admin, { prefix: '88.118.42', purpose: '恒岳配件追溯' })).json()
      .data[0].id;
    expect((await call('POST', `/web-api/identity/v1/prefix-request/${next}/decision`, operator, { decision: 'approve' })).json().msg).toBe(
      '已通过，前缀已分配',
    );
    const own = (await call('GET', '/web-api/identity/v1/prefix/list', admin)).json().data;
    expect(own.find((p: { prefix: string }) => p.prefix === '88.118.42')).toMatchObject({ name: '恒岳配件追溯', enterpriseId: hengyue });
    expect((await messagesOf('admin'))[0]).toMatchObject({ title: '标识前缀申请已通过' });
    expect((await call('POST', '/web-api/identity/v1/prefix-request/999999/decision', operator, { decision: 'approve' })).statusCode).toBe(
      404,
    );
    const audit = await t.database.db
      .selectFrom('audit_log')
      .select(['action', 'outcome'])
      .where('action', 'like', 'prefix-request.%')
      .execute();
    expect(audit).toEqual(
      expect.arrayContaining([
        { action: 'prefix-request.create', outcome: 'success' },
        { action: 'prefix-request.reject', outcome: 'success' },
        { action: 'prefix-request.approve', outcome: 'success' },
        { action: 'prefix-request.approve', outcome: 'failure' },
      ]),
    );
  });
});
