import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp, testDialects, tokenFor } from '../testing/test-app.js';

/**
 * Every operation of /openapi.json, every parameter and body field, with malformed values, as a
 * visitor and as each demo role: no answer may be a 5xx, an error outside the envelope (Handle JSON
 * under /api/handles/, the CAS pages and XML and the login callback page excepted) or show a stack trace.
 * Deterministic: the same values in the same order on every run.
 */

interface SchemaNode {
  type?: string | string[];
  properties?: Record<string, SchemaNode>;
  required?: string[];
  items?: SchemaNode;
  anyOf?: SchemaNode[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
}

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: SchemaNode;
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: SchemaNode }> };
}

const MALFORMED_TEXT = [
  '',
  'Infinity',
  '-Infinity',
  'NaN',
  '1e309',
  '1e23',
  '9007199254740993',
  '-1',
  '1.5',
  '\u0000',
  'a\u0000b',
  'a\r\nSet-Cookie: x=1',
  '\u001b[31m',
  'x'.repeat(5000),
  '../../../../etc/passwd',
  '%2e%2e%2f%2e%2e%2f',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '\ud800',
];
const MALFORMED_JSON: unknown[] = [...MALFORMED_TEXT, true, null, [], {}, ['a', 'b'], 1.5, 1e308, -2147483649, { $gt: '' }];

/** A path segment; a lone surrogate becomes the bytes of one (invalid UTF-8). */
function segment(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80';
  }
}

/** A plausible value of a schema: what the other fields carry while one is fuzzed. */
function sample(schema: SchemaNode | undefined): unknown {
  if (!schema) return 'a';
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  if (schema.anyOf?.length) return sample(schema.anyOf[0]);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, sample(v)]));
    default:
      return 'a';
  }
}

interface Call {
  label: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

function calls(path: string, method: string, op: Operation): Call[] {
  const params = op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const bodySchema = op.requestBody?.content?.['application/json']?.schema;
  const baseQuery = new URLSearchParams();
  for (const p of queryParams) if (p.required) baseQuery.set(p.name, String(sample(p.schema)));
  const urlWith = (pathValues: Record<string, string>, query: URLSearchParams) => {
    let url = path.replace(/\{([^}]+)\}/g, (_m, name: string) => segment(pathValues[name] ?? String(sample(undefined))));
    if (path.endsWith('/*')) url = url.replace(/\*$/, segment(pathValues['*'] ?? '88.118.8/a'));
    const q = query.toString();
    return q ? `${url}?${q}` : url;
  };
  const basePath = Object.fromEntries(pathParams.map((p) => [p.name, String(sample(p.schema) === 'a' ? '1' : sample(p.schema))]));
  const baseBody = bodySchema ? sample(bodySchema) : undefined;
  const json = { 'content-type': 'application/json' };
  const out: Call[] = [];
  const push = (label: string, url: string, headers: Record<string, string> = {}, payload?: string) =>
    out.push({ label: `${method} ${path} ${label}`, method, url, headers, ...(payload === undefined ? {} : { payload }) });
  const body = baseBody === undefined ? undefined : JSON.stringify(baseBody);

  for (const p of pathParams) {
    for (const value of MALFORMED_TEXT)
      push(`path ${p.name}`, urlWith({ ...basePath, [p.name]: value }, baseQuery), body ? json : {}, body);
  }
  for (const p of queryParams) {
    for (const value of MALFORMED_TEXT) {
      const q = new URLSearchParams(baseQuery);
      q.set(p.name, value);
      push(`query ${p.name}`, urlWith(basePath, q), body ? json : {}, body);
    }
    const twice = new URLSearchParams(baseQuery);
    twice.append(p.name, 'a');
    twice.append(p.name, 'b');
    push(`query ${p.name}[]`, urlWith(basePath, twice), body ? json : {}, body);
  }
  if (bodySchema) {
    const url = urlWith(basePath, baseQuery);
    for (const field of Object.keys(bodySchema.properties ?? {})) {
      for (const value of MALFORMED_JSON) {
        push(`body ${field}`, url, json, JSON.stringify({ ...(baseBody as object), [field]: value }));
      }
    }
    for (const whole of ['{"a":', '[]', 'null', '"text"', '1e999', `{"k":"${'x'.repeat(5000)}"}`]) push('body (broken)', url, json, whole);
    push('body (text/plain)', url, { 'content-type': 'text/plain' }, 'plain');
    push('body (form)', url, { 'content-type': 'application/x-www-form-urlencoded' }, 'a=1&a=2');
  }
  return out;
}

const CJK = /[\u4e00-\u9fff]/;
const STACK = /\n\s+at .+:\d+:\d+|at Object\.<anonymous>|node:internal/;

function problem(call: Call, status: number, type: string, text: string): string | undefined {
  if (status >= 500) return `answered ${status}`;
  if (STACK.test(text)) return 'shows a stack trace';
  if (status < 400 || status === 304) return undefined;
  if (call.url.startsWith('/api/handles/')) {
    try {
      const body = JSON.parse(text) as { responseCode?: unknown };
      return typeof body.responseCode === 'number' ? undefined : 'Handle error without responseCode';
    } catch {
      return 'Handle error that is not JSON';
    }
  }
  // An enterprise provider's back-channel logout answers in OAuth's JSON (OpenID Connect Back-Channel Logout
  // 1.0 §2.8); a request its schema refuses still gets the envelope.
  if (/^\/cas\/login\/federation\/[^/]+\/backchannel-logout/.test(call.url) && /"error":"[a-z_]+"/.test(text)) return undefined;
  // The CAS server's pages and XML, and the portal's login callback page, answer browsers in their own form.
  if ((call.url.startsWith('/cas/') || call.url.startsWith('/web/portal/cas/')) && /html|xml/.test(type)) return undefined;
  try {
    const body = JSON.parse(text) as { code?: unknown; msg?: unknown };
    if (typeof body.code !== 'number' || typeof body.msg !== 'string') return 'error outside the envelope';
    if (!CJK.test(body.msg)) return `error message not in Chinese: ${body.msg}`;
    return undefined;
  } catch {
    return `error that is not JSON (${type})`;
  }
}

describe.each(testDialects())('fuzzing every operation on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { API_DOCS: 'all', LOGIN_ATTEMPTS_PER_MINUTE: '100000', SMS_IP_DAILY_LIMIT: '100000' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers malformed input without a 5xx, outside the envelope or with a stack trace', { timeout: 240_000 }, async () => {
    const spec = (await t.app.inject({ url: '/openapi.json' })).json<{ paths: Record<string, Record<string, Operation>> }>();
    const identities: [string, Record<string, string>][] = [['visitor', {}]];
    for (const username of ['admin', 'staff', 'service', 'operator']) {
      identities.push([username, { authorization: await tokenFor(t, username) }]);
    }
    const all: Call[] = [];
    for (const [path, methods] of Object.entries(spec.paths)) {
      if (path === '/docs' || path.startsWith('/docs/') || path.startsWith('/dev/')) continue;
      for (const [method, op] of Object.entries(methods)) all.push(...calls(path, method.toUpperCase(), op));
    }
    expect(all.length).toBeGreaterThan(1000);
    const problems = new Map<string, string>();
    // Each call goes out as two of the five identities, in turn: every identity meets every operation
    // (each has many calls) in a run that fits CI's time.
    for (const [k, call] of all.entries()) {
      for (const [who, auth] of [identities[k % identities.length]!, identities[(k + 1) % identities.length]!]) {
        const res = await t.app.inject({
          method: call.method as 'GET',
          url: call.url,
          headers: { 'x-requested-with': 'XMLHttpRequest', ...auth, ...call.headers },
          ...(call.payload === undefined ? {} : { payload: call.payload }),
        });
        const found = problem(call, res.statusCode, String(res.headers['content-type'] ?? ''), res.body);
        if (found) problems.set(`${call.label} as ${who}: ${found}`, res.body.slice(0, 200));
      }
    }
    expect([...problems.entries()].slice(0, 40)).toEqual([]);
  });
});
