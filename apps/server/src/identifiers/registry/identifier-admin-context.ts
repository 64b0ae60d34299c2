import { Authority } from '@portal/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import type { Actor } from '../../platform/lib/actor.js';
import { BadRequestError, ForbiddenError, NotFoundError } from '../../platform/lib/errors.js';
import { type AuditActionCode, auditBy } from '../../platform/audit/audit-log.js';
import type { RecordFilter } from './record-repository.js';

export interface Scope {
  /** identifier:all-enterprises (platform operators): every enterprise's prefixes. */
  all: boolean;
  enterpriseId: number | null;
}

/** The OpenAPI tag of every management route. */
export const tags = ['identifier-admin'];

/**
 * onRequest of the identifier console's routes: one of `codes`, and an enterprise that is
 * certified; platform operators (identifier:all-enterprises) run the node whatever their own enterprise.
 */
export function identifierAccess(app: FastifyInstance, ...codes: string[]) {
  const certified = app.requireCertified(...codes);
  const holdsOne = app.requireAuthority(...codes);
  return async (request: FastifyRequest) => {
    await holdsOne(request);
    if (!request.principal?.profile.authorities.includes(Authority.IdentifierAll)) await certified(request);
  };
}

export function scopeOf(caller: Pick<Actor, 'authorities' | 'enterpriseId'>): Scope {
  return { all: caller.authorities.includes(Authority.IdentifierAll), enterpriseId: caller.enterpriseId };
}

/**
 * Handle ranges a search key stands for: the start of a handle, or of a suffix under one of `prefixes`
 * (index ranges, no scan).
 */
export const searchRanges = (key: string, prefixes: readonly { prefix: string }[]) => [
  ...(key.includes('/') ? [key] : []),
  ...prefixes.map(({ prefix }) => `${prefix}/${key}`),
];

const forbidden = (prefix: string) => new ForbiddenError(`标识前缀 ${prefix} 属于其他企业，无权操作`);

/**
 * The console's identifier management is split over the prefix,
 * template, record and CSV route modules; these are the helpers they share: the audit of a
 * successful write (in the write's transaction `trx`), and lookups of a prefix, template or record that refuse one of another
 * enterprise (403) unless the scope sees all.
 */
export function identifierAdminContext(app: FastifyInstance) {
  const audit = (trx: Kysely<Database>, caller: Actor, action: AuditActionCode, target: string, detail?: string) =>
    auditBy(trx, caller, action, target, 'success', detail);

  /** A prefix the user may work on; `missing` decides between 404 (named in the path) and 400 (named in a body). */
  async function prefixFor(scope: Scope, prefix: string, missing: 'not-found' | 'bad-request') {
    const row = await app.prefixRepository.byPrefix(prefix);
    if (!row) {
      const message = `标识前缀 ${prefix} 不存在`;
      throw missing === 'not-found' ? new NotFoundError(message) : new BadRequestError(message);
    }
    if (!scope.all && row.enterprise_id !== scope.enterpriseId) throw forbidden(prefix);
    return row;
  }

  /**
   * A template the user may work on, with its latest version. `foreign: 'not-found'` answers another
   * enterprise's template as a missing one (the bulk routes reveal nothing of it).
   */
  async function templateFor(
    scope: Scope,
    id: number,
    missing: 'not-found' | 'bad-request' = 'not-found',
    foreign: 'forbidden' | 'not-found' = 'forbidden',
  ) {
    const row = await app.templateRepository.byId(id);
    const notFound = () => (missing === 'not-found' ? new NotFoundError('模板不存在') : new BadRequestError('模板不存在'));
    if (!row) throw notFound();
    if (!scope.all && row.enterprise_id !== scope.enterpriseId) throw foreign === 'forbidden' ? forbidden(row.prefix) : notFound();
    const latest = await app.templateRepository.version(row.id, row.version);
    if (!latest) throw new Error(`template ${row.id} v${row.version} is missing`);
    return { ...row, latest };
  }

  async function recordFor(scope: Scope, id: number) {
    const row = await app.recordRepository.byId(id);
    if (!row) throw new NotFoundError('标识不存在');
    if (!scope.all && row.enterprise_id !== scope.enterpriseId) throw forbidden(row.prefix);
    return row;
  }

  /**
   * The records the list's filters stand for in the scope (the list, its export and its labels), or
   * undefined when they cannot match any: a prefix of another enterprise is refused as on every route.
   */
  async function recordFilter(
    scope: Scope,
    q: { prefix?: string | undefined; templateId?: number | undefined; searchKey?: string | undefined },
  ): Promise<RecordFilter | undefined> {
    const prefixName = q.prefix?.trim() || undefined;
    const visible = prefixName ? [await prefixFor(scope, prefixName, 'bad-request')] : await app.prefixRepository.visible(scope);
    if (visible.length === 0) return undefined;
    const key = q.searchKey?.trim();
    // Handle ranges a search key stands for: the start of a handle, or of a suffix under one of the prefixes (index ranges, no scan).
    const startsWith = key ? [...(key.includes('/') ? [key] : []), ...visible.map(({ prefix }) => `${prefix}/${key}`)] : undefined;
    return {
      // Operators see every prefix: no filter unless one is chosen.
      prefixIds: prefixName || !scope.all ? visible.map((p) => p.id) : undefined,
      templateId: q.templateId,
      startsWith,
    };
  }

  return { audit, prefixFor, templateFor, recordFor, recordFilter };
}
