import {
  OPEN_SERVICE_BODY_MAX,
  OPEN_SERVICE_SUMMARY_MAX,
  OPEN_SERVICE_TITLE_MAX,
  type OpenServiceTool,
  type OpenServiceToolAdmin,
  type OpenServiceToolBody,
  type OpenServiceToolCard,
  XSS_CORPUS,
  hasActiveContent,
} from '@portal/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../app.js';
import { migrateToLatest } from '../../../platform/db/migrate.js';
import { CONTENT_CACHE, publicCacheControl } from '../../../platform/plugins/http-cache.js';
import { sanitizeArticleHtml } from '../../../platform/lib/sanitize-article.js';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';
import { EARLIER_IDENTITY_TOOL } from './earlier-identity-tool.js';

const TOOLS = '/web-api/portal/v1/open-service/tools';
const CONSOLE = '/web-api/console/v1/open-service/tool';

/** The home page's developer-tools showcase (spec section 9): ids, titles and icons the centre keeps. */
const SHOWCASE = [
  { id: '01', title: '移动开发平台及 SDK', icon: 'mobile' },
  { id: '02', title: '可视化编辑器', icon: 'control' },
  { id: '03', title: '统一身份认证集成', icon: 'safety-certificate' },
  { id: '04', title: '物联网平台', icon: 'deployment-unit' },
  { id: '05', title: '微服务集群', icon: 'cluster' },
  { id: '06', title: '工业机理模型', icon: 'experiment' },
];

describe.each(testDialects())('开放服务 API on %s', (dialect) => {
  let t: TestApp;
  let operator: string;
  let admin: string;
  let staff: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    [operator, admin, staff] = await Promise.all([tokenFor(t, 'operator'), tokenFor(t, 'admin'), tokenFor(t, 'staff')]);
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'PUT', url: string, token: string | undefined, payload?: object) =>
    t.app.inject({
      method,
      url,
      headers: { 'x-requested-with': 'XMLHttpRequest', ...(token ? { authorization: token } : {}) },
      ...(payload ? { payload } : {}),
    });
  const cards = async () => (await t.app.inject({ url: TOOLS })).json().data as OpenServiceToolCard[];
  const detail = (id: string) => t.app.inject({ url: `${TOOLS}/${id}` });
  const consoleList = async () => (await call('GET', `${CONSOLE}/list`, operator)).json().data as OpenServiceToolAdmin[];
  const bodyOf = (tool: OpenServiceToolAdmin): OpenServiceToolBody => ({
    title: tool.title,
    summary: tool.summary,
    body: tool.body,
    icon: tool.icon,
    sort: tool.sort,
    status: tool.status,
  });
  const current = async (id: string) => (await consoleList()).find((tool) => tool.id === id)!;
  // Bad values too: the server is what refuses them.
  const save = async (id: string, changes: Partial<Record<keyof OpenServiceToolBody, string | number>>) =>
    call('PUT', `${CONSOLE}/${id}`, operator, { ...bodyOf(await current(id)), ...changes });

  it('shows the six tools of the showcase in order, each with distinct content in the four sections', async () => {
    const list = await cards();
    expect(list.map(({ id, title, icon }) => ({ id, title, icon }))).toEqual(SHOWCASE);
    expect(new Set(list.map((c) => c.summary)).size).toBe(6);
    const bodies: string[] = [];
    for (const card of list) {
      const res = await detail(card.id);
      expect(res.statusCode, res.body).toBe(200);
      const tool = res.json().data[0] as OpenServiceTool;
      expect(tool).toMatchObject(card);
      expect(tool.updatedAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      const headings = [...tool.body.matchAll(/<h2>([^<]+)<\/h2>/g)].map((m) => m[1]);
      expect(headings).toEqual(['简介', '核心能力', '快速开始', '开发文档']);
      expect(hasActiveContent(tool.body)).toBe(false);
      bodies.push(tool.body);
    }
    expect(new Set(bodies).size).toBe(6);
    // 统一身份认证集成 describes this portal's CAS 3.0: registration, authorization, the endpoints, attributes, single logout.
    const identity = bodies[2]!;
    for (const text of ['应用列表', '应用授权', '/cas/login', '/cas/p3/serviceValidate', 'enterpriseName', 'logoutRequest']) {
      expect(identity).toContain(text);
    }
  });

  it('answers the centre the way other published content is cached: shared caches briefly, browsers revalidate', async () => {
    for (const url of [TOOLS, `${TOOLS}/01`]) {
      const res = await t.app.inject({ url });
      expect(res.headers['cache-control']).toBe(publicCacheControl(CONTENT_CACHE));
      const again = await t.app.inject({ url, headers: { 'if-none-match': String(res.headers.etag) } });
      expect(again.statusCode).toBe(304);
    }
  });

  it.each(['07', '00', 'abc', '1', '%E5%B7%A5'])(
    'answers 404 to the unknown tool id %s, shared like a tool (a proxy drops one taken offline)',
    async (id) => {
      const res = await detail(id);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ code: 1, msg: '工具不存在或已下线' });
      expect(res.headers['cache-control']).toMatch(/^public, max-age=0, s-maxage=\d+/);
    },
  );

  it('lets only operators with 开放服务 list and edit: 401 without a token, 403 for staff and enterprise administrators', async () => {
    const tool = await current('02');
    for (const [token, status] of [
      [undefined, 401],
      [staff, 403],
      [admin, 403],
    ] as const) {
      const list = await call('GET', `${CONSOLE}/list`, token);
      expect(list.statusCode).toBe(status);
      const put = await call('PUT', `${CONSOLE}/02`, token, { ...bodyOf(tool), title: '被拒绝的修改' });
      expect(put.statusCode).toBe(status);
      if (status === 403) expect(put.json()).toEqual({ code: 1, msg: '当前账号无权限' });
    }
    expect((await current('02')).title).toBe('可视化编辑器');
  });

  it('shows an edit on the public centre at once: title, order, offline and back online', async () => {
    // Fill this instance's caches first: the write must drop them.
    expect((await cards()).map((c) => c.id)).toEqual(['01', '02', '03', '04', '05', '06']);
    expect((await detail('04')).statusCode).toBe(200);

    const edited = await save('04', { title: '物联网接入平台', sort: 0 });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().msg).toBe('已保存');
    expect(edited.json().data[0]).toMatchObject({ id: '04', title: '物联网接入平台', sort: 0, status: 'online' });
    expect((await cards()).map((c) => c.id)).toEqual(['04', '01', '02', '03', '05', '06']);
    expect((await detail('04')).json().data[0].title).toBe('物联网接入平台');

    expect((await save('05', { status: 'offline' })).statusCode).toBe(200);
    expect((await cards()).map((c) => c.id)).not.toContain('05');
    const hidden = await detail('05');
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toEqual({ code: 1, msg: '工具不存在或已下线' });
    // The console keeps every tool, offline ones included, in the same order as the centre.
    expect((await consoleList()).map((c) => [c.id, c.status])).toEqual([
      ['04', 'online'],
      ['01', 'online'],
      ['02', 'online'],
      ['03', 'online'],
      ['05', 'offline'],
      ['06', 'online'],
    ]);

    expect((await save('05', { status: 'online' })).statusCode).toBe(200);
    expect((await detail('05')).statusCode).toBe(200);
    const audit = await t.database.db
      .selectFrom('audit_log')
      .select(['action', 'target', 'outcome'])
      .where('action', '=', 'content.open-service.update')
      .execute();
    expect(audit).toEqual(
      expect.arrayContaining([{ action: 'content.open-service.update', target: '04 物联网接入平台', outcome: 'success' }]),
    );
  });

  it.each(XSS_CORPUS)('stores and shows the body without anything active: %s', async (payload) => {
    const res = await save('06', { body: `<h2>简介</h2><p>前文</p>${payload}<p>后文</p>` });
    expect(res.statusCode, res.body).toBe(200);
    const shown = (await detail('06')).json().data[0] as OpenServiceTool;
    expect(hasActiveContent(shown.body), shown.body).toBe(false);
    expect(shown.body).toContain('前文');
    expect(hasActiveContent((await current('06')).body)).toBe(false);
  });

  it('refuses a body with nothing left after sanitising', async () => {
    const before = await current('06');
    const res = await save('06', { body: '<script>alert(1)</script><iframe src="https://evil.example/"></iframe>' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 1, msg: '请输入工具介绍' });
    expect((await current('06')).body).toBe(before.body);
  });

  it.each([
    [{ title: '  ' }, '请输入工具名称'],
    [{ title: '工'.repeat(OPEN_SERVICE_TITLE_MAX + 1) }, `工具名称最多${OPEN_SERVICE_TITLE_MAX}个字符`],
    [{ summary: '' }, '请输入工具简介'],
    [{ summary: '简'.repeat(OPEN_SERVICE_SUMMARY_MAX + 1) }, `工具简介最多${OPEN_SERVICE_SUMMARY_MAX}个字符`],
    [{ body: '' }, '请输入工具介绍'],
    [{ body: `<p>${'文'.repeat(OPEN_SERVICE_BODY_MAX)}</p>` }, `工具介绍最多${OPEN_SERVICE_BODY_MAX}个字符`],
    [{ icon: 'rocket' }, '请从图标列表中选择图标'],
    [{ sort: -1 }, '排序须为 0 到 999 之间的整数'],
    [{ sort: 1000 }, '排序须为 0 到 999 之间的整数'],
    [{ sort: 1.5 }, '排序须为 0 到 999 之间的整数'],
    // Numbers beyond what a database integer holds are refused before any route (platform/plugins/input-guard.ts).
    [{ sort: 1e20 }, '请求体 sort 超出允许范围'],
    [{ status: 'draft' }, '状态须为上线或下线'],
  ])('refuses %j with a Chinese message and writes nothing', async (changes, msg) => {
    const before = await current('01');
    const res = await save('01', changes);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 1, msg });
    expect(await current('01')).toEqual(before);
  });

  it('refuses a title another tool has, an unknown id and a body missing a field', async () => {
    const taken = await save('01', { title: '可视化编辑器' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ code: 1, msg: '已有同名的工具' });
    const unknown = await call('PUT', `${CONSOLE}/07`, operator, bodyOf(await current('01')));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ code: 1, msg: '工具不存在' });
    const { icon: _icon, ...withoutIcon } = bodyOf(await current('01'));
    const missing = await call('PUT', `${CONSOLE}/01`, operator, withoutIcon);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ code: 1, msg: '缺少必填请求体 icon' });
    const failures = await t.database.db
      .selectFrom('audit_log')
      .select(['target', 'detail'])
      .where('action', '=', 'content.open-service.update')
      .where('outcome', '=', 'failure')
      .execute();
    expect(failures).toEqual(expect.arrayContaining([{ target: '01', detail: '已有同名的工具' }]));
  });

  it('brings 统一身份认证集成 as an earlier release wrote it to the current text (SAML 2.0) at the next start; an edited text stays', async () => {
    const setTexts = (texts: { summary: string; body: string }) =>
      t.database.db.updateTable('open_service_tool').set(texts).where('id', '=', '03').execute();
    /** Tool 03 as the centre shows it after a start (server.ts: migrate, then build the app). */
    const afterStart = async () => {
      await migrateToLatest(t.database.db, t.database.dialect);
      const restarted = await buildApp({ config: t.config, database: t.database, logger: false });
      try {
        return (await restarted.inject({ url: `${TOOLS}/03` })).json().data[0] as OpenServiceTool;
      } finally {
        await restarted.close();
      }
    };
    const current = (await detail('03')).json().data[0] as OpenServiceTool;
    expect(current.summary).toContain('SAML 2.0');
    for (const earlier of EARLIER_IDENTITY_TOOL) {
      await setTexts({ summary: earlier.summary, body: sanitizeArticleHtml(earlier.body) });
      const upgraded = await afterStart();
      expect(upgraded.summary).toBe(current.summary);
      expect(upgraded.body).toBe(current.body);
      for (const text of [
        '{门户地址}/saml/metadata',
        '实体 ID',
        '断言消费地址（ACS',
        '单点登出地址（SLO',
        'NameID 格式',
        'enterpriseName',
      ]) {
        expect(upgraded.body).toContain(text);
      }
    }
    // An operator's edit of the body stays; the summary nobody touched still follows.
    const [earlier] = EARLIER_IDENTITY_TOOL;
    const edited = `${sanitizeArticleHtml(earlier.body)}<p>本企业的接入联系人：信息中心。</p>`;
    await setTexts({ summary: earlier.summary, body: edited });
    expect(await afterStart()).toMatchObject({ summary: current.summary, body: edited });
    await setTexts({ summary: current.summary, body: current.body });
  });

  it('brings back a missing tool at the next start and keeps the operators’ edits', async () => {
    expect((await save('02', { title: '低代码可视化编辑器' })).statusCode).toBe(200);
    // A tool lost outside the console (a restored backup, a manual delete): the next start adds it again.
    await t.database.db.deleteFrom('open_service_tool').where('id', '=', '03').execute();
    expect((await detail('03')).statusCode).toBe(404);
    // What a start does (server.ts): migrate, then build the app.
    await migrateToLatest(t.database.db, t.database.dialect);
    const restarted = await buildApp({ config: t.config, database: t.database, logger: false });
    try {
      const list = (await restarted.inject({ url: TOOLS })).json().data as OpenServiceToolCard[];
      expect(list.map((c) => c.id).sort()).toEqual(['01', '02', '03', '04', '05', '06']);
      expect(list.find((c) => c.id === '02')?.title).toBe('低代码可视化编辑器');
      const identity = await restarted.inject({ url: `${TOOLS}/03` });
      expect(identity.json().data[0]).toMatchObject({ id: '03', title: '统一身份认证集成', icon: 'safety-certificate' });
    } finally {
      await restarted.close();
    }
  });
});
