import { Authority } from '@portal/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { BadRequestError, ForbiddenError, NotFoundError } from '../../lib/errors.js';
import { type AuditActionCode, auditRequest } from '../audit/audit-log.js';

export interface Scope {
  /** identifier:all-enterprises (platform operators): every enterprise's prefixes. */
  all: boolean;
  enterpriseId: number | null;
}

/** The OpenAPI tag of every management route. */
export const tags = ['identifier-admin'];

/**
 * onRequest of the identifier console's routes (issue 18): one of `codes`, and an enterprise that is
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

export function scopeOf(request: FastifyRequest): Scope {
  const profile = request.principal?.profile;
  return { all: profile?.authorities.includes(Authority.IdentifierAll) ?? false, enterpriseId: profile?.enterpriseId ?? null };
}

const forbidden = (prefix: string) => new ForbiddenError(`标识前缀 ${prefix} 属于其他企业，无权操作`);

/**
 * The console's identifier management (issue: registry and management) is split over the prefix,
 * template, record and CSV route modules; these are the helpers they share: the audit of a
 * successful write (in the write's transaction `trx`), and lookups of a prefix, template or record that refuse one of another
 * enterprise (403) unless the scope sees all.
 */
export function identifierAdminContext(app: FastifyInstance) {
  const audit = (trx: Kysely<Database>, request: FastifyRequest, action: AuditActionCode, target: string, detail?: string) =>
    auditRequest(trx, request, action, target, 'success', detail);

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

  /** A template the user may work on, with its latest version. */
  async function templateFor(scope: Scope, id: number, missing: 'not-found' | 'bad-request' = 'not-found') {
    const row = await app.templateRepository.byId(id);
    if (!row) throw missing === 'not-found' ? new NotFoundError('模板不存在') : new BadRequestError('模板不存在');
    if (!scope.all && row.enterprise_id !== scope.enterpriseId) throw forbidden(row.prefix);
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

  return { audit, prefixFor, templateFor, recordFor };
}
