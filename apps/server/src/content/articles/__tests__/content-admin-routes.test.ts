import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';
import { imageTypeOf } from '../../files/upload-service.js';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);

describe('uploaded image types', () => {
  it('are recognised by their bytes; SVG and text are refused', () => {
    expect(imageTypeOf(PNG)?.mime).toBe('image/png');
    expect(imageTypeOf(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))?.ext).toBe('jpg');
    expect(imageTypeOf(Buffer.from('GIF89a...'))?.ext).toBe('gif');
    expect(imageTypeOf(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))?.ext).toBe('webp');
    expect(imageTypeOf(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'))).toBeUndefined();
  });
});

describe.each(testDialects())('content write API on %s', (dialect) => {
  let t: TestApp;
  let operator: string;
  let staff: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    operator = await tokenFor(t, 'operator');
    staff = await tokenFor(t, 'staff');
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string | undefined, payload?: object) =>
    t.app.inject({
      method,
      url,
      headers: { 'x-requested-with': 'XMLHttpRequest', ...(token ? { authorization: token } : {}) },
      ...(payload ? { payload } : {}),
    });
  const article = {
    title: '徐工集团发布新一代电动挖掘机远程运维方案',
    summary: '依托工业互联网平台，实现设备状态实时监测与故障预警。',
    content: '<p>方案覆盖<strong>设备接入</strong>、数据分析与售后服务。</p><script>alert(1)</script><img src="x" onerror="alert(1)">',
    categoryId: 'news',
    dataSourceName: '平台运营中心',
  };
  const publishedList = async (query: string) =>
    (await t.app.inject({ url: `/open-api/cms/v1/article/published/page/list?offset=0&limit=10${query}` })).json().data[0] as {
      rows: { uuid: string; title: string }[];
      total: number;
    };

  it('is closed to visitors (20300) and to staff without the authority (403)', async () => {
    expect((await call('POST', '/web-api/cms/v1/article', undefined, article)).json().code).toBe(20300);
    const denied = await call('POST', '/web-api/cms/v1/article', staff, article);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ code: 1, msg: '当前账号无权限' });
    expect((await call('GET', '/web-api/cms/v1/category/list', staff)).statusCode).toBe(403);
    // The authority is checked before the body: a malformed body still gets 403, not a schema message.
    const malformed = await call('POST', '/web-api/cms/v1/article', staff, { title: 1 });
    expect(malformed.statusCode).toBe(403);
    expect((await call('POST', '/web-api/files/v1/upload', staff)).statusCode).toBe(403);
  });

  it('the management list filters by publish time (drafts have none) and by a category with its children', async () => {
    type Row = { uuid: string; status: string; publishTime: string; categoryId: string };
    const page = async (query: string) =>
      (await call('GET', `/web-api/cms/v1/article/page/list?limit=100${query}`, operator)).json().data[0] as { rows: Row[]; total: number };
    const all = await page('');
    const dated = all.rows.filter((r) => r.publishTime).sort((a, b) => a.publishTime.localeCompare(b.publishTime));
    const from = dated[1]!.publishTime;
    const to = dated[3]!.publishTime;
    const ranged = await page(`&filterStartTime=${encodeURIComponent(from)}&filterEndTime=${encodeURIComponent(to)}`);
    expect(ranged.total).toBeGreaterThan(0);
    expect(ranged.rows.every((r) => r.publishTime >= from && r.publishTime <= to && r.status !== 'draft')).toBe(true);
    const reversed = await call(
      'GET',
      `/web-api/cms/v1/article/page/list?filterStartTime=${encodeURIComponent(to)}&filterEndTime=${encodeURIComponent(from)}`,
      operator,
    );
    expect(from < to).toBe(true);
    expect(reversed.json()).toEqual({ code: 1, msg: '开始时间不能晚于结束时间' });
    const badTime = await call('GET', '/web-api/cms/v1/article/page/list?filterStartTime=2026-01-01', operator);
    expect(badTime.statusCode).toBe(400);
    const policy = await page('&categoryId=policy');
    const categories = (await call('GET', '/web-api/cms/v1/category/list', operator)).json().data as {
      categoryId: string;
      parentId: string | null;
    }[];
    const policyFamily = new Set(['policy', ...categories.filter((c) => c.parentId === 'policy').map((c) => c.categoryId)]);
    expect(policy.rows.length).toBeGreaterThan(0);
    expect(policy.rows.every((r) => policyFamily.has(r.categoryId))).toBe(true);
    expect(policy.rows.some((r) => r.categoryId !== 'policy')).toBe(true);
  });

  it('draft → published → offline → deleted, sanitised on write, searchable at once, audited', async () => {
    const searched = async (key: string) => (await publishedList(`&searchKey=${encodeURIComponent(key)}`)).total;
    const before = { 电动: await searched('电动'), 远程运维: await searched('远程运维'), 正式上线: await searched('正式上线') };
    const created = await call('POST', '/web-api/cms/v1/article', operator, article);
    expect(created.statusCode, created.body).toBe(200);
    const draft = created.json().data[0];
    expect(draft).toMatchObject({ status: 'draft', publishTime: '', categoryId: 'news', title: article.title });
    expect(draft.content).toContain('<strong>设备接入</strong>');
    expect(draft.content).not.toMatch(/script|onerror/);
    // A draft is not public.
    expect((await t.app.inject({ url: `/open-api/cms/v1/article/${draft.uuid}/detail` })).statusCode).toBe(404);

    const published = await call('POST', `/web-api/cms/v1/article/${draft.uuid}/publish`, operator);
    expect(published.json().msg).toBe('文章已发布');
    expect(published.json().data[0].publishTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const first = await publishedList('');
    expect(first.rows[0]?.uuid).toBe(draft.uuid);
    // Found by a 2-character and a 3+-character key (grams and the trigram index were written).
    expect((await publishedList(`&searchKey=${encodeURIComponent('电动')}`)).rows.map((r) => r.uuid)).toContain(draft.uuid);
    expect((await publishedList(`&searchKey=${encodeURIComponent('远程运维方案')}`)).rows.map((r) => r.uuid)).toContain(draft.uuid);
    expect((await call('POST', `/web-api/cms/v1/article/${draft.uuid}/publish`, operator)).statusCode).toBe(409);
    // The totals a visitor saw before count the new article at once.
    expect(await searched('电动')).toBe(before.电动 + 1);
    expect(await searched('远程运维')).toBe(before.远程运维 + 1);

    const edited = await call('PUT', `/web-api/cms/v1/article/${draft.uuid}`, operator, {
      ...article,
      title: '电动挖掘机远程运维方案正式上线',
    });
    expect(edited.json().data[0].title).toBe('电动挖掘机远程运维方案正式上线');
    expect((await publishedList(`&searchKey=${encodeURIComponent('正式上线')}`)).rows.map((r) => r.uuid)).toEqual([draft.uuid]);
    expect((await publishedList(`&searchKey=${encodeURIComponent('徐工集团发布')}`)).rows.map((r) => r.uuid)).not.toContain(draft.uuid);
    expect(await searched('正式上线')).toBe(before.正式上线 + 1);

    // An operator's write shows in the next public read on this instance.
    expect((await t.app.inject({ url: `/open-api/cms/v1/article/${draft.uuid}/detail` })).statusCode).toBe(200);
    expect((await call('POST', `/web-api/cms/v1/article/${draft.uuid}/unpublish`, operator)).json().msg).toBe('文章已下线');
    expect((await t.app.inject({ url: `/open-api/cms/v1/article/${draft.uuid}/detail` })).statusCode).toBe(404);
    expect((await publishedList('')).rows.map((r) => r.uuid)).not.toContain(draft.uuid);
    expect({ 电动: await searched('电动'), 远程运维: await searched('远程运维'), 正式上线: await searched('正式上线') }).toEqual(before);
    const adminList = (await call('GET', '/web-api/cms/v1/article/page/list?status=offline', operator)).json().data[0];
    expect(adminList.rows.map((r: { uuid: string }) => r.uuid)).toContain(draft.uuid);

    expect((await call('DELETE', `/web-api/cms/v1/article/${draft.uuid}`, operator)).json().msg).toBe('文章已删除');
    expect((await call('GET', `/web-api/cms/v1/article/${draft.uuid}`, operator)).statusCode).toBe(404);
    const grams = await t.database.db.selectFrom('cms_article_gram').select('article_id').where('article_id', '=', draft.id).execute();
    expect(grams).toEqual([]);
    const actions = await t.database.db.selectFrom('audit_log').select('action').where('username', '=', 'operator').execute();
    expect(actions.map((a) => a.action)).toEqual(
      expect.arrayContaining([
        'content.article.create',
        'content.article.publish',
        'content.article.update',
        'content.article.unpublish',
        'content.article.delete',
      ]),
    );
  });

  it('an article filed at the policy root is a policy in the public detail; console answers are never stored', async () => {
    const created = await call('POST', '/web-api/cms/v1/article', operator, {
      ...article,
      categoryId: 'policy',
      number: '工信部〔2026〕3号',
    });
    expect(created.headers['cache-control']).toBe('private, no-store');
    const { uuid } = created.json().data[0];
    expect((await call('POST', `/web-api/cms/v1/article/${uuid}/publish`, operator)).statusCode).toBe(200);
    const detail = await t.app.inject({ url: `/open-api/cms/v1/article/${uuid}/detail` });
    expect(detail.json().data[0]).toMatchObject({
      categoryId: 'policy',
      subCategoryId: 'policy',
      subCategoryName: '政策法规',
      number: '工信部〔2026〕3号',
    });
    const consoleRead = await call('GET', `/web-api/cms/v1/article/${uuid}`, operator);
    expect(consoleRead.statusCode).toBe(200);
    expect(consoleRead.headers['cache-control']).toBe('private, no-store');
    expect((await call('DELETE', `/web-api/cms/v1/article/${uuid}`, operator)).json().msg).toBe('文章已删除');
  });

  it('refuses bad articles with a Chinese message and writes nothing', async () => {
    const before = await t.database.db
      .selectFrom('cms_article')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    for (const [patch, msg] of [
      [{ title: '  ' }, '请输入文章标题'],
      [{ content: '<script>alert(1)</script>' }, '请输入文章正文'],
      [{ categoryId: 'nope' }, '分类不存在'],
      [{ thumbnail: 'javascript:alert(1)' }, '缩略图地址格式不正确'],
      [{ thumbnail: '/../../etc/passwd' }, '缩略图地址格式不正确'],
    ] as const) {
      const res = await call('POST', '/web-api/cms/v1/article', operator, { ...article, ...patch });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ code: 1, msg });
    }
    const tooLong = await call('POST', '/web-api/cms/v1/article', operator, { ...article, title: '长'.repeat(201) });
    expect(tooLong.json()).toEqual({ code: 1, msg: '请求体 title 长度不正确' });
    const after = await t.database.db
      .selectFrom('cms_article')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('categories: create under a parent, rename, refuse deleting one in use, delete an empty one', async () => {
    // Read first, so the public tree is in the cache: the write must drop it.
    await t.app.inject({ url: '/open-api/cms/v1/category/tree?channel=news' });
    const created = await call('POST', '/web-api/cms/v1/category', operator, {
      code: 'ev-machinery',
      name: '电动化装备',
      channel: 'news',
      parentId: 'policy',
    });
    expect(created.json().msg, created.body).toBe('分类已创建');
    const tree = (await t.app.inject({ url: '/open-api/cms/v1/category/tree?channel=news' })).json().data;
    expect(
      tree.find((c: { categoryId: string }) => c.categoryId === 'policy').children.map((c: { categoryId: string }) => c.categoryId),
    ).toContain('ev-machinery');
    expect(
      (await call('POST', '/web-api/cms/v1/category', operator, { code: 'ev-machinery', name: '重复', channel: 'news' })).statusCode,
    ).toBe(409);
    expect((await call('POST', '/web-api/cms/v1/category', operator, { code: 'Bad Code', name: 'x', channel: 'news' })).json().msg).toMatch(
      /分类编码/,
    );
    expect(
      (
        await call('POST', '/web-api/cms/v1/category', operator, { code: 'deep', name: 'x', channel: 'news', parentId: 'ev-machinery' })
      ).json().msg,
    ).toBe('分类最多两级');
    expect((await call('PUT', '/web-api/cms/v1/category/ev-machinery', operator, { name: '电动化与新能源装备' })).json().msg).toBe(
      '分类已保存',
    );
    expect((await call('DELETE', '/web-api/cms/v1/category/news', operator)).json().msg).toBe('该分类下还有文章，不能删除');
    expect((await call('DELETE', '/web-api/cms/v1/category/policy', operator)).json().msg).toBe('该分类下还有子分类，不能删除');
    expect((await call('DELETE', '/web-api/cms/v1/category/ev-machinery', operator)).json().msg).toBe('分类已删除');
    const list = (await call('GET', '/web-api/cms/v1/category/list', operator)).json().data;
    expect(list.find((c: { categoryId: string }) => c.categoryId === 'news').articleCount).toBeGreaterThan(0);
  });

  it('uploads images by their bytes and serves them under /files', async () => {
    const form = (name: string, type: string, bytes: Buffer) => {
      const boundary = '----portal-test';
      const body = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`),
        bytes,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      return t.app.inject({
        method: 'POST',
        url: '/web-api/files/v1/upload',
        headers: {
          'x-requested-with': 'XMLHttpRequest',
          authorization: operator,
          'content-type': `multipart/form-data; boundary=${boundary}`,
        },
        payload: body,
      });
    };
    const uploaded = await form('cover.png', 'image/png', PNG);
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const { path } = uploaded.json().data[0];
    expect(path).toMatch(/^\/uploads\/\d{4}\/\d{2}\/[0-9a-f-]{36}\.png$/);
    const served = await t.app.inject({ url: `/files${path}` });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    const svg = await form('x.png', 'image/png', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'));
    expect(svg.json()).toEqual({ code: 1, msg: '只能上传 PNG、JPEG、GIF 或 WebP 图片' });
  });
});
