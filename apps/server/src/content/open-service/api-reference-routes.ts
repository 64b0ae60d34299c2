import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiPrefix, type ApiReferenceGroup, ApiReferenceGroupSchema, type ApiReferenceOperation, OpenServiceMessage } from '@portal/shared';
import type { FastifyRequest } from 'fastify';
import type { JSONSchema7, JSONSchema7Definition, JSONSchema7Type } from 'json-schema';
import { sample } from 'openapi-sampler';
import { publicSiteUrl, resolveRuntimeConfig } from '../../platform/config.js';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { NotFoundError } from '../../platform/lib/errors.js';
import { requestOrigin } from '../../platform/lib/request-origin.js';
import { CONTENT_CACHE } from '../../platform/plugins/http-cache.js';
import { DEFAULT_SORT_ORDER } from '../articles/article-repository.js';
import { oidcReferenceGroup } from './oidc-reference.js';
import { samlReferenceGroup } from './saml-reference.js';

/** What this module reads of the OpenAPI document (@fastify/swagger's OpenAPI 3). */
type Schema = JSONSchema7 & { nullable?: boolean };
interface OpenApiParameter {
  in: string;
  name: string;
  required?: boolean;
  description?: string;
  schema?: Schema;
}
interface OpenApiOperation {
  summary?: string;
  description?: string;
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}
interface OpenApiDocument {
  paths?: Record<string, Record<string, OpenApiOperation | undefined> | undefined>;
}

/** An operation of the allow-list: where it is in the document and what its example request sends. */
interface ReferenceEntry {
  /** The path as the OpenAPI document names it. */
  path: string;
  /** GET unless given. */
  method?: 'POST' | 'PUT';
  /** The example request's JSON body. */
  body?: Record<string, unknown>;
  /** What a developer should know beyond the summary (the protocol clause, when to call it). */
  description: string;
  /** Values of the example request, by parameter name; required parameters must have one. */
  examples?: Record<string, string | number>;
  /** What a parameter means, where the document does not say. */
  notes?: Record<string, string>;
  /** Parameters the protocol requires though the route accepts their absence, to answer it in the protocol's own terms. */
  required?: readonly string[];
  /** Response members left out of the example (absent from this endpoint's successful answer). */
  omit?: string[];
  /** The example of a text answer (a page or CAS 1.0's plain text), which has no structure to sample. */
  text?: string;
  /** curl's -i: the status line and headers matter (pages, redirects). */
  headers?: boolean;
}
interface ReferenceGroupDefinition {
  key: string;
  title: string;
  description: string;
  /** The portal's API address, or its CAS server's (`…/cas`, prefixed to the path's tail). */
  base: 'api' | 'cas';
  /** Calls with a machine client's access token (the example request sends one). */
  bearer?: boolean;
  /** Listed only where the embedded CAS, and with it the OpenID provider, runs. */
  embeddedOnly?: boolean;
  operations: ReferenceEntry[];
}

/** A machine's identifier record as a factory's MES registers it (the demo template 工程机械整机). */
const EXAMPLE_MACHINE_VALUES = {
  productName: '中型履带式液压挖掘机',
  productModel: 'HY-E215',
  serialNumber: 'HYE2152026000001',
  productionDate: '2026-05-12',
  manufacturer: '徐州恒岳重工机械有限公司',
  warrantyPeriod: '36个月或5000小时',
  serviceHotline: '400-800-1234',
};

const EXAMPLE_SERVICE = 'https://eam.example.cn/';
const EXAMPLE_TICKET = 'ST-1-Vq3xMj8bN0uYc2LdKp7sHw';
const CAS_SUCCESS_ONLY = ['authenticationFailure'];
/** CAS 3.0 §2.4.1, §2.5.1: a validation without them is answered INVALID_REQUEST, not with a schema error. */
const CAS_VALIDATE_REQUIRED = ['service', 'ticket'];
/** The CAS parameters (CAS 3.0 §2.1, §2.5.1): the protocol's meaning, which the route schemas leave out. */
const CAS_NOTES: Record<string, string> = {
  service: '应用地址（URL 编码），须以应用在「应用列表」中登记的服务地址开头',
  ticket: '登录后随 service 回传的服务票据 ST-…，只能校验一次；缺少 service 或 ticket 时返回 INVALID_REQUEST',
  renew: 'true：只接受由输入账号密码签发的票据（登录页为强制重新登录）',
  gateway: 'true：未登录时不显示登录页，直接回到 service',
  pgtUrl: '代理回调地址（本服务不签发代理票据，忽略）',
  format: 'XML（默认）或 JSON',
};

/**
 * The public operations the centre's API reference lists, in order (content, identifier
 * query, the Handle API, the CAS endpoints). An operation missing from the OpenAPI document (the
 * embedded CAS turned off) is left out: the reference only shows what this server answers.
 */
const GROUPS: ReferenceGroupDefinition[] = [
  {
    key: 'content',
    title: '资讯内容',
    description: '门户发布的行业资讯、政策法规与行业知识：分类树、分页列表与文章详情。公开接口，无需登录，成功时 code 为 20200。',
    base: 'api',
    operations: [
      {
        path: `${ApiPrefix.openCms}/category/tree`,
        description: '资讯（news）与行业知识（knowledge）两个栏目的分类，最多两级；列表接口的 filterCategoryId 取其中的 categoryId。',
        examples: { channel: 'news' },
      },
      {
        path: `${ApiPrefix.openCms}/article/published/page/list`,
        description: '按发布时间、浏览量或标题排序的已发布文章；按分类筛选时包含其子分类。data[0] 为 { rows, total }。',
        examples: { offset: 0, limit: 10, filterCategoryId: 'news' },
      },
      {
        path: `${ApiPrefix.openCms}/article/{id}/detail`,
        description: '文章正文为清洗过的 HTML；政策法规（categoryId 为 policy）另有文号与有效期。已下线或不存在的文章返回 404。',
      },
    ],
  },
  {
    key: 'identifier',
    title: '标识查询',
    description: '门户「标识查询」页使用的接口：按工业互联网标识查询标识记录及其模板。本节点未持有的前缀转由上级解析节点解析。',
    base: 'api',
    operations: [
      {
        path: `${ApiPrefix.portal}/identity/query`,
        description: '标识不存在时 data 为空列表（msg 为“未找到该标识”）；标识格式不正确时返回 400。',
        examples: { handle: '88.118.8/EX-2024-000123' },
      },
    ],
  },
  {
    key: 'handle',
    title: 'Handle API',
    description: '与 Handle.net JSON API 兼容的标识解析，供其他解析节点与客户端调用，允许跨域。返回体以 responseCode 表示结果。',
    base: 'api',
    operations: [
      {
        path: `${ApiPrefix.handles}/{*}`,
        description: '标识中的斜杠可原样书写；type 与 index 可重复，按“或”筛选标识值。标识不存在时 HTTP 404、responseCode 100。',
        examples: { '*': '88.118.8/EX-2024-000123', type: 'productName' },
        notes: { type: '只返回这些类型的值，可重复', index: '只返回这些索引的值，可重复' },
        omit: ['message'],
      },
    ],
  },
  {
    key: 'cas',
    title: '统一身份认证（CAS 3.0）',
    description:
      '门户内置的 CAS 3.0 服务端点。应用须先由企业管理员在控制台「应用管理 → 应用列表」登记服务地址，并在「应用授权」中授权账号；' +
      '应用把未登录的用户重定向到登录页，再以票据校验接口换取账号与属性。',
    base: 'cas',
    operations: [
      {
        path: '/cas/login',
        description:
          '浏览器访问的登录页（CAS 3.0 §2.1）。已登录且 service 已登记、账号已获授权时，303 跳转回 service 并附 ticket；renew=true 要求重新输入密码，gateway=true 不显示登录页。',
        examples: { service: EXAMPLE_SERVICE },
        notes: CAS_NOTES,
        text: '<!DOCTYPE html><html lang="zh-CN">…统一身份认证登录页…</html>',
        headers: true,
      },
      {
        path: '/cas/logout',
        description:
          '结束统一身份认证会话（CAS 3.0 §2.3），并向本次会话登录过的每个应用的注销地址发送 logoutRequest（单点登出）；service 已登记时跳转回该地址。',
        examples: { service: EXAMPLE_SERVICE },
        notes: CAS_NOTES,
        text: '<!DOCTYPE html><html lang="zh-CN">…您已安全退出…</html>',
        headers: true,
      },
      {
        path: '/cas/validate',
        description: 'CAS 1.0 票据校验（CAS 3.0 §2.4），返回纯文本。票据只能校验一次，且 service 须与签发时一致。',
        examples: { service: EXAMPLE_SERVICE, ticket: EXAMPLE_TICKET },
        notes: CAS_NOTES,
        required: CAS_VALIDATE_REQUIRED,
        text: 'yes\nadmin\n',
      },
      {
        path: '/cas/serviceValidate',
        description:
          'CAS 2.0 票据校验（CAS 3.0 §2.5），只返回账号；默认 XML，format=JSON 返回 JSON。失败时 authenticationFailure 给出 code 与原因。',
        examples: { service: EXAMPLE_SERVICE, ticket: EXAMPLE_TICKET, format: 'JSON' },
        notes: CAS_NOTES,
        required: CAS_VALIDATE_REQUIRED,
        omit: [...CAS_SUCCESS_ONLY, 'attributes'],
      },
      {
        path: '/cas/proxyValidate',
        description: 'CAS 2.0 票据校验，同时接受代理票据（CAS 3.0 §2.6）；返回与 serviceValidate 相同。',
        examples: { service: EXAMPLE_SERVICE, ticket: EXAMPLE_TICKET, format: 'JSON' },
        notes: CAS_NOTES,
        required: CAS_VALIDATE_REQUIRED,
        omit: [...CAS_SUCCESS_ONLY, 'attributes'],
      },
      {
        path: '/cas/p3/serviceValidate',
        description:
          '推荐使用：CAS 3.0 票据校验（CAS 3.0 §2.7），返回账号与应用在「应用列表」中勾选的返回属性，以及 authenticationDate、isFromNewLogin 等协议属性。',
        examples: { service: EXAMPLE_SERVICE, ticket: EXAMPLE_TICKET, format: 'JSON' },
        notes: CAS_NOTES,
        required: CAS_VALIDATE_REQUIRED,
        omit: CAS_SUCCESS_ONLY,
      },
      {
        path: '/cas/p3/proxyValidate',
        description: 'CAS 3.0 票据校验，同时接受代理票据；返回与 p3/serviceValidate 相同。',
        examples: { service: EXAMPLE_SERVICE, ticket: EXAMPLE_TICKET, format: 'JSON' },
        notes: CAS_NOTES,
        required: CAS_VALIDATE_REQUIRED,
        omit: CAS_SUCCESS_ONLY,
      },
    ],
  },
  {
    key: 'enterprise',
    title: '企业接口（机器客户端）',
    description:
      '企业自己的系统（MES、ERP 等）调用的本企业接口。企业管理员在控制台「应用管理 → 机器客户端」中创建客户端并选择授权范围，' +
      '系统以客户端 ID 与密钥向 /oidc/token 申请访问令牌（OAuth 2.0 client_credentials，如 ' +
      "curl -u 'hengyue-mes:客户端密钥' -d grant_type=client_credentials -d 'scope=identifiers:read identifiers:write' {oidc}/token），" +
      '再以 Authorization: Bearer 访问令牌调用。令牌只作用于本企业，有效期 1 小时；客户端停用、删除或重置密钥后立即失效。' +
      '缺少令牌或令牌无效返回 401，缺少授权范围返回 403；写入与读取账号均以客户端名称记入操作日志。',
    base: 'api',
    bearer: true,
    embeddedOnly: true,
    operations: [
      {
        path: `${ApiPrefix.enterpriseOpen}/account/page/list`,
        description: '授权范围 accounts:read。本企业账号（不含已删除），可按账号组筛选；账号属个人信息，每次读取记入操作日志。',
        examples: { offset: 0, limit: 20 },
      },
      {
        path: `${ApiPrefix.enterpriseOpen}/account-group/page/list`,
        description: '授权范围 groups:read。本企业的账号组，含成员数与授予组内成员的角色。',
        examples: { offset: 0, limit: 20 },
      },
      {
        path: `${ApiPrefix.enterpriseOpen}/identifier/record/page/list`,
        description: '授权范围 identifiers:read。本企业前缀下的标识，新的在前；searchKey 为标识或后缀的开头。',
        examples: { offset: 0, limit: 20, prefix: '88.118.8', searchKey: 'EX-2024' },
      },
      {
        path: `${ApiPrefix.enterpriseOpen}/identifier/record/{id}`,
        description: '授权范围 identifiers:read。其他企业的标识返回 404。',
        examples: { id: 1 },
      },
      {
        path: `${ApiPrefix.enterpriseOpen}/identifier/record`,
        method: 'POST',
        description:
          '授权范围 identifiers:write。企业须已通过企业认证并持有该前缀；数据项按模板最新版本校验（模板编号见控制台「前缀与模板」）。标识已存在返回 409。',
        body: { prefix: '88.118.8', suffix: 'EX-2026-000001', templateId: 1, values: EXAMPLE_MACHINE_VALUES },
      },
      {
        path: `${ApiPrefix.enterpriseOpen}/identifier/record/{id}`,
        method: 'PUT',
        description: '授权范围 identifiers:write。以新的数据项替换原有数据项；指定 templateId 时记录随之升到该模板的最新版本。',
        examples: { id: 1 },
        body: { values: { ...EXAMPLE_MACHINE_VALUES, factory: '徐州经济技术开发区恒岳重工挖掘机事业部' } },
      },
    ],
  },
];

/**
 * Example values of answer members, by member name (`parent.member` where one name means two things):
 * the samples are built from the response schemas (openapi-sampler), and these make them read like
 * real answers instead of "string" and 0.
 */
const MEMBER_EXAMPLES: Record<string, JSONSchema7Type> = {
  msg: '操作成功',
  id: 1,
  uuid: '5b0e3c8a-6f1d-4c59-9a57-2f8d1e4b7c21',
  title: '工业互联网标识解析体系二级节点突破 300 个',
  summary: '截至本月，全国已上线工业互联网标识解析二级节点 300 余个，覆盖 40 多个重点行业。',
  thumbnail: '/files/demo/thumb-1.svg',
  publishTime: '2026-05-12 09:30:00',
  categoryId: 'news',
  categoryName: '行业动态',
  subCategoryId: 'news',
  subCategoryName: '行业动态',
  channel: 'news',
  number: '',
  dataSourceName: '中国信息通信研究院',
  expirationDay: 0,
  content: '<p>截至本月，全国已上线工业互联网标识解析二级节点 300 余个……</p>',
  viewCount: 128,
  total: 36,
  handle: '88.118.8/EX-2024-000123',
  responseCode: 1,
  index: 1,
  type: 'productName',
  value: '中型液压挖掘机',
  ttl: 86_400,
  timestamp: '2026-05-12T01:30:00Z',
  name: '产品名称',
  'template.name': '工程机械整机产品标识模板',
  version: 1,
  idType: 'productName',
  idIndex: 1,
  user: 'admin',
  // Identifier records and accounts (the enterprise API).
  prefix: '88.118.8',
  suffix: 'EX-2024-000123',
  templateId: 1,
  templateName: '工程机械整机',
  templateVersion: 1,
  values: { productName: '中型履带式液压挖掘机', productModel: 'HY-E215', serialNumber: 'HYE2152024000123' },
  createdAt: '2026-05-12 09:30:00',
  updatedAt: '2026-05-12 09:30:00',
  username: 'zhangwei',
  phone: '13800000001',
  email: 'zhangwei@hengyue-hi.cn',
  state: 'active',
  lastLoginAt: '2026-05-12 08:55:10',
  memberCount: 12,
  attributes: {
    name: '张伟',
    email: 'zhangwei@hengyue-hi.cn',
    enterpriseName: '徐州恒岳重工机械有限公司',
    authenticationDate: '2026-05-12T01:30:00.000Z',
    longTermAuthenticationRequestTokenUsed: 'false',
    isFromNewLogin: 'true',
  },
};

const exampleOf = (key: string) => (Object.hasOwn(MEMBER_EXAMPLES, key) ? MEMBER_EXAMPLES[key] : undefined);

/** A copy of `schema` with `omit` members removed and member examples set where the schema has none. */
function exampleSchema(schema: JSONSchema7Definition, omit: ReadonlySet<string>, member?: string, parent?: string): JSONSchema7Definition {
  if (typeof schema === 'boolean') return schema;
  const copy: Schema = { ...schema };
  if (copy.properties) {
    const properties: Record<string, JSONSchema7Definition> = {};
    for (const [name, value] of Object.entries(copy.properties)) {
      if (!omit.has(name)) properties[name] = exampleSchema(value, omit, name, member);
    }
    copy.properties = properties;
    if (copy.required) copy.required = copy.required.filter((name) => !omit.has(name));
  }
  if (copy.items && !Array.isArray(copy.items)) copy.items = exampleSchema(copy.items, omit, undefined, member);
  if (copy.anyOf) copy.anyOf = copy.anyOf.map((s) => exampleSchema(s, omit, member, parent));
  const known = member === undefined ? undefined : (exampleOf(`${parent}.${member}`) ?? exampleOf(member));
  const fixed = copy.const !== undefined || copy.enum !== undefined || copy.examples !== undefined;
  const fits = typeof known === 'object' ? copy.type === 'object' : copy.type !== 'object' && copy.type !== 'array';
  if (known !== undefined && !fixed && fits) copy.examples = [known];
  return copy;
}

/**
 * The sampler stops a recursive schema (a category's `children`) with an empty object; an example
 * reads right with an empty list there instead.
 */
function withoutCutRecursion(_key: string, value: unknown): unknown {
  const empty = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;
  return Array.isArray(value) && value.length > 0 && value.every(empty) ? [] : value;
}

/** A literal value as a type (`news`); the empty string shows as `""`. */
const literal = (value: unknown) => (value === '' ? '""' : String(value));

/** The type a parameter takes, as a developer reads it: `integer`, `string[]`, `news | knowledge`. */
function typeName(schema: Schema | undefined): string {
  if (!schema) return 'string';
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return [...new Set(alternatives.map((s) => (typeof s === 'boolean' ? 'any' : typeName(s))))].join(' | ');
  if (schema.enum) return schema.enum.map(literal).join(' | ');
  if (schema.const !== undefined) return literal(schema.const);
  if (schema.type === 'array')
    return `${typeName(typeof schema.items === 'object' && !Array.isArray(schema.items) ? schema.items : undefined)}[]`;
  return typeof schema.type === 'string' ? schema.type : 'string';
}

/** A parameter's description with the limits a caller must respect. */
function parameterDescription(p: OpenApiParameter, note: string | undefined): string {
  const s = p.schema ?? {};
  const text = p.description ?? s.description ?? note ?? '';
  const notes: string[] = [];
  // Ranges the description does not state already.
  if (s.minimum !== undefined && s.maximum !== undefined && !text.includes(`${s.minimum}–${s.maximum}`))
    notes.push(`${s.minimum}–${s.maximum}`);
  if (s.maxLength !== undefined) notes.push(`最长 ${s.maxLength} 个字符`);
  if (s.default !== undefined) notes.push(`默认 ${String(s.default)}`);
  return [text, ...notes].filter(Boolean).join('；');
}

/** The members of a JSON request body, as parameters: each with its type, whether required, and its meaning. */
function bodyParameters(schema: Schema | undefined): ApiReferenceOperation['parameters'] {
  const required = new Set(schema?.required ?? []);
  return Object.entries(schema?.properties ?? {}).map(([name, member]) => {
    const s: Schema = typeof member === 'object' ? member : {};
    return {
      name,
      in: 'body',
      required: required.has(name),
      type: typeName(s),
      description: parameterDescription({ in: 'body', name, schema: s }, undefined),
    };
  });
}

/** The name a developer sees: the Handle API's wildcard is the handle. */
const displayName = (name: string) => (name === '*' ? 'handle' : name);

const shellQuote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

function curlOf(entry: ReferenceEntry, parameters: OpenApiParameter[], base: string, pathTail: string, bearer = false): string {
  const examples = entry.examples ?? {};
  let path = pathTail;
  const query = new URLSearchParams();
  for (const p of parameters) {
    const value = examples[p.name];
    if (value === undefined) continue;
    if (p.in === 'path') path = path.replace(`{${p.name}}`, String(value));
    else if (p.in === 'query') query.append(p.name, String(value));
  }
  const url = `${base}${path}${query.size ? `?${query.toString()}` : ''}`;
  const request = `curl ${entry.headers ? '-i' : '-sS'}${entry.method ? ` -X ${entry.method}` : ''} ${shellQuote(url)}`;
  const lines = [
    request,
    ...(bearer ? [`-H ${shellQuote('Authorization: Bearer <访问令牌>')}`] : []),
    ...(entry.body ? [`-H ${shellQuote('Content-Type: application/json')}`, `-d ${shellQuote(JSON.stringify(entry.body))}`] : []),
  ];
  return lines.join(' \\\n  ');
}

function responseExample(entry: ReferenceEntry, operation: OpenApiOperation, document: OpenApiDocument): string {
  const answer = operation.responses?.['200'] ?? operation.responses?.['2XX'];
  const schema = answer?.content?.['application/json']?.schema;
  if (!schema) return '';
  // CAS answers XML or, with format=JSON, the JSON form: the example request asks for JSON.
  const root = schema.anyOf?.find((s): s is Schema => typeof s === 'object' && s.type === 'object') ?? schema;
  if (root.type === 'string') return entry.text ?? `（${root.description ?? '文本'}）`;
  const value = sample(exampleSchema(root, new Set(entry.omit)) as JSONSchema7, { skipNonRequired: false, quiet: true }, document);
  return JSON.stringify(value, withoutCutRecursion, 2);
}

/**
 * 开放服务's API reference: the public operations developers integrate with, generated from
 * the OpenAPI document (parameters, summary, an example answer sampled from the response schema)
 * with a curl request addressed to this deployment. /docs keeps the whole API. With API_DOCS=off the
 * deployment publishes no API documentation, and this reference answers 404.
 */
const apiReferenceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const published = app.hasDecorator('swagger');

  /** An article that exists, so the detail's example request answers one. */
  async function exampleArticle(): Promise<string> {
    const page = await app.articleRepository.publishedPage({ offset: 0, limit: 1, sortOrder: DEFAULT_SORT_ORDER });
    return page.rows[0]?.uuid ?? String(MEMBER_EXAMPLES.uuid);
  }

  async function reference(request: FastifyRequest): Promise<ApiReferenceGroup[]> {
    const document = app.swagger() as OpenApiDocument;
    const origin = requestOrigin(request);
    const bases = { api: resolveRuntimeConfig(app.config, origin).apiBaseUrl, cas: `${app.config.publicUrl ?? origin}/cas` };
    // The OpenID provider's issuer (oidc-provider.ts), where machine clients get their tokens.
    const oidc = `${publicSiteUrl(app.config)}/oidc`;
    const article = await exampleArticle();
    const groups: ApiReferenceGroup[] = [];
    for (const group of GROUPS) {
      if (group.embeddedOnly && !app.config.auth.casEmbedded) continue;
      const operations: ApiReferenceOperation[] = [];
      for (const entry of group.operations) {
        const method = entry.method ?? 'GET';
        const operation = document.paths?.[entry.path]?.[method.toLowerCase()];
        if (!operation) continue;
        // Path parameters first, then the query's, each in the document's order.
        const all = operation.parameters ?? [];
        const parameters = [...all.filter((p) => p.in === 'path'), ...all.filter((p) => p.in === 'query')];
        const body = operation.requestBody?.content?.['application/json']?.schema;
        // A content detail's example names an article that exists.
        const withArticle =
          group.key === 'content' && entry.path.includes('{id}') ? { ...entry, examples: { ...entry.examples, id: article } } : entry;
        const tail = group.base === 'cas' ? entry.path.replace(/^\/cas/, '') : entry.path;
        operations.push({
          method,
          path: entry.path.replace('{*}', '{handle}'),
          summary: operation.summary ?? '',
          description: [operation.description, entry.description].filter(Boolean).join('\n'),
          parameters: parameters
            .map((p): ApiReferenceOperation['parameters'][number] => ({
              name: displayName(p.name),
              in: p.in === 'path' ? 'path' : 'query',
              required: p.required === true || (entry.required?.includes(p.name) ?? false),
              type: typeName(p.schema),
              description: parameterDescription(p, entry.notes?.[p.name]),
            }))
            .concat(bodyParameters(body)),
          curl: curlOf(withArticle, parameters, bases[group.base], tail, group.bearer),
          responseExample: responseExample(entry, operation, document),
        });
      }
      const description = group.description.replace('{oidc}', oidc);
      if (operations.length) groups.push({ key: group.key, title: group.title, description, operations });
    }
    // The OpenID provider runs beside the embedded CAS (its sign-in is the central login's).
    if (app.config.auth.casEmbedded) {
      groups.push(oidcReferenceGroup(app.config.publicUrl ?? origin));
      groups.push(samlReferenceGroup(app.config.publicUrl ?? origin));
    }
    return groups;
  }

  app.get(
    `${ApiPrefix.portal}/open-service/api-reference`,
    {
      // The same for every visitor of one address (curl examples carry PUBLIC_URL, or the Host a
      // shared cache keys its copies by); kept briefly like other published content.
      config: { publicCache: CONTENT_CACHE },
      schema: {
        tags: ['open-service'],
        summary: '开放服务 API 参考：资讯、标识查询、Handle API、CAS 与 OpenID Connect 端点的参数、curl 示例与返回示例',
        response: { 200: Envelope(ApiReferenceGroupSchema), ...errorResponses },
      },
    },
    async (request) => {
      if (!published) throw new NotFoundError(OpenServiceMessage.referenceOff);
      return ok(await reference(request));
    },
  );
};

export default apiReferenceRoutes;
