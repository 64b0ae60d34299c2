import { SYNC_MAPPING_DEFAULTS, type SyncJob, type SyncJobInput, SyncMessage, type SyncRunItem, type SyncRunSummary } from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HENGYUE_PEOPLE, HENGYUE_PEOPLE_LIST, HENGYUE_SUFFIX, hengyueDirectory, personDn } from '../../../testing/ldap-fixture.js';
import { type SlapdServer, startSlapd } from '../../../testing/slapd.js';
import { type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';
import { listen, TestBrowser } from '../../../testing/test-browser.js';
import { consoleClient } from '../../org/__tests__/account-test-client.js';
import { DEMO_PASSWORD } from '../../../seed/accounts-seed.js';
import { MISSING_PHONE } from '../sync-plan.js';
import {
  HENGYUE,
  RUICHI,
  add,
  addLdapSource,
  changeDirectory,
  createSyncTestApp,
  groupDn,
  remove,
  replace,
  secondInstance,
} from './sync-test-kit.js';

/** The central login's form, posted: 200 signed in, 401 refused. */
async function passwordLogin(base: string, username: string, password: string) {
  const browser = new TestBrowser(base);
  const form = await browser.fetch('/cas/login');
  const execution = /name="execution" value="([^"]+)"/.exec(form.text)?.[1] ?? '';
  return browser.fetch('/cas/login', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username, password, execution }).toString(),
  });
}

const SYNC = '/auth/sync';
const ZERO = { create: 0, update: 0, disable: 0, move: 0, failed: 0 };

const person = (uid: string, ou: string, cn: string, mobile?: string) => ({
  objectClass: ['top', 'person', 'organizationalPerson', 'inetOrgPerson'],
  uid,
  cn,
  sn: cn.slice(0, 1),
  mail: `${uid}@hengyue.com`,
  ...(mobile ? { mobile } : {}),
});

describe.each(testDialects())('同步 against a real OpenLDAP on %s', (dialect) => {
  let t: TestApp;
  let ldap: SlapdServer;
  let c: ReturnType<typeof consoleClient>;
  let admin: string;
  let staff: string;
  let rcadmin: string;
  let sourceId: number;
  let jobId: number;
  let base: string;

  beforeAll(async () => {
    ldap = await startSlapd({ suffix: HENGYUE_SUFFIX, entries: hengyueDirectory() });
    t = await createSyncTestApp(dialect);
    c = consoleClient(t);
    [admin, staff, rcadmin] = await Promise.all([tokenFor(t, 'admin'), tokenFor(t, 'staff'), tokenFor(t, 'rcadmin')]);
    sourceId = await addLdapSource(t, HENGYUE, ldap.url);
    base = await listen(t.app);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await ldap?.stop();
  });

  const jobBody = (overrides: Partial<SyncJobInput> = {}): SyncJobInput => ({
    sourceId,
    name: '恒岳目录同步',
    mapping: SYNC_MAPPING_DEFAULTS,
    cron: '0 2 * * *',
    leaverRule: 'disable',
    enabled: true,
    ...overrides,
  });
  const refused = async (answer: ReturnType<typeof c.call>, status: number, msg: string) => {
    const res = await answer;
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json().msg).toBe(msg);
  };
  const jobList = async (token = admin) => {
    const res = await c.call(token, 'GET', `${SYNC}/jobs`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: SyncJob[] }>().data;
  };
  const preview = () => c.data<SyncRunSummary>(c.call(admin, 'POST', `${SYNC}/jobs/${jobId}/preview`));
  const execute = (runId: number) => c.data<SyncRunSummary>(c.call(admin, 'POST', `${SYNC}/runs/${runId}/execute`));
  const items = async (runId: number, query = '') =>
    (await c.data<{ total: number; rows: SyncRunItem[] }>(c.call(admin, 'GET', `${SYNC}/runs/${runId}/items?limit=100${query}`))).rows;
  const run = (runId: number) => c.data<SyncRunSummary>(c.call(admin, 'GET', `${SYNC}/runs/${runId}`));
  const accountCount = async () => (await c.page(admin)).total;
  /** The central login with a directory password: 303 to the service with a ticket when it signs in. */
  const signIn = async (username: string, password: string) => {
    const [answer] = await new TestBrowser(base).casLogin(username, password, `${base}/demo-app/login`);
    return { status: answer?.status, ticket: /ticket=ST-/.test(answer?.location ?? '') };
  };
  const directoryPassword = (uid: string) => HENGYUE_PEOPLE_LIST.find((p) => p.uid === uid)?.password ?? '';

  it('creates, lists, edits and deletes sync jobs with their rules checked', async () => {
    expect(await jobList()).toEqual([]);
    await refused(c.call(staff, 'POST', `${SYNC}/jobs`, jobBody()), 403, '当前账号无权限');
    await refused(c.call(admin, 'POST', `${SYNC}/jobs`, jobBody({ name: '  ' })), 400, SyncMessage.jobNameRequired);
    await refused(c.call(admin, 'POST', `${SYNC}/jobs`, jobBody({ name: '同'.repeat(33) })), 400, SyncMessage.jobNameTooLong);
    for (const cron of ['0 0 2 * * *', '@daily', '0 25 * * *', '每天两点']) {
      await refused(c.call(admin, 'POST', `${SYNC}/jobs`, jobBody({ cron })), 400, SyncMessage.cronInvalid);
    }
    for (const usernamePrefix of ['1ab', 'ab-c', 'abcdefghi']) {
      const body = jobBody({ mapping: { ...SYNC_MAPPING_DEFAULTS, usernamePrefix } });
      await refused(c.call(admin, 'POST', `${SYNC}/jobs`, body), 400, SyncMessage.prefixInvalid);
    }
    const ruichiSource = await addLdapSource(t, RUICHI, ldap.url, '瑞驰 LDAP');
    await refused(c.call(admin, 'POST', `${SYNC}/jobs`, jobBody({ sourceId: ruichiSource })), 404, '认证源不存在');

    const created = await c.data<{ id: number }>(c.call(admin, 'POST', `${SYNC}/jobs`, jobBody()));
    jobId = created.id;
    await refused(c.call(admin, 'POST', `${SYNC}/jobs`, jobBody()), 409, SyncMessage.jobNameTaken);
    const [job] = await jobList();
    expect(job).toMatchObject({ id: jobId, sourceId, sourceName: '恒岳 LDAP', sourceType: 'ldap', cron: '0 2 * * *', lastRun: null });
    // The next 02:00 in China time.
    expect(job?.nextRunAt).toMatch(/^\d{4}-\d\d-\d\d 02:00:00$/);

    // Other enterprises neither see nor touch it.
    expect(await jobList(rcadmin)).toEqual([]);
    await refused(c.call(rcadmin, 'PUT', `${SYNC}/jobs/${jobId}`, jobBody({ sourceId: ruichiSource })), 404, '同步任务不存在');
    await refused(c.call(rcadmin, 'POST', `${SYNC}/jobs/${jobId}/preview`), 404, '同步任务不存在');
    await refused(c.call(rcadmin, 'DELETE', `${SYNC}/jobs/${jobId}`), 404, '同步任务不存在');

    // Manual only: no next start.
    await c.data(c.call(admin, 'PUT', `${SYNC}/jobs/${jobId}`, jobBody({ cron: '' })));
    expect((await jobList())[0]).toMatchObject({ cron: '', nextRunAt: null });

    const other = await c.data<{ id: number }>(c.call(admin, 'POST', `${SYNC}/jobs`, jobBody({ name: '临时任务', enabled: false })));
    expect((await jobList()).find((j) => j.id === other.id)).toMatchObject({ enabled: false, nextRunAt: null });
    await c.data(c.call(admin, 'DELETE', `${SYNC}/jobs/${other.id}`));
    expect((await jobList()).map((j) => j.name)).toEqual(['恒岳目录同步']);
    expect((await c.audit(admin, 'auth-sync.job.create')).map((r) => [r.target, r.outcome])).toContainEqual(['恒岳目录同步', 'success']);
    expect((await c.audit(admin, 'auth-sync.job.delete')).map((r) => r.target)).toEqual(['临时任务']);
  });

  it('previews the first sync: 5 people and 3 账号组 to create, nothing written', async () => {
    const before = await accountCount();
    const groupsBefore = (await c.options(admin)).groups.length;
    const summary = await preview();
    expect(summary).toMatchObject({
      jobId,
      jobName: '恒岳目录同步',
      status: 'preview',
      trigger: 'manual',
      operator: '张伟',
      finishedAt: null,
    });
    expect(summary.counts).toEqual({ ...ZERO, create: 8 });
    const listed = await items(summary.id);
    expect(listed.filter((i) => i.kind === 'group').map((i) => [i.action, i.name])).toEqual([
      ['create', '生产制造部'],
      ['create', '销售部'],
      ['create', '研发中心'],
    ]);
    expect(listed.filter((i) => i.kind === 'user').map((i) => [i.action, i.username, i.status])).toEqual([
      ['create', 'lixin', 'planned'],
      ['create', 'qianlei', 'planned'],
      ['create', 'sunli', 'planned'],
      ['create', 'zhaomin', 'planned'],
      ['create', 'zhoutao', 'planned'],
    ]);
    expect(listed.find((i) => i.username === 'lixin')?.changes).toEqual(
      expect.arrayContaining([
        { field: '姓名', from: '', to: '李鑫' },
        { field: '手机号', from: '', to: '13910000001' },
        { field: '账号组', from: '', to: '研发中心' },
      ]),
    );
    expect(await items(summary.id, '&action=&status=')).toHaveLength(8);
    expect(await items(summary.id, '&action=disable')).toEqual([]);
    expect(await accountCount()).toBe(before);
    expect((await c.options(admin)).groups).toHaveLength(groupsBefore);
    expect((await jobList())[0]?.lastRun).toBeNull();
    // Another enterprise does not see the run.
    await refused(c.call(rcadmin, 'GET', `${SYNC}/runs/${summary.id}`), 404, '同步记录不存在');
    await refused(c.call(rcadmin, 'GET', `${SYNC}/runs/${summary.id}/items`), 404, '同步记录不存在');
    await refused(c.call(rcadmin, 'POST', `${SYNC}/runs/${summary.id}/execute`), 404, '同步记录不存在');
  });

  it('执行 creates the accounts, linked to their entries, with their 账号组; a preview runs once', async () => {
    const before = await accountCount();
    const runs = await c.data<{ total: number; rows: SyncRunSummary[] }>(c.call(admin, 'GET', `${SYNC}/runs?jobId=${jobId}`));
    const previewId = runs.rows[0]?.id ?? 0;
    const succeeded = async () =>
      Number(/^portal_sync_run_duration_seconds_count\{result="succeeded"\} (\d+)$/m.exec((await t.app.metrics.scrape()).body)?.[1] ?? 0);
    const runsBefore = await succeeded();
    const done = await execute(previewId);
    expect(done).toMatchObject({ id: previewId, status: 'succeeded', counts: { ...ZERO, create: 8 } });
    // The instance's metrics count the run by its result (a preview is no run).
    expect((await succeeded()) - runsBefore).toBe(1);
    expect(done.finishedAt).not.toBeNull();
    expect(await accountCount()).toBe(before + 5);
    expect(await c.row(admin, 'lixin')).toMatchObject({
      name: '李鑫',
      phone: '13910000001',
      email: 'lixin@hengyue.com',
      state: 'active',
      groups: [expect.objectContaining({ name: '研发中心' })],
      roles: [expect.objectContaining({ code: 'ROLE_ENTERPRISE_STAFF' })],
    });
    expect((await c.row(admin, 'qianlei'))?.groups.map((g) => g.name)).toEqual(['生产制造部']);
    expect((await items(previewId)).every((i) => i.status === 'succeeded')).toBe(true);
    // Linked to their entries: sign-in binds there; nothing to change at a first login.
    const { db } = t.database;
    const linked = await db
      .selectFrom('account_identity')
      .innerJoin('account', 'account.id', 'account_identity.account_id')
      .select(['account.username', 'account_identity.dn', 'account.must_change_password'])
      .where('account_identity.source_id', '=', sourceId)
      .orderBy('account.username')
      .execute();
    expect(linked.map((r) => [r.username, r.dn, Number(r.must_change_password)])).toEqual(
      [
        ['lixin', 'rd'],
        ['qianlei', 'production'],
        ['sunli', 'production'],
        ['zhaomin', 'rd'],
        ['zhoutao', 'sales'],
      ].map(([uid, ou]) => [uid, personDn({ uid: uid!, ou: ou as 'rd' }), 0]),
    );

    const [audit] = await c.audit(admin, 'auth-sync.execute');
    expect(audit).toMatchObject({ target: '恒岳目录同步', outcome: 'success' });
    expect(audit?.detail).toContain('新增 8');
    // Synced people sign in with their directory passwords.
    expect(await signIn('lixin', directoryPassword('lixin'))).toEqual({ status: 303, ticket: true });
    await refused(c.call(admin, 'POST', `${SYNC}/runs/${previewId}/execute`), 409, SyncMessage.previewConsumed);
    expect((await jobList())[0]?.lastRun).toMatchObject({ id: previewId, status: 'succeeded' });

    // In step: the next preview has nothing to do.
    const again = await preview();
    expect(again.counts).toEqual(ZERO);
    expect(await items(again.id)).toEqual([]);
  });

  it('a renamed entry is an 更新 of the same account', async () => {
    const id = (await c.row(admin, 'lixin'))?.id;
    await changeDirectory(ldap, async (client) => {
      await client.modifyDN(personDn({ uid: 'lixin', ou: 'rd' }), `uid=lixin2,ou=rd,${HENGYUE_PEOPLE}`);
      await client.modify(groupDn('研发中心'), [
        replace('member', [`uid=lixin2,ou=rd,${HENGYUE_PEOPLE}`, personDn({ uid: 'zhaomin', ou: 'rd' })]),
      ]);
    });
    const summary = await preview();
    expect(summary.counts).toEqual({ ...ZERO, update: 1 });
    const [item] = await items(summary.id);
    expect(item).toMatchObject({
      kind: 'user',
      action: 'update',
      username: 'lixin2',
      changes: [{ field: '账号', from: 'lixin', to: 'lixin2' }],
    });
    expect((await execute(summary.id)).status).toBe('succeeded');
    expect((await c.row(admin, 'lixin2'))?.id).toBe(id);
    expect(await c.row(admin, 'lixin')).toBeUndefined();
    expect(await signIn('lixin2', directoryPassword('lixin'))).toEqual({ status: 303, ticket: true });
  });

  it('an entry moved to another OU is a 移动 with its 账号组', async () => {
    await changeDirectory(ldap, async (client) => {
      await client.modifyDN(personDn({ uid: 'zhaomin', ou: 'rd' }), personDn({ uid: 'zhaomin', ou: 'sales' }));
      await client.modify(groupDn('研发中心'), [remove('member', [personDn({ uid: 'zhaomin', ou: 'rd' })])]);
      await client.modify(groupDn('销售部'), [add('member', [personDn({ uid: 'zhaomin', ou: 'sales' })])]);
    });
    const summary = await preview();
    expect(summary.counts).toEqual({ ...ZERO, move: 1 });
    const [item] = await items(summary.id);
    expect(item).toMatchObject({ action: 'move', username: 'zhaomin' });
    expect(item?.changes).toEqual([
      { field: '位置', from: `ou=rd,${HENGYUE_PEOPLE}`, to: expect.stringContaining('ou=sales') as unknown },
      { field: '账号组', from: '研发中心', to: '销售部' },
    ]);
    expect((await execute(summary.id)).status).toBe('succeeded');
    expect((await c.row(admin, 'zhaomin'))?.groups.map((g) => g.name)).toEqual(['销售部']);
  });

  it('a deleted entry is 停用: the account is disabled and its sessions end', async () => {
    const token = await tokenFor(t, 'qianlei');
    const signedIn = () => t.app.inject({ url: '/web-api/identity/v1/prefix/list', headers: { authorization: token } });
    expect((await signedIn()).statusCode).not.toBe(401);
    await changeDirectory(ldap, async (client) => {
      await client.modify(groupDn('生产制造部'), [remove('member', [personDn({ uid: 'qianlei', ou: 'production' })])]);
      await client.del(personDn({ uid: 'qianlei', ou: 'production' }));
    });
    const summary = await preview();
    expect(summary.counts).toEqual({ ...ZERO, disable: 1 });
    expect(await items(summary.id)).toMatchObject([
      { action: 'disable', username: 'qianlei', name: '钱磊', changes: [{ field: '状态', from: '启用', to: '停用' }] },
    ]);
    expect((await execute(summary.id)).status).toBe('succeeded');
    expect((await c.row(admin, 'qianlei'))?.state).toBe('disabled');
    expect((await signedIn()).statusCode).toBe(401);
    expect((await signIn('qianlei', directoryPassword('qianlei'))).ticket).toBe(false);
  });

  it('a leaver who comes back is enabled again; an account an administrator disabled stays disabled', async () => {
    const sunli = personDn({ uid: 'sunli', ou: 'production' });
    await changeDirectory(ldap, (client) => client.modify(sunli, [add('employeeType', ['left'])]));
    const left = await preview();
    expect(await items(left.id)).toMatchObject([{ action: 'disable', username: 'sunli' }]);
    await execute(left.id);
    expect((await c.row(admin, 'sunli'))?.state).toBe('disabled');
    expect((await signIn('sunli', directoryPassword('sunli'))).ticket).toBe(false);

    const zhoutao = (await c.row(admin, 'zhoutao'))?.id;
    expect((await c.call(admin, 'PUT', `/account/${zhoutao}/status`, { status: 'disabled' })).statusCode).toBe(200);

    await changeDirectory(ldap, (client) => client.modify(sunli, [remove('employeeType')]));
    const back = await preview();
    expect(back.counts).toEqual({ ...ZERO, update: 1 });
    expect(await items(back.id)).toMatchObject([
      { action: 'update', username: 'sunli', changes: [{ field: '状态', from: '停用', to: '启用' }] },
    ]);
    await execute(back.id);
    expect((await c.row(admin, 'sunli'))?.state).toBe('active');
    expect(await signIn('sunli', directoryPassword('sunli'))).toEqual({ status: 303, ticket: true });
    expect((await c.row(admin, 'zhoutao'))?.state).toBe('disabled');
  });

  it('a person without a mobile fails with the reason while the others are applied (部分失败)', async () => {
    await changeDirectory(ldap, async (client) => {
      await client.add(`uid=wuqiang,ou=sales,${HENGYUE_PEOPLE}`, person('wuqiang', 'sales', '吴强'));
      await client.add(`uid=fengyu,ou=sales,${HENGYUE_PEOPLE}`, person('fengyu', 'sales', '冯雨', '13910000006'));
    });
    const summary = await preview();
    expect(summary.counts).toEqual({ ...ZERO, create: 1, failed: 1 });
    expect((await items(summary.id)).find((i) => i.username === 'wuqiang')).toMatchObject({ status: 'planned', error: MISSING_PHONE });

    const done = await execute(summary.id);
    expect(done).toMatchObject({ status: 'partial', counts: { ...ZERO, create: 1, failed: 1 } });
    expect(await items(summary.id, '&status=failed')).toMatchObject([{ username: 'wuqiang', status: 'failed', error: MISSING_PHONE }]);
    expect(await items(summary.id, '&status=succeeded')).toMatchObject([{ username: 'fengyu', action: 'create' }]);
    expect(await c.row(admin, 'fengyu')).toMatchObject({ name: '冯雨', phone: '13910000006' });
    expect(await c.row(admin, 'wuqiang')).toBeUndefined();
    const partial = await c.data<{ total: number; rows: SyncRunSummary[] }>(c.call(admin, 'GET', `${SYNC}/runs?status=partial`));
    expect(partial.rows.map((r) => r.id)).toEqual([summary.id]);
  });

  it('a preview older than the directory expires and writes nothing', async () => {
    const summary = await preview();
    await changeDirectory(ldap, (client) => client.modify(`uid=fengyu,ou=sales,${HENGYUE_PEOPLE}`, [replace('cn', ['冯宇'])]));
    await refused(c.call(admin, 'POST', `${SYNC}/runs/${summary.id}/execute`), 409, SyncMessage.previewExpired);
    expect((await run(summary.id)).status).toBe('expired');
    expect((await c.row(admin, 'fengyu'))?.name).toBe('冯雨');
    await refused(c.call(admin, 'POST', `${SYNC}/runs/${summary.id}/execute`), 409, SyncMessage.notPreview);
  });

  it('two executions at once: one runs, the other is told the job is busy', async () => {
    const summary = await preview();
    const answers = await Promise.all([1, 2].map(() => c.call(admin, 'POST', `${SYNC}/runs/${summary.id}/execute`)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.statusCode === 409)?.json().msg).toBe(SyncMessage.busy);
    expect((await c.row(admin, 'fengyu'))?.name).toBe('冯宇');
  });

  it('a username taken between preview and 执行 fails that person only, with the reason', async () => {
    await changeDirectory(ldap, async (client) => {
      await client.add(`uid=hanmei,ou=rd,${HENGYUE_PEOPLE}`, person('hanmei', 'rd', '韩梅', '13910000008'));
      await client.add(`uid=songjia,ou=rd,${HENGYUE_PEOPLE}`, person('songjia', 'rd', '宋佳', '13910000012'));
    });
    const summary = await preview();
    expect(summary.counts).toEqual({ ...ZERO, create: 2, failed: 1 });
    const created = await c.call(admin, 'POST', '/account', {
      username: 'hanmei',
      name: '韩梅',
      phone: '13800000099',
      groupIds: [],
      roleIds: [],
      passwordMode: 'manual',
      password: await c.encoded('Hanmei#2026'),
    });
    expect(created.statusCode, created.body).toBe(200);
    const done = await execute(summary.id);
    expect(done).toMatchObject({ status: 'partial', counts: { ...ZERO, create: 1, failed: 2 } });
    expect((await items(summary.id)).filter((i) => i.kind === 'user').map((i) => [i.username, i.status, i.error])).toEqual([
      ['hanmei', 'failed', '账号或手机号已被其他账号使用（执行期间被占用）'],
      ['songjia', 'succeeded', ''],
      ['wuqiang', 'failed', MISSING_PHONE],
    ]);
    expect(await c.row(admin, 'hanmei')).toMatchObject({ phone: '13800000099' });
    expect(await c.row(admin, 'songjia')).toMatchObject({ phone: '13910000012', groups: [] });
  });

  it('applies more than one batch', async () => {
    const before = await accountCount();
    await changeDirectory(ldap, async (client) => {
      await client.del(`uid=hanmei,ou=rd,${HENGYUE_PEOPLE}`);
      await client.del(`uid=wuqiang,ou=sales,${HENGYUE_PEOPLE}`);
      for (let i = 0; i < 105; i++) {
        const uid = `worker${String(i).padStart(3, '0')}`;
        await client.add(
          `uid=${uid},ou=production,${HENGYUE_PEOPLE}`,
          person(uid, 'production', `工人${i}`, `1372000${String(i).padStart(4, '0')}`),
        );
      }
    });
    const summary = await preview();
    expect(summary.counts).toEqual({ ...ZERO, create: 105 });
    expect(await execute(summary.id)).toMatchObject({ status: 'succeeded', counts: { ...ZERO, create: 105 } });
    expect(await accountCount()).toBe(before + 105);
    expect(await c.row(admin, 'worker104')).toMatchObject({ name: '工人104', phone: '13720000104', state: 'active' });
  }, 60_000);

  it('the schedule runs a due job on exactly one of two instances', async () => {
    await changeDirectory(ldap, async (client) => {
      await client.add(`uid=chenhao,ou=rd,${HENGYUE_PEOPLE}`, person('chenhao', 'rd', '陈浩', '13910000007'));
    });
    await c.data(c.call(admin, 'PUT', `${SYNC}/jobs/${jobId}`, jobBody({ cron: '*/5 * * * *' })));
    const other = await secondInstance(t);
    try {
      const at = new Date(Date.now() + 10 * 60_000);
      const started = await Promise.all([t.app.syncScheduleService.tick(at), other.app.syncScheduleService.tick(at)]);
      expect(started.flat()).toHaveLength(1);
      const scheduled = await run(started.flat()[0] ?? 0);
      expect(scheduled).toMatchObject({ status: 'succeeded', trigger: 'schedule', operator: '', counts: { ...ZERO, create: 1 } });
      expect(await c.row(admin, 'chenhao')).toMatchObject({ name: '陈浩', groups: [] });
      // Its next start moved on: ticking again at the same moment runs nothing.
      expect(await Promise.all([t.app.syncScheduleService.tick(at), other.app.syncScheduleService.tick(at)])).toEqual([[], []]);
      const [job] = await jobList();
      expect(job?.lastRun?.id).toBe(scheduled.id);
      expect(job?.nextRunAt && job.nextRunAt > '2000').toBe(true);
    } finally {
      await other.close();
    }
  });

  it('an unreachable source: the preview answers its error, executing and scheduled runs fail with it and nothing changes', async () => {
    const before = await c.page(admin);
    const pending = await preview();
    const { db } = t.database;
    const source = await db.selectFrom('auth_source').select('config').where('id', '=', sourceId).executeTakeFirstOrThrow();
    await db
      .updateTable('auth_source')
      .set({ config: JSON.stringify({ ...JSON.parse(source.config), url: 'ldap://127.0.0.1:1' }) })
      .where('id', '=', sourceId)
      .execute();

    const res = await c.call(admin, 'POST', `${SYNC}/jobs/${jobId}/preview`);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().msg).toMatch(/无法连接到 127.0.0.1:1（连接被拒绝，该端口没有服务在监听）/);

    const executed = await c.call(admin, 'POST', `${SYNC}/runs/${pending.id}/execute`);
    expect(executed.statusCode, executed.body).toBe(200);
    expect(executed.json().msg).toMatch(/^同步失败：.*无法连接到 127.0.0.1:1（连接被拒绝/);
    expect((await run(pending.id)).status).toBe('failed');
    expect((await run(pending.id)).error).toMatch(/无法连接到 127.0.0.1:1（连接被拒绝，该端口没有服务在监听）/);

    const [runId] = await t.app.syncScheduleService.tick(new Date(Date.now() + 60 * 60_000));
    const failed = await run(runId ?? 0);
    expect(failed).toMatchObject({ status: 'failed', trigger: 'schedule', counts: ZERO });
    expect(failed.error).toMatch(/无法连接到 127.0.0.1:1（连接被拒绝，该端口没有服务在监听）/);
    expect((await c.page(admin)).rows).toEqual(before.rows);
    const [audit] = await c.audit(admin, 'auth-sync.execute');
    expect(audit).toMatchObject({ outcome: 'failure', target: '恒岳目录同步' });

    await db.updateTable('auth_source').set({ status: 'disabled' }).where('id', '=', sourceId).execute();
    await refused(c.call(admin, 'POST', `${SYNC}/jobs/${jobId}/preview`), 400, SyncMessage.sourceDisabled);
  });
});

describe.each(testDialects())('同步 takes over existing accounts only where it is safe, on %s', (dialect) => {
  let t: TestApp;
  let ldap: SlapdServer;
  afterAll(async () => {
    await t?.close();
    await ldap?.stop();
  });

  it('a plain staff account with the person’s phone is linked; an administrator’s never is', async () => {
    ldap = await startSlapd({ suffix: HENGYUE_SUFFIX, entries: hengyueDirectory() });
    t = await createSyncTestApp(dialect);
    const c = consoleClient(t);
    const admin = await tokenFor(t, 'admin');
    const { db } = t.database;
    // 刘洋 (普通员工) and 张伟 (企业管理员) carry the phones of two directory people.
    await db.updateTable('account').set({ phone: '13910000002' }).where('username', '=', 'liuyang').execute();
    await db.updateTable('account').set({ phone: '13910000001' }).where('username', '=', 'admin').execute();
    const sourceId = await addLdapSource(t, HENGYUE, ldap.url);
    const job = await c.data<{ id: number }>(
      c.call(admin, 'POST', `${SYNC}/jobs`, {
        sourceId,
        name: '恒岳目录同步',
        mapping: SYNC_MAPPING_DEFAULTS,
        cron: '',
        leaverRule: 'disable',
        enabled: true,
      }),
    );
    const run = await c.data<SyncRunSummary>(c.call(admin, 'POST', `${SYNC}/jobs/${job.id}/preview`));
    const rows = (await c.data<{ rows: SyncRunItem[] }>(c.call(admin, 'GET', `${SYNC}/runs/${run.id}/items?limit=100`))).rows;
    const zhaomin = rows.find((i) => i.externalId && i.name === '赵敏');
    const lixin = rows.find((i) => i.name === '李鑫');
    expect(zhaomin).toMatchObject({ action: 'update', error: '' });
    expect(zhaomin?.changes[0]).toMatchObject({ field: '关联已有账号', to: 'liuyang' });
    expect(lixin).toMatchObject({ action: 'create', error: '手机号 13910000001 已被其他账号使用' });
  }, 60_000);

  it('a scheduled run whose source answers with nobody disables nobody: the run fails and says why', async () => {
    const c = consoleClient(t);
    const admin = await tokenFor(t, 'admin');
    const { db } = t.database;
    const { id: sourceId } = await db.selectFrom('auth_source').select('id').executeTakeFirstOrThrow();
    const job = await c.data<{ id: number }>(
      c.call(admin, 'POST', `${SYNC}/jobs`, {
        sourceId,
        name: '每日同步',
        mapping: SYNC_MAPPING_DEFAULTS,
        cron: '0 2 * * *',
        leaverRule: 'disable',
        enabled: true,
      }),
    );
    const first = await c.data<SyncRunSummary>(c.call(admin, 'POST', `${SYNC}/jobs/${job.id}/preview`));
    // 李鑫 stays refused (the administrator's phone); everyone else is linked.
    expect((await c.data<SyncRunSummary>(c.call(admin, 'POST', `${SYNC}/runs/${first.id}/execute`))).status).toBe('partial');
    // The filter now matches nobody, as when the service account loses its read rights.
    const { config } = await db.selectFrom('auth_source').select('config').where('id', '=', sourceId).executeTakeFirstOrThrow();
    await db
      .updateTable('auth_source')
      .set({ config: JSON.stringify({ ...JSON.parse(config), userFilter: '(uid=nobody-here)' }) })
      .where('id', '=', sourceId)
      .execute();
    const [runId] = await t.app.syncScheduleService.tick(new Date(Date.now() + 2 * 86_400_000));
    const run = await c.data<SyncRunSummary>(c.call(admin, 'GET', `${SYNC}/runs/${runId}`));
    expect(run).toMatchObject({ status: 'failed', trigger: 'schedule' });
    expect(run.error).toContain('认证源未返回任何用户');
    const linked = await db
      .selectFrom('account')
      .innerJoin('account_identity', 'account_identity.account_id', 'account.id')
      .select('account.status')
      .where('account_identity.source_id', '=', sourceId)
      .execute();
    expect(linked.length).toBeGreaterThan(0);
    expect(linked.every((a) => a.status === 'active')).toBe(true);

    // 刘洋's account, taken over as 赵敏's, signs in with the directory's password only: once the source is
    // disabled, its old local password does not come back to life (an administrator resets it).
    const base = await listen(t.app);
    await db.updateTable('auth_source').set({ status: 'disabled' }).where('id', '=', sourceId).execute();
    expect((await passwordLogin(base, 'zhaomin', DEMO_PASSWORD)).status).toBe(401);
    // 张伟, whom the directory did not take over, keeps his.
    expect((await passwordLogin(base, 'admin', DEMO_PASSWORD)).status).toBe(200);
  }, 60_000);
});
