import { Authority } from '@portal/shared';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { chinaTime } from '../../lib/china-time.js';
import type { Database } from '../../db/schema.js';
import { BadRequestError, ForbiddenError, NotFoundError } from '../../lib/errors.js';
import { type AuditActionCode, recordAudit } from '../audit/audit-log.js';
import { parseItemValues } from './handle-values.js';
import type { TemplateVersions } from './identifier-repository.js';

export interface Scope {
  /** identifier:all-enterprises (platform operators): every enterprise's prefixes. */
  all: boolean;
  enterpriseId: number | null;
}

export interface IdentifierAdminOptions {
  templates: TemplateVersions;
}

/** The OpenAPI tag of every management route. */
export const tags = ['identifier-admin'];

export function scopeOf(request: FastifyRequest): Scope {
  const profile = request.principal?.profile;
  return { all: profile?.authorities.includes(Authority.IdentifierAll) ?? false, enterpriseId: profile?.enterpriseId ?? null };
}

const forbidden = (prefix: string) => new ForbiddenError(`标识前缀 ${prefix} 属于其他企业，无权操作`);

/**
 * The helpers every management route module shares: the audit of a successful write, and lookups of
 * a prefix, template or record that refuse one of another enterprise (403) unless the scope sees all.
 */
export function identifierAdminContext(db: Kysely<Database>, templates: TemplateVersions) {
  const audit = (request: FastifyRequest, action: AuditActionCode, target: string, detail?: string) => {
    const p = request.principal;
    return recordAudit(db, request.log, {
      accountId: p?.accountId ?? null,
      username: p?.profile.username ?? '',
      enterpriseId: p?.profile.enterpriseId ?? null,
      action,
      target,
      ip: request.ip,
      outcome: 'success',
      ...(detail ? { detail } : {}),
    });
  };

  /** A prefix the user may work on; `missing` decides between 404 (named in the path) and 400 (named in a body). */
  async function prefixFor(scope: Scope, prefix: string, missing: 'not-found' | 'bad-request') {
    const row = await db.selectFrom('idf_prefix').selectAll().where('prefix', '=', prefix).executeTakeFirst();
    if (!row) {
      const message = `标识前缀 ${prefix} 不存在`;
      throw missing === 'not-found' ? new NotFoundError(message) : new BadRequestError(message);
    }
    if (!scope.all && row.enterprise_id !== scope.enterpriseId) throw forbidden(prefix);
    return row;
  }

  async function templateFor(scope: Scope, id: number, missing: 'not-found' | 'bad-request' = 'not-found') {
    const row = await db
      .selectFrom('idf_template')
      .innerJoin('idf_prefix', 'idf_prefix.id', 'idf_template.prefix_id')
      .selectAll('idf_template')
      .select(['idf_prefix.prefix', 'idf_prefix.enterprise_id'])
      .where('idf_template.id', '=', id)
      .executeTakeFirst();
    if (!row) throw missing === 'not-found' ? new NotFoundError('模板不存在') : new BadRequestError('模板不存在');
    if (!scope.all && row.enterprise_id !== scope.enterpriseId) throw forbidden(row.prefix);
    const latest = await templates.get(row.id, row.version);
    if (!latest) throw new Error(`template ${row.id} v${row.version} is missing`);
    return { ...row, latest };
  }

  async function recordFor(scope: Scope, id: number) {
    const row = await db
      .selectFrom('idf_record')
      .innerJoin('idf_prefix', 'idf_prefix.id', 'idf_record.prefix_id')
      .innerJoin('idf_template', 'idf_template.id', 'idf_record.template_id')
      .selectAll('idf_record')
      .select(['idf_prefix.prefix', 'idf_prefix.enterprise_id', 'idf_template.name as template_name'])
      .where('idf_record.id', '=', id)
      .executeTakeFirst();
    if (!row) throw new NotFoundError('标识不存在');
    if (!scope.all && row.enterprise_id !== scope.enterpriseId) throw forbidden(row.prefix);
    return row;
  }

  return { audit, prefixFor, templateFor, recordFor };
}

export const toRecord = (r: {
  id: number;
  handle: string;
  prefix: string;
  template_id: number;
  template_name: string;
  template_version: number;
  item_values: string;
  created_at: string;
  updated_at: string;
}) => ({
  id: r.id,
  handle: r.handle,
  prefix: r.prefix,
  suffix: r.handle.slice(r.prefix.length + 1),
  templateId: r.template_id,
  templateName: r.template_name,
  templateVersion: r.template_version,
  values: Object.fromEntries(parseItemValues(r.item_values).map(([, type, value]) => [type, value])),
  createdAt: chinaTime(new Date(r.created_at)),
  updatedAt: chinaTime(new Date(r.updated_at)),
});
