import {
  MACHINE_CLIENT_ID_PATTERN,
  MACHINE_CLIENT_NAME_MAX,
  MACHINE_CLIENT_STATUS_LABELS,
  MACHINE_SCOPES,
  type MachineClientBody,
  MachineClientMessage,
  type MachineClientRow,
  type MachineClientSecret,
  type MachineClientStatus,
  type MachineScope,
} from '@portal/shared';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import { auditBy } from '../../platform/audit/audit-log.js';
import type { Database } from '../../platform/db/schema.js';
import { inEnterpriseTransaction } from '../../platform/db/transaction.js';
import type { Actor } from '../../platform/lib/actor.js';
import { chinaTime } from '../../platform/lib/china-time.js';
import { isUniqueViolation } from '../../platform/lib/db-errors.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/lib/errors.js';
import { callerEnterprise } from '../../platform/lib/tenant-scope.js';
import { hashClientSecret, newClientSecret } from './client-secret.js';
import type { MachineClientListed, OidcClientRepository } from './oidc-client-repository.js';
import type { OidcRepository } from './oidc-repository.js';

/** The name and scopes of a machine client as checked (the client id is checked only at creation). */
function checked(input: Pick<MachineClientBody, 'name' | 'scopes'>): { name: string; scopes: string } {
  const name = input.name.trim();
  if (name.length < 1 || name.length > MACHINE_CLIENT_NAME_MAX) throw new BadRequestError(MachineClientMessage.nameLength);
  // A client without a scope would get tokens for nothing, and the provider checks no scope against an empty list.
  if (input.scopes.length === 0) throw new BadRequestError(MachineClientMessage.scopeRequired);
  const unknown = input.scopes.filter((s) => !MACHINE_SCOPES.includes(s as MachineScope));
  if (unknown.length > 0) throw new BadRequestError(`不支持的授权范围：${unknown.join('、')}`);
  // Stored in the order the scopes are listed, whatever order they came in.
  return { name, scopes: MACHINE_SCOPES.filter((s) => input.scopes.includes(s)).join(' ') };
}

function rowOf(client: MachineClientListed): MachineClientRow {
  return {
    id: client.id,
    name: client.name,
    clientId: client.clientId,
    scopes: client.scopes.split(' ').filter(Boolean),
    status: client.status,
    createdAt: chinaTime(new Date(client.createdAt)),
    updatedAt: chinaTime(new Date(client.updatedAt)),
  };
}

/**
 * 机器客户端: an enterprise's own systems, which get tokens with client_credentials for its APIs. Each
 * write commits with its audit row; the provider and the machine APIs read the row at every request,
 * so 停用, 删除 and 重置密钥 take effect at once on every instance.
 */
export class MachineClientService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clients: OidcClientRepository,
    private readonly tokens: OidcRepository,
  ) {}

  async page(caller: Actor, keyword: string, offset: number, limit: number): Promise<{ total: number; rows: MachineClientRow[] }> {
    const page = await this.clients.machineClientPage(callerEnterprise(caller), keyword, offset, limit);
    return { total: page.total, rows: page.rows.map(rowOf) };
  }

  async create(caller: Actor, input: MachineClientBody): Promise<MachineClientSecret> {
    const enterpriseId = callerEnterprise(caller);
    const { name, scopes } = checked(input);
    const clientId = input.clientId.trim();
    if (!MACHINE_CLIENT_ID_PATTERN.test(clientId)) throw new BadRequestError(MachineClientMessage.clientIdFormat);
    const secret = newClientSecret();
    const now = new Date().toISOString();
    try {
      const id = await inEnterpriseTransaction(this.db, enterpriseId, async (trx) => {
        // Applications and machine clients share one client id space (the provider looks in both): the
        // id is taken in oidc_client_id in this transaction, whose key refuses a second client with it
        // even at the same moment on another instance (a check before the insert would let both pass).
        if (await this.clients.applicationHasClientId(trx, clientId)) throw new ConflictError(MachineClientMessage.clientIdTaken);
        try {
          await this.clients.reserveClientId(trx, clientId, 'machine');
        } catch (err) {
          if (isUniqueViolation(err)) throw new ConflictError(MachineClientMessage.clientIdTaken);
          throw err;
        }
        const created = await this.clients.insertMachineClient(
          trx,
          { enterpriseId, name, clientId, secretHash: hashClientSecret(secret), scopes },
          now,
        );
        await auditBy(trx, caller, 'machine-client.create', `${name}（${clientId}）`, 'success', scopes);
        return created;
      });
      return { id, clientId, secret };
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError(MachineClientMessage.nameTaken);
      throw err;
    }
  }

  /** 编辑: name and scopes; narrower scopes bind the tokens already issued at once (the machine APIs read them). */
  async update(caller: Actor, id: number, input: Pick<MachineClientBody, 'name' | 'scopes'>): Promise<void> {
    const { name, scopes } = checked(input);
    try {
      await this.write(caller, id, async (trx, client) => {
        await this.clients.updateMachineClient(trx, client.id, { name, scopes }, new Date().toISOString());
        await auditBy(trx, caller, 'machine-client.update', `${name}（${client.clientId}）`, 'success', scopes);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError(MachineClientMessage.nameTaken);
      throw err;
    }
  }

  /**
   * 重置密钥: a new secret, shown once. The old one gets no token from now on, and the tokens it got are
   * dropped; one issued at the same moment still names the old secret and is refused (machine-tokens.ts).
   */
  async resetSecret(caller: Actor, id: number): Promise<MachineClientSecret> {
    const secret = newClientSecret();
    const client = await this.write(caller, id, async (trx, found) => {
      await this.clients.updateMachineClient(trx, found.id, { secretHash: hashClientSecret(secret) }, new Date().toISOString());
      await this.tokens.destroyClientCredentials(trx, found.clientId);
      await auditBy(trx, caller, 'machine-client.reset-secret', `${found.name}（${found.clientId}）`);
    });
    return { id: client.id, clientId: client.clientId, secret };
  }

  /** 停用 / 启用: a disabled client gets no token, and the ones it holds are refused at once. */
  async setStatus(caller: Actor, id: number, status: MachineClientStatus): Promise<void> {
    await this.write(caller, id, async (trx, client) => {
      if (client.status === status) return;
      await this.clients.updateMachineClient(trx, client.id, { status }, new Date().toISOString());
      // Enabled again, it starts without the tokens it held (the machine APIs refused them meanwhile anyway).
      if (status === 'disabled') await this.tokens.destroyClientCredentials(trx, client.clientId);
      const action = status === 'disabled' ? 'machine-client.disable' : 'machine-client.enable';
      await auditBy(trx, caller, action, `${client.name}（${client.clientId}）`, 'success', MACHINE_CLIENT_STATUS_LABELS[status]);
    });
  }

  /** 删除: its tokens are refused at once and its client id is free again. */
  async remove(caller: Actor, id: number): Promise<void> {
    await this.write(caller, id, async (trx, client) => {
      await this.clients.deleteMachineClient(trx, client.id, client.clientId);
      await this.tokens.destroyClientCredentials(trx, client.clientId);
      await auditBy(trx, caller, 'machine-client.delete', `${client.name}（${client.clientId}）`);
    });
  }

  /** A write to one of the caller's enterprise's clients, in its transaction; another enterprise's id is 404. */
  private async write(
    caller: Actor,
    id: number,
    work: (trx: Kysely<Database>, client: MachineClientListed) => Promise<void>,
  ): Promise<MachineClientListed> {
    const enterpriseId = callerEnterprise(caller);
    return inEnterpriseTransaction(this.db, enterpriseId, async (trx) => {
      const client = await this.clients.machineClientOf(trx, enterpriseId, id);
      if (!client) throw new NotFoundError(MachineClientMessage.notFound);
      await work(trx, client);
      return client;
    });
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    machineClientService: MachineClientService;
  }
}

export default fp(
  async (app) => {
    app.decorate('machineClientService', new MachineClientService(app.database.db, app.oidcClientRepository, app.oidcRepository));
  },
  { name: 'machine-clients', dependencies: ['oidc-client-repository', 'oidc-repository'] },
);
