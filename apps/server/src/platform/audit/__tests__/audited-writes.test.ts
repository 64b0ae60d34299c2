import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects, tokenFor } from '../../../testing/test-app.js';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);
const IMAGE = '/uploads/2026/05/0c6d4f1e-1111-4222-8333-944455556666.png';
const MACHINERY_VALUES = {
  productName: '挖掘机',
  productModel: 'HY-E60',
  serialNumber: 'SN-AUDIT-1',
  productionDate: '2024-01-01',
  manufacturer: '徐州恒岳重工机械有限公司',
  warrantyPeriod: '12个月',
  serviceHotline: '0516-87886000',
};
const CSV_HEADER = '标识后缀,产品名称,产品型号,出厂编号,生产日期,生产厂家,主要参数,质保期,售后电话';
const csvRow = (suffix: string) =>
  `${suffix},轮式装载机,HY-L50,SN-${suffix},2025-04-01,徐州恒岳重工机械有限公司,额定载重量 5 t,36个月,0516-87886000`;
const TEMPLATE_ITEMS = [
  { name: '产品名称', idType: 'productName', required: true, metadata: { type: 'string', minLength: 1, maxLength: 20 } },
];

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
interface Answer {
  statusCode: number;
  body: string;
  json(): { code: number; msg: string; data: unknown[] };
}

/**
 * A console write and its audit row are committed together: when the audit row
 * cannot be written, the write is rolled back and the caller gets an error, never a success without
 * its audit row.
 */
describe.each(testDialects())('console writes and their audit rows on %s', (dialect) => {
  let t: TestApp;
  let operator: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    operator = await tokenFor(t, 'operator');
  });
  afterAll(() => t.close());

  const call = async (method: Method, url: string, payload?: object): Promise<Answer> =>
    t.app.inject({
      method,
      url,
      headers: { 'x-requested-with': 'XMLHttpRequest', authorization: operator },
      ...(payload ? { payload } : {}),
    });
  const multipart = (url: string, filename: string, type: string, bytes: Buffer): Promise<Answer> => {
    const boundary = '----audited-write';
    return t.app.inject({
      method: 'POST',
      url,
      headers: {
        'x-requested-with': 'XMLHttpRequest',
        authorization: operator,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload: Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
        ),
        bytes,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    });
  };
  const data = async (url: string) => {
    const answer = await call('GET', url);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json().data;
  };
  const created = async (answer: Promise<Answer>) => {
    const res = await answer;
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data[0] as Record<string, unknown>;
  };

  /** The audit log's table is out of reach while `fn` runs: every audit insert fails. */
  const withBrokenAuditLog = async <T>(fn: () => Promise<T>): Promise<T> => {
    await t.database.db.schema.alterTable('audit_log').renameTo('audit_log_away').execute();
    try {
      return await fn();
    } finally {
      await t.database.db.schema.alterTable('audit_log_away').renameTo('audit_log').execute();
    }
  };

  const articles = () => data('/web-api/cms/v1/article/page/list?offset=0&limit=100');
  const newArticle = async () =>
    String(
      (
        await created(
          call('POST', '/web-api/cms/v1/article', { title: `审计文章 ${Math.random()}`, content: '<p>正文</p>', categoryId: 'news' }),
        )
      ).uuid,
    );
  const categories = () => data('/web-api/cms/v1/category/list');
  const applications = () => data('/web-api/console/v1/application/list');
  const application = (name: string, status = 'published') => ({
    name,
    applicationDescription: '审计测试应用',
    imagePath: IMAGE,
    category: '数据分析',
    provider: '平台运营中心',
    recommended: false,
    status,
  });
  const homeBlocks = () => data('/web-api/console/v1/home-block/list');
  const award = (title: string) => ({ kind: 'award', title, icon: IMAGE, enabled: true });
  const prefixes = () => data('/web-api/identity/v1/prefix/list');
  const templates = () => data('/web-api/identity/v1/template/list');
  const records = () => data('/web-api/identity/v1/record/page/list?offset=0&limit=100');
  const machinery = async () =>
    (await t.database.db.selectFrom('idf_template').select('id').where('name', '=', '工程机械整机').executeTakeFirstOrThrow()).id;
  const uploads = () => {
    const root = path.join(t.config.filesDir, 'uploads');
    if (!fs.existsSync(root)) return [];
    return fs
      .readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name)
      .sort();
  };

  /** Each case: what it changes as a client sees it, and the write (after any preparation it needs). */
  const cases: { name: string; state: () => Promise<unknown>; prepare?: () => Promise<string>; write: (id: string) => Promise<Answer> }[] =
    [
      {
        name: 'create an article',
        state: articles,
        write: () => call('POST', '/web-api/cms/v1/article', { title: '审计失败时不应出现', content: '<p>正文</p>', categoryId: 'news' }),
      },
      {
        name: 'edit an article',
        state: articles,
        prepare: newArticle,
        write: (uuid) =>
          call('PUT', `/web-api/cms/v1/article/${uuid}`, { title: '改过的标题', content: '<p>新正文</p>', categoryId: 'news' }),
      },
      {
        name: 'publish an article',
        state: articles,
        prepare: newArticle,
        write: (uuid) => call('POST', `/web-api/cms/v1/article/${uuid}/publish`),
      },
      {
        name: 'delete an article',
        state: articles,
        prepare: newArticle,
        write: (uuid) => call('DELETE', `/web-api/cms/v1/article/${uuid}`),
      },
      {
        name: 'create a category',
        state: categories,
        write: () => call('POST', '/web-api/cms/v1/category', { code: 'audit-new', name: '审计栏目', channel: 'news' }),
      },
      { name: 'rename a category', state: categories, write: () => call('PUT', '/web-api/cms/v1/category/news', { name: '新闻（改）' }) },
      {
        name: 'delete a category',
        state: categories,
        prepare: async () => {
          await created(call('POST', '/web-api/cms/v1/category', { code: 'audit-gone', name: '待删栏目', channel: 'news' }));
          return 'audit-gone';
        },
        write: (code) => call('DELETE', `/web-api/cms/v1/category/${code}`),
      },
      {
        name: 'create an application',
        state: applications,
        write: () => call('POST', '/web-api/console/v1/application', application('审计应用')),
      },
      {
        name: 'edit an application',
        state: applications,
        prepare: async () =>
          String((await created(call('POST', '/web-api/console/v1/application', application('待改应用')))).applicationUuid),
        write: (uuid) => call('PUT', `/web-api/console/v1/application/${uuid}`, application('改过的应用')),
      },
      {
        name: 'reorder the applications',
        state: applications,
        write: async () => {
          const uuids = ((await applications()) as { applicationUuid: string }[]).map((a) => a.applicationUuid).reverse();
          return call('PUT', '/web-api/console/v1/application/order', { uuids });
        },
      },
      {
        name: 'delete an application',
        state: applications,
        prepare: async () =>
          String((await created(call('POST', '/web-api/console/v1/application', application('待删应用', 'offline')))).applicationUuid),
        write: (uuid) => call('DELETE', `/web-api/console/v1/application/${uuid}`),
      },
      { name: 'create a home block', state: homeBlocks, write: () => call('POST', '/web-api/console/v1/home-block', award('审计荣誉')) },
      {
        name: 'edit a home block',
        state: homeBlocks,
        prepare: async () => String((await created(call('POST', '/web-api/console/v1/home-block', award('待改荣誉')))).id),
        write: (id) => call('PUT', `/web-api/console/v1/home-block/${id}`, award('改过的荣誉')),
      },
      {
        name: 'reorder home blocks',
        state: homeBlocks,
        write: async () => {
          const ids = ((await data('/web-api/console/v1/home-block/list?kind=award')) as { id: number }[]).map((b) => b.id).reverse();
          return call('PUT', '/web-api/console/v1/home-block/order', { kind: 'award', ids });
        },
      },
      {
        name: 'delete a home block',
        state: homeBlocks,
        prepare: async () => String((await created(call('POST', '/web-api/console/v1/home-block', award('待删荣誉')))).id),
        write: (id) => call('DELETE', `/web-api/console/v1/home-block/${id}`),
      },
      {
        name: 'assign a prefix',
        state: prefixes,
        prepare: async () => String(((await data('/web-api/identity/v1/enterprise/list')) as { id: number }[])[0]!.id),
        write: (enterpriseId) =>
          call('POST', '/web-api/identity/v1/prefix', { prefix: '88.301', name: '审计前缀', enterpriseId: Number(enterpriseId) }),
      },
      {
        name: 'edit a prefix',
        state: prefixes,
        prepare: async () => String(((await prefixes()) as { prefix: string; enterpriseId: number }[])[0]!.enterpriseId),
        write: async (enterpriseId) => {
          const [first] = (await prefixes()) as { prefix: string }[];
          return call('PUT', `/web-api/identity/v1/prefix/${first!.prefix}`, { name: '改过的前缀', enterpriseId: Number(enterpriseId) });
        },
      },
      {
        name: 'delete a prefix',
        state: prefixes,
        prepare: async () => {
          const [enterprise] = (await data('/web-api/identity/v1/enterprise/list')) as { id: number }[];
          await created(call('POST', '/web-api/identity/v1/prefix', { prefix: '88.302', name: '待删前缀', enterpriseId: enterprise!.id }));
          return '88.302';
        },
        write: (prefix) => call('DELETE', `/web-api/identity/v1/prefix/${prefix}`),
      },
      {
        name: 'create a template',
        state: templates,
        write: () => call('POST', '/web-api/identity/v1/template', { prefix: '88.118.8', name: '审计模板', items: TEMPLATE_ITEMS }),
      },
      {
        name: 'save a template version',
        state: templates,
        prepare: async () =>
          String(
            (await created(call('POST', '/web-api/identity/v1/template', { prefix: '88.118.8', name: '待改模板', items: TEMPLATE_ITEMS })))
              .id,
          ),
        write: (id) => call('PUT', `/web-api/identity/v1/template/${id}`, { name: '改过的模板', items: TEMPLATE_ITEMS }),
      },
      {
        name: 'delete a template',
        state: templates,
        prepare: async () =>
          String(
            (await created(call('POST', '/web-api/identity/v1/template', { prefix: '88.118.8', name: '待删模板', items: TEMPLATE_ITEMS })))
              .id,
          ),
        write: (id) => call('DELETE', `/web-api/identity/v1/template/${id}`),
      },
      {
        name: 'create a record',
        state: records,
        prepare: async () => String(await machinery()),
        write: (templateId) =>
          call('POST', '/web-api/identity/v1/record', {
            prefix: '88.118.8',
            suffix: 'AUDIT-NEW',
            templateId: Number(templateId),
            values: MACHINERY_VALUES,
          }),
      },
      {
        name: 'edit a record',
        state: records,
        prepare: async () =>
          String(
            (
              await created(
                call('POST', '/web-api/identity/v1/record', {
                  prefix: '88.118.8',
                  suffix: 'AUDIT-EDIT',
                  templateId: await machinery(),
                  values: MACHINERY_VALUES,
                }),
              )
            ).id,
          ),
        write: (id) => call('PUT', `/web-api/identity/v1/record/${id}`, { values: { ...MACHINERY_VALUES, productModel: 'HY-E61' } }),
      },
      {
        name: 'delete a record',
        state: records,
        prepare: async () =>
          String(
            (
              await created(
                call('POST', '/web-api/identity/v1/record', {
                  prefix: '88.118.8',
                  suffix: 'AUDIT-GONE',
                  templateId: await machinery(),
                  values: MACHINERY_VALUES,
                }),
              )
            ).id,
          ),
        write: (id) => call('DELETE', `/web-api/identity/v1/record/${id}`),
      },
      {
        name: 'import records from CSV',
        state: records,
        prepare: async () => String(await machinery()),
        write: (templateId) =>
          multipart(
            `/web-api/identity/v1/record/import?templateId=${templateId}`,
            'records.csv',
            'text/csv',
            Buffer.from([CSV_HEADER, csvRow('AUDIT-IM-1'), csvRow('AUDIT-IM-2')].join('\n')),
          ),
      },
      {
        name: 'upload an image',
        state: async () => uploads(),
        write: () => multipart('/web-api/files/v1/upload', 'cover.png', 'image/png', PNG),
      },
    ];

  it.each(cases)('$name: nothing is written when its audit row cannot be', async ({ state, prepare, write }) => {
    const id = prepare ? await prepare() : '';
    const before = await state();
    const refused = await withBrokenAuditLog(() => write(id));
    expect(refused.statusCode, refused.body).toBe(500);
    expect(refused.json()).toEqual({ code: 1, msg: '服务器内部错误，请稍后重试' });
    expect(await state()).toEqual(before);
    // The same write, audited, changes what the state shows: the check above would have seen it.
    const done = await write(id);
    expect(done.statusCode, done.body).toBe(200);
    expect(await state()).not.toEqual(before);
  });
});
