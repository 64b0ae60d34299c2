import { type ComplianceControl, type ComplianceReport, type SecurityPolicy, applySecurityPreset, securityPreset } from '@portal/shared';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chinaDate } from '../../../platform/lib/china-time.js';
import { readLabelPdf } from '../../../testing/label-pdf-reader.js';
import { type TestApp, callerFor, createTestApp, testDialects, tokenFor } from '../../../testing/test-app.js';
import { consoleClient } from '../../org/__tests__/account-test-client.js';

const HENGYUE = '徐州恒岳重工机械有限公司';
const RUICHI = '常州瑞驰液压科技有限公司';
const DAY = 86_400_000;

describe.each(testDialects())('安全合规 API on %s', (dialect) => {
  let t: TestApp;
  let c: ReturnType<typeof consoleClient>;
  let admin: string;
  let rcadmin: string;
  let staff: string;
  const today = chinaDate(new Date());
  const weekAgo = chinaDate(new Date(Date.now() - 7 * DAY));
  // A past period with rows on and just outside its edges (China midnight is 16:00Z the day before).
  const periodStart = chinaDate(new Date(Date.now() - 20 * DAY));
  const periodEnd = chinaDate(new Date(Date.now() - 10 * DAY));
  const startEdge = new Date(Date.parse(`${periodStart}T00:00:00+08:00`));
  const endEdge = new Date(Date.parse(`${periodEnd}T23:59:59.999+08:00`));

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = consoleClient(t);
    [admin, rcadmin, staff] = await Promise.all([tokenFor(t, 'admin'), tokenFor(t, 'rcadmin'), tokenFor(t, 'staff')]);
    // The period's sign-ins as the central login writes them: 恒岳's, 瑞驰's, and one of 恒岳's before the period.
    const [hengyue, ruichi] = await Promise.all([callerFor(t, 'admin'), callerFor(t, 'rcadmin')]);
    const at = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY).toISOString();
    const row = (who: typeof hengyue, result: 'success' | 'failure', reason: string, daysAgo: number) => ({
      enterprise_id: who.enterpriseId,
      account_id: who.accountId,
      username: who.username,
      result,
      reason,
      created_at: at(daysAgo),
    });
    await t.database.db
      .insertInto('login_log')
      .values([
        row(hengyue, 'success', '', 1),
        row(hengyue, 'success', '', 2),
        row(hengyue, 'failure', 'bad-password', 2),
        row(hengyue, 'failure', 'locked', 2),
        row(hengyue, 'failure', 'locked', 2),
        row(hengyue, 'failure', 'two-factor-failed', 3),
        row(hengyue, 'failure', 'locked', 30),
        ...Array.from({ length: 7 }, () => row(ruichi, 'failure', 'locked', 1)),
      ])
      .execute();
    const edges = [startEdge.getTime() - 1, startEdge.getTime(), endEdge.getTime(), endEdge.getTime() + 1].map((ms) =>
      new Date(ms).toISOString(),
    );
    expect(edges[1]).toMatch(/T16:00:00\.000Z$/);
    expect(edges[2]).toMatch(/T15:59:59\.999Z$/);
    await t.database.db
      .insertInto('login_log')
      .values(edges.map((created_at) => ({ ...row(hengyue, 'success', '', 0), created_at })))
      .execute();
    await t.database.db
      .insertInto('audit_log')
      .values(
        edges.map((created_at) => ({
          account_id: hengyue.accountId,
          username: hengyue.username,
          enterprise_id: hengyue.enterpriseId,
          action: 'security.policy',
          ip: '192.0.2.10',
          outcome: 'success' as const,
          created_at,
        })),
      )
      .execute();
  });
  afterAll(() => t.close());

  const reportOf = (token: string) => c.data<ComplianceReport>(c.call(token, 'GET', '/security/compliance'));
  const control = (report: ComplianceReport, id: string): ComplianceControl => {
    const found = report.controls.find((x) => x.id === id);
    if (!found) throw new Error(`no control ${id}`);
    return found;
  };
  const results = (report: ComplianceReport, framework: 'djcp' | 'asvs') =>
    Object.fromEntries(report.controls.filter((x) => x.framework === framework).map((x) => [x.id, x.passed]));
  const applyPreset = async (token: string, key: 'djcp3' | 'nist') => {
    const current = await c.data<SecurityPolicy>(c.call(token, 'GET', '/security/policy'));
    const res = await c.call(token, 'PUT', '/security/policy', applySecurityPreset(current, securityPreset(key)));
    expect(res.statusCode, res.body).toBe(200);
  };

  it('evaluates the platform defaults: weak settings fail with their clause, what is set and what to change', async () => {
    const report = await reportOf(admin);
    expect(report.enterpriseName).toBe(HENGYUE);
    expect(report.auditRetentionDays).toBe(180);
    const complexity = control(report, 'djcp-a-complexity');
    expect(complexity).toMatchObject({
      clause: 'GB/T 22239-2019 8.1.4.1 身份鉴别 a)',
      title: '口令复杂度',
      current: '密码最短长度 6 位；密码必须包含 不限',
      passed: false,
      remedy: '在安全设置中将密码最短长度设为不少于 8 位，并勾选至少三类必须包含的字符',
    });
    expect(control(report, 'djcp-d-mfa')).toMatchObject({ passed: false, current: '二次验证 关闭' });
    expect(control(report, 'djcp-audit-c')).toMatchObject({ passed: true, current: '哈希链防篡改；保存 180 天，到期归档', remedy: '' });
    // ASVS forbids what 等保 asks for: no composition rules and no rotation pass there.
    expect(control(report, 'asvs-6.2.5')).toMatchObject({ clause: 'ASVS 5.0 6.2.5', passed: true });
    expect(control(report, 'asvs-6.2.10').passed).toBe(true);
    const djcp = report.scores.find((s) => s.framework === 'djcp');
    expect(djcp).toMatchObject({ total: 11, passed: 5, score: 45 });
  });

  it('等保三级 preset: saved through 安全设置, every 等保 control passes (transport where the portal is served over HTTPS)', async () => {
    await applyPreset(admin, 'djcp3');
    const report = await reportOf(admin);
    expect(results(report, 'djcp')).toEqual({
      'djcp-a-identity': true,
      'djcp-a-complexity': true,
      'djcp-a-expiry': true,
      'djcp-a-history': true,
      'djcp-b-lockout': true,
      'djcp-b-timeout': true,
      // The test portal answers over plain HTTP: the one control the enterprise cannot change.
      'djcp-c-transport': false,
      'djcp-d-mfa': true,
      'djcp-audit-a': true,
      'djcp-audit-b': true,
      'djcp-audit-c': true,
    });
    expect(control(report, 'djcp-c-transport').remedy).toBe('请平台管理员为门户配置 HTTPS 访问地址（PUBLIC_URL）');
    const overHttps = await t.app.complianceService.report((await callerFor(t, 'admin')).enterpriseId, {
      ...(await callerFor(t, 'admin')),
      origin: 'https://portal.example.cn',
    });
    expect(overHttps.scores.find((s) => s.framework === 'djcp')).toMatchObject({ passed: 11, total: 11, score: 100 });
    // The baselines disagree: composition rules and rotation fail ASVS.
    expect(control(report, 'asvs-6.2.5').passed).toBe(false);
    expect(control(report, 'asvs-6.2.10').passed).toBe(false);
    // 瑞驰 saved nothing: its report is its own.
    expect(control(await reportOf(rcadmin), 'djcp-a-complexity').passed).toBe(false);
  });

  it('NIST/ASVS preset: every ASVS control passes, 等保 complexity and rotation fail', async () => {
    await applyPreset(rcadmin, 'nist');
    const report = await reportOf(rcadmin);
    expect(report.enterpriseName).toBe(RUICHI);
    expect(Object.values(results(report, 'asvs')).every(Boolean)).toBe(true);
    expect(report.scores.find((s) => s.framework === 'asvs')).toMatchObject({ passed: 9, total: 9, score: 100 });
    expect(control(report, 'djcp-a-complexity').passed).toBe(false);
    expect(control(report, 'djcp-a-expiry').passed).toBe(false);
    expect(control(report, 'asvs-7.1.2').current).toBe('同时在线会话数上限 5 个；超出上限时 结束最早的会话');
  });

  it('按角色 meets 等保 d) only when the chosen roles reach every administrator; ASVS asks for 全员', async () => {
    const current = await c.data<SecurityPolicy>(c.call(admin, 'GET', '/security/policy'));
    const roles = (await c.options(admin)).roles;
    const roleId = (name: string) => roles.find((r) => r.name === name)?.id ?? 0;
    const byRoles = async (names: string[]) => {
      const res = await c.call(admin, 'PUT', '/security/policy', { ...current, twoFactor: 'roles', twoFactorRoles: names.map(roleId) });
      expect(res.statusCode, res.body).toBe(200);
      return reportOf(admin);
    };

    const quality = await byRoles(['质检员']);
    expect(control(quality, 'djcp-d-mfa')).toMatchObject({
      passed: false,
      current: expect.stringMatching(/^二次验证 按角色；\d+ 名管理员不持有所选角色$/) as string,
      remedy: '在安全设置中将二次验证设为仅管理员或全员，或按角色时选择覆盖全部管理员的角色',
    });
    const admins = await byRoles(['企业管理员', '质检员']);
    expect(control(admins, 'djcp-d-mfa')).toMatchObject({ passed: true, current: '二次验证 按角色；所选角色覆盖全部管理员', remedy: '' });
    expect(control(admins, 'asvs-6.3.3').passed).toBe(false);

    // A preset keeps the roles for later and never drops 验证器应用, so no account is left unable to sign in.
    const withSmsOnly = { ...current, twoFactor: 'roles' as const, twoFactorRoles: [roleId('质检员')], twoFactorMethods: ['sms' as const] };
    const next = applySecurityPreset(withSmsOnly, securityPreset('djcp3'));
    expect(next).toMatchObject({ twoFactor: 'admins', twoFactorRoles: [roleId('质检员')], twoFactorMethods: ['totp', 'sms'] });
    const saved = await c.call(admin, 'PUT', '/security/policy', next);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(control(await reportOf(admin), 'djcp-d-mfa').passed).toBe(true);
  });

  it('exports the control table as CSV', async () => {
    const res = await c.call(admin, 'GET', '/security/compliance/export');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(String(res.headers['content-disposition'])).toContain("filename*=UTF-8''%E5%AE%89%E5%85%A8%E5%90%88%E8%A7%84");
    const rows = parse(res.body, { bom: true }) as string[][];
    expect(rows[0]).toEqual(['标准', '条款', '控制项', '要求', '当前设置', '结果', '整改建议', '企业', '评估时间']);
    expect(rows).toHaveLength(21);
    expect(rows.find((r) => r[2] === '口令复杂度')).toEqual([
      '等保 2.0 第三级（GB/T 22239-2019 安全计算环境）',
      'GB/T 22239-2019 8.1.4.1 身份鉴别 a)',
      '口令复杂度',
      '密码最短 8 位，且至少包含三类字符',
      '密码最短长度 8 位；密码必须包含 小写字母、大写字母、数字',
      '通过',
      '',
      HENGYUE,
      expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
    ]);
    expect(rows.find((r) => r[1] === 'ASVS 5.0 6.2.5')?.[5]).toBe('未通过');
    const [entry] = await c.audit(admin, 'security.compliance-export');
    expect(entry).toMatchObject({ target: '控制项 CSV', outcome: 'success' });
  });

  it('draws the evidence pack: settings, the control table and the period’s statistics of the enterprise only', async () => {
    const res = await c.call(admin, 'GET', `/security/compliance/evidence?start=${weekAgo}&end=${today}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const pages = await readLabelPdf(res.rawPayload);
    // Table cells wrap and pdf.js spaces words as it likes: compared without white space.
    const text = pages
      .map((p) => p.text)
      .join('')
      .replace(/\s+/g, '');
    const flat = (s: string) => s.replace(/\s+/g, '');
    expect(text).toContain('安全合规证据包');
    expect(text).toContain(HENGYUE);
    expect(text).toContain(flat(`${weekAgo} 至 ${today}`));
    expect(text).toContain('密码有效期90天');
    // Every control, with its clause and result.
    const report = await reportOf(admin);
    for (const x of report.controls) expect(text).toContain(flat(`${x.clause}${x.title}${x.current}${x.passed ? '通过' : '未通过'}`));
    // The period's sign-ins: 恒岳's own (瑞驰's seven lockouts and the month-old one are not counted).
    expect(text).toContain('登录成功2');
    expect(text).toContain('登录失败4');
    expect(text).toContain('账号锁定（锁定期间的登录尝试）2锁定期间被拒绝登录的账号1');
    expect(text).toContain('二次验证失败1');
    for (const score of report.scores) expect(text).toContain(`${score.passed}/${score.total}项通过，${score.score}分`);
    expect(text).not.toContain('得分');
    expect(text).not.toContain('已按保留期清除');
    // The console saves it under the same name (安全合规证据包-<start>-<end>.pdf).
    expect(String(res.headers['content-disposition'])).toContain(
      `filename*=UTF-8''${encodeURIComponent(`安全合规证据包-${weekAgo}-${today}.pdf`)}`,
    );
    expect(text).not.toContain(RUICHI);
    const [entry] = await c.audit(admin, 'security.compliance-export');
    expect(entry).toMatchObject({ target: `证据包 ${weekAgo} 至 ${today}`, outcome: 'success' });
  });

  it('counts a period from China midnight to the last millisecond of its end day, and nothing just outside', async () => {
    const res = await c.call(admin, 'GET', `/security/compliance/evidence?start=${periodStart}&end=${periodEnd}`);
    expect(res.statusCode, res.body).toBe(200);
    const text = (await readLabelPdf(res.rawPayload))
      .map((p) => p.text)
      .join('')
      .replace(/\s+/g, '');
    expect(text).toContain('登录成功2登录失败0');
    expect(text).toContain('操作成功2操作失败0');
  });

  it('says when the period starts before the sign-in records kept (LOGIN_LOG_RETENTION_DAYS, 180)', async () => {
    const start = chinaDate(new Date(Date.now() - 200 * DAY));
    const res = await c.call(admin, 'GET', `/security/compliance/evidence?start=${start}&end=${today}`);
    expect(res.statusCode, res.body).toBe(200);
    const text = (await readLabelPdf(res.rawPayload))
      .map((p) => p.text)
      .join('')
      .replace(/\s+/g, '');
    const horizon = chinaDate(new Date(Date.now() - 180 * DAY));
    expect(text).toMatch(new RegExp(`区间早于${horizon}\\d{2}:\\d{2}:\\d{2}的登录记录已按保留期清除`));
  });

  it('draws one evidence pack at a time on an instance; another asked meanwhile is refused in Chinese', async () => {
    const ask = () => c.call(rcadmin, 'GET', `/security/compliance/evidence?start=${weekAgo}&end=${today}`);
    const answers = await Promise.all([ask(), ask()]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 429]);
    expect(answers.find((a) => a.statusCode === 429)?.json()).toEqual({ code: 1, msg: '另一份证据包正在生成，请稍后再试' });
    expect((await ask()).statusCode).toBe(200);
  });

  it('refuses a bad period in Chinese', async () => {
    const tomorrow = chinaDate(new Date(Date.now() + DAY));
    const refusals: [string, string][] = [
      ['start=2026-02-30&end=2026-03-01', '开始日期格式应为 yyyy-MM-dd'],
      ['start=20260101&end=2026-03-01', '开始日期格式应为 yyyy-MM-dd'],
      [`start=${weekAgo}&end=x`, '结束日期格式应为 yyyy-MM-dd'],
      [`start=${today}&end=${weekAgo}`, '开始日期不能晚于结束日期'],
      [`start=${weekAgo}&end=${tomorrow}`, '结束日期不能晚于今天'],
      [`start=${chinaDate(new Date(Date.now() - 400 * DAY))}&end=${today}`, '统计区间最长 366 天'],
    ];
    for (const [query, msg] of refusals) {
      const res = await c.call(admin, 'GET', `/security/compliance/evidence?${query}`);
      expect([res.statusCode, res.json()], query).toEqual([400, { code: 1, msg }]);
    }
    expect((await c.call(admin, 'GET', `/security/compliance/evidence?start=${weekAgo}`)).statusCode).toBe(400);
  });

  it('belongs to holders of security:compliance', async () => {
    // Platform operators belong to no enterprise: the role does not hold it.
    const operator = await tokenFor(t, 'operator');
    expect((await c.call(operator, 'GET', '/security/compliance')).statusCode).toBe(403);
    expect((await c.call(staff, 'GET', '/security/compliance')).statusCode).toBe(403);
    expect((await c.call(staff, 'GET', '/security/compliance/export')).statusCode).toBe(403);
    expect((await c.call(staff, 'GET', `/security/compliance/evidence?start=${weekAgo}&end=${today}`)).statusCode).toBe(403);
  });
});
