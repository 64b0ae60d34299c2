import {
  CertificationMessage,
  type IdentifierRecordInputSchema,
  type IdentifierRecordQuerySchema,
  type IdentifierRecordUpdateSchema,
} from '@portal/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Static } from 'typebox';
import type { Actor } from '../../platform/lib/actor.js';
import { BadRequestError, ForbiddenError, NotFoundError } from '../../platform/lib/errors.js';
import { callerEnterprise } from '../../platform/lib/tenant-scope.js';
import { identifierAdminContext, scopeOf } from './identifier-admin-context.js';
import { toRecord } from './record-repository.js';

declare module 'fastify' {
  interface FastifyInstance {
    machineRecordService: MachineRecordService;
  }
}

/**
 * Identifier records through the enterprise's machine APIs: the console's rules (record-admin-service.ts)
 * for a machine client acting inside its enterprise, which must be certified as for people. Another
 * enterprise's prefix, template or record is answered as one that does not exist, never as 属于其他企业.
 */
export class MachineRecordService {
  private readonly context;

  constructor(private readonly app: FastifyInstance) {
    this.context = identifierAdminContext(app);
  }

  private async certified(actor: Actor): Promise<number> {
    const enterpriseId = callerEnterprise(actor);
    const enterprise = await this.app.enterpriseRepository.record(enterpriseId);
    if (enterprise?.certificationStatus !== 'certified') throw new ForbiddenError(CertificationMessage.certificationRequired);
    return enterpriseId;
  }

  private async ownPrefix(enterpriseId: number, prefix: string): Promise<void> {
    const row = await this.app.prefixRepository.byPrefix(prefix);
    if (row?.enterprise_id !== enterpriseId) throw new BadRequestError(`标识前缀 ${prefix} 不存在`);
  }

  private async ownTemplate(enterpriseId: number, templateId: number): Promise<void> {
    const row = await this.app.templateRepository.byId(templateId);
    if (row?.enterprise_id !== enterpriseId) throw new BadRequestError('模板不存在');
  }

  private async ownRecord(enterpriseId: number, id: number) {
    const row = await this.app.recordRepository.byId(id);
    if (row?.enterprise_id !== enterpriseId) throw new NotFoundError('标识不存在');
    return row;
  }

  async page(actor: Actor, query: Static<typeof IdentifierRecordQuerySchema>) {
    const enterpriseId = await this.certified(actor);
    const { offset, limit, ...filters } = query;
    const prefix = filters.prefix?.trim();
    if (prefix) await this.ownPrefix(enterpriseId, prefix);
    if (filters.templateId !== undefined) await this.ownTemplate(enterpriseId, filters.templateId);
    const filter = await this.context.recordFilter(scopeOf(actor), filters);
    return filter ? await this.app.recordRepository.page({ ...filter, offset, limit }) : { rows: [], total: 0 };
  }

  async detail(actor: Actor, id: number) {
    return toRecord(await this.ownRecord(await this.certified(actor), id));
  }

  async create(actor: Actor, body: Static<typeof IdentifierRecordInputSchema>) {
    const enterpriseId = await this.certified(actor);
    await this.ownPrefix(enterpriseId, body.prefix.trim());
    await this.ownTemplate(enterpriseId, body.templateId);
    return toRecord(await this.app.recordAdminService.create(actor, body));
  }

  async update(actor: Actor, id: number, body: Static<typeof IdentifierRecordUpdateSchema>) {
    const enterpriseId = await this.certified(actor);
    await this.ownRecord(enterpriseId, id);
    if (body.templateId !== undefined) await this.ownTemplate(enterpriseId, body.templateId);
    return toRecord(await this.app.recordAdminService.update(actor, id, body));
  }
}

export default fp(
  async (app) => {
    app.decorate('machineRecordService', new MachineRecordService(app));
  },
  { name: 'machine-record-service', dependencies: ['record-admin-service', 'enterprise-repository'] },
);
