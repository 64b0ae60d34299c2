import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { InputError } from '../lib/errors.js';

/**
 * Control characters no text of the portal contains: NUL breaks PostgreSQL text and SQLite's full-text
 * index, CR/LF in an address splits headers. Tab, LF and CR stay allowed in request bodies (article
 * text, descriptions), never in query strings or paths.
 */
// eslint-disable-next-line no-control-regex -- control characters are what this looks for
const BODY_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
// eslint-disable-next-line no-control-regex -- control characters are what this looks for
const LINE_CONTROL = /[\u0000-\u001f\u007f]/;

/** Integer columns are 32-bit on both databases (ids, counts, orders, days). */
const MAX_INT = 2_147_483_647;

const WHERE = { body: '请求体', query: '查询参数', params: '路径参数' } as const;

/** Every string and number in a parsed request part, with its path (`a.b.0`). */
function* leaves(value: unknown, path: string): Generator<[string, unknown]> {
  if (typeof value === 'string' || typeof value === 'number') {
    yield [path, value];
  } else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) yield* leaves(value[i], path ? `${path}.${i}` : String(i));
  } else if (value && typeof value === 'object' && !Buffer.isBuffer(value)) {
    for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
      yield [path, key];
      yield* leaves(child, path ? `${path}.${key}` : key);
    }
  }
}

function check(part: keyof typeof WHERE, value: unknown): void {
  const controls = part === 'body' ? BODY_CONTROL : LINE_CONTROL;
  // Every request passes here: the name is put together only for the one that is refused.
  // A wildcard path (`/api/handles/*`) is the address itself.
  const name = (path: string) => (path === '*' ? '请求地址' : path ? `${WHERE[part]} ${path} ` : WHERE[part]);
  for (const [path, leaf] of leaves(value, '')) {
    if (typeof leaf === 'string' && controls.test(leaf)) throw new InputError(part, `${name(path)}含有不允许的控制字符`);
    if (typeof leaf === 'number' && (!Number.isFinite(leaf) || (Number.isInteger(leaf) && Math.abs(leaf) > MAX_INT))) {
      throw new InputError(part, `${name(path)}超出允许范围`);
    }
  }
}

/**
 * One check of every request's text and numbers, after schema coercion and before any route reads
 * them: no control characters, every number finite and every integer within the integer columns
 * ("1e309", "Infinity" and unsafe integers answer 400 and never reach SQL).
 */
async function inputGuard(app: FastifyInstance) {
  app.addHook('preHandler', async (request: FastifyRequest) => {
    check('params', request.params);
    // A page's query reaches the API calls it makes, which refuse it there with the page showing why.
    if (!request.routeOptions.config.page) check('query', request.query);
    check('body', request.body);
  });
}

export default fp(inputGuard, { name: 'input-guard' });
