import { createHash, randomBytes } from 'node:crypto';
import {
  SCIM_TOKEN_NAME_MAX,
  SCIM_TOKENS_MAX,
  ScimMessage,
  type ScimTokenRow,
  type ScimTokenSecret,
  type TenantScimClientActivity,
} from '@portal/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AUDIT_ACTIONS, auditBy, isAuditAction } from '../../platform/audit/audit-log.js';
import { inEnterpriseTransaction } from '../../platform/db/transaction.js';
import type { Actor } from '../../platform/lib/actor.js';
import { chinaTime } from '../../platform/lib/china-time.js';
import { isUniqueViolation } from '../../platform/lib/db-errors.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/lib/errors.js';
import { callerEnterprise } from '../../platform/lib/tenant-scope.js';
import type { ScimTokenRecord } from './scim-token-repository.js';

/** What a token looks like: a prefix secret scanners know, then 256 random bits. */
const TOKEN_PREFIX = 'scim_';
const TOKEN_PATTERN = /^scim_[A-Za-z0-9_-]{43}$/;

/** How often a token's last use is written. */
const TOUCH_INTERVAL_MS = 60_000;
const digest = (token: string) => createHash('sha256').update(token).digest('hex');

/** The token a SCIM call authenticated with. */
export interface ScimClient {
  tokenId: number;
  name: string;
  enterpriseId: number;
}

/** The actor a token's writes are audited under, in the enterprise's 操作日志. */
export const scimActorName = (tokenName: string) => `SCIM ${tokenName}`;

const rowOf = (t: ScimTokenRecord): ScimTokenRow => ({
  id: t.id,
  name: t.name,
  hint: `${t.hint}…`,
  createdBy: t.created_by,
  createdAt: chinaTime(new Date(t.created_at)),
  lastUsedAt: t.last_used_at ? chinaTime(new Date(t.last_used_at)) : '',
  lastUsedIp: t.last_used_ip ?? '',
});

/**
 * SCIM 同步's tokens (认证源, authority auth:source): named, scoped to the creator's enterprise, shown
 * once (only a SHA-256 is kept, like 机器客户端's secrets), revoked by deleting them; every write
 * commits with its audit row. A token of a disabled enterprise authenticates nothing.
 */
export class ScimTokenService {
  constructor(private readonly app: FastifyInstance) {}

  private get tokens() {
    return this.app.scimTokenRepository;
  }

  async list(caller: Actor): Promise<ScimTokenRow[]> {
    return (await this.tokens.list(callerEnterprise(caller))).map(rowOf);
  }

  /** 租户管理's 详情 (operators): any enterprise's tokens with their last use. */
  async listOf(enterpriseId: number): Promise<ScimTokenRow[]> {
    if (!(await this.app.authSourceRepository.enterpriseExists(enterpriseId))) throw new NotFoundError('企业不存在');
    return (await this.tokens.list(enterpriseId)).map(rowOf);
  }

  /**
   * 租户管理's view (operators): any enterprise's SCIM clients, each with its last use and the last change
   * it made (its newest row in the 操作日志; reads are not audited, so they show only as the last use).
   */
  async activityOf(enterpriseId: number): Promise<TenantScimClientActivity[]> {
    if (!(await this.app.authSourceRepository.enterpriseExists(enterpriseId))) throw new NotFoundError('企业不存在');
    const tokens = await this.tokens.list(enterpriseId);
    const changes = await this.tokens.lastChanges(
      enterpriseId,
      tokens.map((t) => ({ actor: scimActorName(t.name), since: t.created_at })),
    );
    return tokens.map((token) => {
      const row = rowOf(token);
      const change = changes.get(scimActorName(row.name));
      if (!change) return { ...row, lastChange: '', lastChangeAt: '' };
      const action = isAuditAction(change.action) ? AUDIT_ACTIONS[change.action] : change.action;
      return { ...row, lastChange: change.target ? `${action} ${change.target}` : action, lastChangeAt: chinaTime(new Date(change.at)) };
    });
  }

  async create(caller: Actor, rawName: string): Promise<ScimTokenSecret> {
    const enterpriseId = callerEnterprise(caller);
    const name = rawName.trim();
    if (name.length < 1 || name.length > SCIM_TOKEN_NAME_MAX) throw new BadRequestError(ScimMessage.nameLength);
    const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    try {
      const id = await inEnterpriseTransaction(this.app.database.db, enterpriseId, async (trx) => {
        // Counted under the enterprise's lock, so two creations at once cannot both pass the limit.
        if ((await this.tokens.list(enterpriseId, trx)).length >= SCIM_TOKENS_MAX) throw new ConflictError(ScimMessage.tooMany);
        const created = await this.tokens.insert(trx, {
          enterpriseId,
          name,
          tokenHash: digest(token),
          hint: token.slice(0, TOKEN_PREFIX.length + 6),
          createdBy: caller.username,
        });
        await auditBy(trx, caller, 'scim-token.create', name);
        return created;
      });
      return { id, name, token };
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError(ScimMessage.nameTaken);
      throw err;
    }
  }

  /** 吊销: the token is deleted, so its next call answers 401. */
  async revoke(caller: Actor, id: number): Promise<void> {
    const enterpriseId = callerEnterprise(caller);
    await inEnterpriseTransaction(this.app.database.db, enterpriseId, async (trx) => {
      const token = await this.tokens.byId(trx, enterpriseId, id);
      if (!token) throw new NotFoundError(ScimMessage.notFound);
      await this.tokens.delete(trx, token.id);
      await auditBy(trx, caller, 'scim-token.revoke', token.name);
    });
  }

  /** The client of `Authorization: Bearer <token>`, its use recorded; undefined for anything else. */
  async authenticate(header: string | undefined, ip: string): Promise<ScimClient | undefined> {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
    const token = match?.[1];
    if (!token || !TOKEN_PATTERN.test(token)) return undefined;
    const found = await this.tokens.byHash(digest(token));
    if (!found) return undefined;
    // A sync makes many calls: the use is written at most once a minute, decided here without a write.
    const now = new Date();
    const last = found.last_used_at === null ? 0 : Date.parse(found.last_used_at);
    if (!(now.getTime() - last < TOUCH_INTERVAL_MS)) await this.tokens.touch(found.id, ip, now);
    return { tokenId: found.id, name: found.name, enterpriseId: found.enterprise_id };
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    scimTokenService: ScimTokenService;
  }
}

export default fp(
  async (app) => {
    app.decorate('scimTokenService', new ScimTokenService(app));
  },
  { name: 'scim-tokens', dependencies: ['scim-token-repository'] },
);
