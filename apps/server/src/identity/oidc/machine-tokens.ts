import { MachineClientMessage, type MachineScope } from '@portal/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Actor } from '../../platform/lib/actor.js';
import { AppError, ForbiddenError } from '../../platform/lib/errors.js';
import { requestOrigin } from '../../platform/lib/request-origin.js';
import { SECRET_GENERATION_CLAIM, secretGeneration } from './client-secret.js';

/** The machine client a bearer token of the enterprise's APIs belongs to, as its guard found it. */
export interface MachineCaller {
  clientId: string;
  name: string;
  enterpriseId: number;
  /** The scopes both the token and the client (as it is now) hold. */
  scopes: readonly string[];
}

/** The actor of a machine API call: the client, by its name, inside its enterprise; no account and no console authority. */
export function machineActorOf(request: FastifyRequest): Actor {
  const machine = request.machineCaller;
  if (!machine) throw new AppError(MachineClientMessage.tokenInvalid, 401);
  return {
    accountId: null,
    username: `机器客户端 ${machine.name}`,
    enterpriseId: machine.enterpriseId,
    authorities: [],
    ip: request.ip,
    origin: requestOrigin(request),
    log: request.log,
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * onRequest of the enterprise's machine APIs: a live client_credentials token of /oidc/token whose
     * client is enabled (of an active enterprise), issued under its current secret and holding `scope`;
     * else 401 or 403 with the RFC 6750 §3 challenge.
     */
    requireMachineScope(scope: MachineScope): (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
  interface FastifyRequest {
    machineCaller: MachineCaller | null;
  }
}

/**
 * Access tokens of client_credentials are the provider's opaque ones, stored with it: the portal
 * checks one in-process by the provider's own lookup (ClientCredentials.find: known, not expired, not
 * revoked) instead of introspection over HTTP or JWTs, which could not be taken back before they
 * expire. The client is read again at every call, so 停用, 删除, 重置密钥 and narrower scopes apply at once.
 */
async function machineTokens(app: FastifyInstance) {
  app.decorateRequest('machineCaller', null);

  const refuse = (reply: FastifyReply, challenge: string, error: AppError): never => {
    reply.header('www-authenticate', `Bearer realm="portal", ${challenge}`);
    throw error;
  };
  const invalid = (reply: FastifyReply) => refuse(reply, 'error="invalid_token"', new AppError(MachineClientMessage.tokenInvalid, 401));

  async function machineCaller(header: string | undefined): Promise<MachineCaller | undefined> {
    const match = /^Bearer ([\x21-\x7e]{1,255})$/i.exec(header ?? '');
    // The provider runs where the embedded CAS does: without it no token is valid.
    if (!match?.[1] || !app.hasDecorator('oidcService')) return undefined;
    const provider = await app.oidcService.provider();
    const token = await provider.ClientCredentials.find(match[1]);
    if (!token?.clientId) return undefined;
    const client = await app.oidcClientRepository.findMachineClient(token.clientId);
    const extra = (token.extra ?? {}) as Record<string, unknown>;
    if (!client || extra[SECRET_GENERATION_CLAIM] !== secretGeneration(client.secretHash)) return undefined;
    const held = new Set(client.scopes.split(' '));
    const scopes = (token.scope ?? '').split(' ').filter((s) => held.has(s));
    return { clientId: client.clientId, name: client.name, enterpriseId: client.enterpriseId, scopes };
  }

  app.decorate('requireMachineScope', (scope: MachineScope) => async (request: FastifyRequest, reply: FastifyReply) => {
    const caller = await machineCaller(request.headers.authorization);
    if (!caller) return invalid(reply);
    if (!caller.scopes.includes(scope)) {
      return refuse(reply, `error="insufficient_scope", scope="${scope}"`, new ForbiddenError(MachineClientMessage.scopeMissing(scope)));
    }
    request.machineCaller = caller;
  });
}

export default fp(machineTokens, { name: 'machine-tokens', dependencies: ['oidc-client-repository'] });
