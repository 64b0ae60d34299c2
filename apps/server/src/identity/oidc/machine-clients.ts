import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import { inEnterpriseTransaction } from '../../platform/db/transaction.js';
import { isUniqueViolation } from '../../platform/lib/db-errors.js';
import { BadRequestError, ConflictError } from '../../platform/lib/errors.js';
import { hashClientSecret, newClientSecret } from './client-secret.js';
import type { OidcClientRepository } from './oidc-client-repository.js';
import { MACHINE_SCOPES, type MachineScope } from './oidc-scopes.js';

/** A client id: what OAuth clients and URLs carry without escaping. */
const CLIENT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{2,63}$/;

export interface CreatedMachineClient {
  id: number;
  clientId: string;
  /** Shown once: only its hash is kept. */
  secret: string;
}

/** 机器客户端: an enterprise's own systems, which get tokens with client_credentials for its APIs. */
export class MachineClients {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clients: OidcClientRepository,
  ) {}

  async create(enterpriseId: number, input: { name: string; clientId: string; scopes: readonly string[] }): Promise<CreatedMachineClient> {
    const name = input.name.trim();
    if (name.length < 1 || name.length > 64) throw new BadRequestError('名称须为 1～64 个字符');
    if (!CLIENT_ID.test(input.clientId)) throw new BadRequestError('客户端 ID 须为 3～64 位字母、数字、点、下划线或连字符');
    // A client without a scope would get tokens for nothing, and the provider checks no scope against an empty list.
    if (input.scopes.length === 0) throw new BadRequestError('请至少选择一个授权范围');
    const unknown = input.scopes.filter((s) => !MACHINE_SCOPES.includes(s as MachineScope));
    if (unknown.length > 0) throw new BadRequestError(`不支持的授权范围：${unknown.join('、')}`);
    const secret = newClientSecret();
    const now = new Date().toISOString();
    try {
      const id = await inEnterpriseTransaction(this.db, enterpriseId, async (trx) => {
        // Applications and machine clients share one client id space (the provider looks in both): the
        // id is taken in oidc_client_id in this transaction, whose key refuses a second client with it
        // even at the same moment on another instance (a check before the insert would let both pass).
        if (await this.clients.applicationHasClientId(trx, input.clientId)) throw new ConflictError('客户端 ID 已被使用');
        try {
          await this.clients.reserveClientId(trx, input.clientId, 'machine');
        } catch (err) {
          if (isUniqueViolation(err)) throw new ConflictError('客户端 ID 已被使用');
          throw err;
        }
        return this.clients.insertMachineClient(
          trx,
          {
            enterpriseId,
            name,
            clientId: input.clientId,
            secretHash: hashClientSecret(secret),
            scopes: [...new Set(input.scopes)].join(' '),
          },
          now,
        );
      });
      return { id, clientId: input.clientId, secret };
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError('名称已被使用');
      throw err;
    }
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    machineClientService: MachineClients;
  }
}

export default fp(
  async (app) => {
    app.decorate('machineClientService', new MachineClients(app.database.db, app.oidcClientRepository));
  },
  { name: 'machine-clients', dependencies: ['oidc-client-repository'] },
);
