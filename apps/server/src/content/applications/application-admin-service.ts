import { randomUUID } from 'node:crypto';
import {
  type AdminApplicationInputSchema,
  type AdminApplicationSchema,
  normalizeServicePrefix,
  platformServiceOverlapsEnterprise,
  platformServiceOverlapsPlatform,
  RELEASABLE_ATTRIBUTES,
  type ReleasableAttribute,
  SsoMessage,
  SsoRules,
  SubscriptionMessage,
} from '@portal/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Static } from 'typebox';
import type { Caller } from '../../identity/portal-auth/auth.js';
import { auditBy } from '../../platform/audit/audit-log.js';
import type { Database } from '../../platform/db/schema.js';
import { inTransaction } from '../../platform/db/transaction.js';
import { checkedImagePath } from '../../platform/lib/checked-urls.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/lib/errors.js';
import { sanitizeArticleHtml } from '../../platform/lib/sanitize-article.js';
import { overlaps } from '../../identity/cas/cas-services.js';
import type { ApplicationColumns, ApplicationRow as Row } from './application-repository.js';

declare module 'fastify' {
  interface FastifyInstance {
    applicationAdminService: ApplicationAdminService;
  }
}

type ApplicationInput = Static<typeof AdminApplicationInputSchema>;

export const toAdmin = (r: Row): Static<typeof AdminApplicationSchema> => ({
  id: r.id,
  applicationUuid: r.uuid,
  name: r.name,
  applicationDescription: r.application_description,
  imagePath: r.image_path,
  iconPath: r.icon_path,
  category: r.category,
  provider: r.provider,
  content: r.content,
  recommended: r.recommended === 1,
  status: r.status === 'published' ? 'published' : 'offline',
  sort: r.sort,
  createdAt: r.created_at,
  serviceUrl: r.service_url,
  logoutUrl: r.logout_url,
  attributes: RELEASABLE_ATTRIBUTES.filter((a) => r.attributes.split(',').includes(a)),
});

type SsoColumns = Pick<Row, 'service_url' | 'service_host' | 'logout_url' | 'attributes'>;

/**
 * A platform application's single sign-on settings, by the rules of 应用列表's service
 * address (SsoRules): a field left out keeps its stored value (`current`; '' for a new application).
 */
function ssoColumns(body: ApplicationInput, current: SsoColumns | undefined): SsoColumns {
  const serviceUrl = (body.serviceUrl ?? current?.service_url ?? '').trim();
  const logoutUrl = (body.logoutUrl ?? current?.logout_url ?? '').trim();
  const given = body.attributes ?? (current?.attributes ? current.attributes.split(',') : []);
  const problem = (serviceUrl ? SsoRules.servicePrefix(serviceUrl) : undefined) ?? SsoRules.logoutUrl(logoutUrl);
  if (problem) throw new BadRequestError(problem);
  const known: readonly string[] = RELEASABLE_ATTRIBUTES;
  if (given.some((a) => !known.includes(a))) throw new BadRequestError(SsoMessage.attributeUnknown);
  if (!serviceUrl && (logoutUrl || given.length)) throw new BadRequestError(SubscriptionMessage.serviceFirst);
  const service = serviceUrl ? normalizeServicePrefix(serviceUrl) : '';
  return {
    service_url: service,
    service_host: service ? new URL(service).hostname : '',
    logout_url: logoutUrl ? new URL(logoutUrl).href : '',
    // In the order the console lists them, once each.
    attributes: RELEASABLE_ATTRIBUTES.filter((a): a is ReleasableAttribute => given.includes(a)).join(','),
  };
}

/** Checks an application body; answers the columns to write. */
function applicationColumns(body: ApplicationInput, current?: SsoColumns): ApplicationColumns {
  const name = body.name.trim();
  if (!name) throw new BadRequestError('请输入应用名称');
  const description = body.applicationDescription.trim();
  if (!description) throw new BadRequestError('请输入应用简介');
  const imagePath = checkedImagePath(body.imagePath, '应用图片地址格式不正确');
  if (!imagePath) throw new BadRequestError('请上传应用图片');
  const category = body.category.trim();
  if (!category) throw new BadRequestError('请输入应用分类');
  const provider = body.provider.trim();
  if (!provider) throw new BadRequestError('请输入提供方');
  return {
    name,
    application_description: description,
    image_path: imagePath,
    icon_path: checkedImagePath(body.iconPath, '应用图标地址格式不正确') ?? '',
    category,
    provider,
    content: sanitizeArticleHtml(body.content ?? ''),
    recommended: body.recommended ? 1 : 0,
    status: body.status,
    ...ssoColumns(body, current),
  };
}

/**
 * 推荐应用 management's rules. An application with a service address is on single sign-on:
 * certified enterprises may subscribe to it, and its address belongs to it alone — no overlap with
 * the portal, CAS_SERVICES, an enterprise's application or another platform application. Each write
 * commits with its audit row and drops this instance's cached content. `caller` is who asks.
 */
export class ApplicationAdminService {
  constructor(private readonly app: FastifyInstance) {}

  async byUuid(uuid: string): Promise<Row> {
    const row = await this.app.applicationRepository.byUuid(uuid);
    if (!row) throw new NotFoundError('应用不存在');
    return row;
  }

  /** A new application, last in order; answers it. */
  async create(caller: Caller, body: ApplicationInput): Promise<Row> {
    const columns = applicationColumns(body);
    await this.refuseDuplicateName(columns.name);
    this.assertNotPlatformWide(caller, columns.service_url ?? '');
    const uuid = randomUUID();
    await inTransaction(this.app.database.db, async (trx) => {
      await this.assertNoOverlap(trx, undefined, columns.service_url ?? '');
      await this.app.applicationRepository.create(columns, uuid, trx);
      await auditBy(trx, caller, 'content.application.create', columns.name);
    });
    this.app.caches.clear('content');
    return this.byUuid(uuid);
  }

  /** Every application in a new order; answers them. */
  async reorder(caller: Caller, uuids: string[]): Promise<Row[]> {
    if (new Set(uuids).size !== uuids.length) throw new BadRequestError('排序列表中有重复的应用');
    // A list made before another write (a new or deleted application) would lose or misplace one.
    await inTransaction(this.app.database.db, async (trx) => {
      if (!(await this.app.applicationRepository.reorder(uuids, trx))) throw new ConflictError('应用列表已变化，请刷新后重试');
      await auditBy(trx, caller, 'content.application.reorder', `${uuids.length} 个应用`);
    });
    this.app.caches.clear('content');
    return this.app.applicationRepository.all();
  }

  async update(caller: Caller, uuid: string, body: ApplicationInput): Promise<Row> {
    const applications = this.app.applicationRepository;
    const existing = await this.byUuid(uuid);
    const columns = applicationColumns(body, existing);
    await this.refuseDuplicateName(columns.name, existing.id);
    this.assertNotPlatformWide(caller, columns.service_url ?? '');
    await inTransaction(this.app.database.db, async (trx) => {
      await this.assertNoOverlap(trx, existing.id, columns.service_url ?? '');
      // The subscribed enterprises sign in through it: it stays on single sign-on until they are revoked.
      if (!columns.service_url && (await applications.copyCount(existing.id, trx)) > 0) {
        throw new ConflictError(SubscriptionMessage.stillSubscribed);
      }
      // Its subscribed copies follow (logout address, attributes…) in the same transaction.
      await applications.update(existing.id, columns, trx);
      await auditBy(trx, caller, 'content.application.update', columns.name);
    });
    this.app.caches.clear('content');
    return this.byUuid(existing.uuid);
  }

  /** Deletes a withdrawn application without subscriptions. */
  async delete(caller: Caller, uuid: string): Promise<void> {
    const applications = this.app.applicationRepository;
    const existing = await this.byUuid(uuid);
    // A listed application may be open in visitors' browsers and linked from the home carousel.
    if (existing.status === 'published') throw new ConflictError('应用已上架，请先下架再删除');
    await inTransaction(this.app.database.db, async (trx) => {
      // Deleting would silently take it from the enterprises' 应用列表: their subscriptions are revoked first.
      if ((await applications.copyCount(existing.id, trx)) > 0) throw new ConflictError(SubscriptionMessage.stillSubscribed);
      await applications.delete(existing.id, trx);
      await auditBy(trx, caller, 'content.application.delete', existing.name);
    });
    this.app.caches.clear('content');
  }

  /** Refuses a service address this portal or a CAS_SERVICES address already answers for. */
  private assertNotPlatformWide(caller: Caller, serviceUrl: string) {
    if (!serviceUrl) return;
    const url = new URL(serviceUrl);
    const portalBase = this.app.config.publicUrl ?? caller.origin;
    if (this.app.casApplicationService.platformPrefixes(portalBase).some((p) => overlaps(url, p))) {
      throw new ConflictError(SsoMessage.servicePlatform);
    }
  }

  /**
   * Inside the write's transaction (the hosts locked on PostgreSQL): refuses a service address
   * overlapping an enterprise's application or another platform application, naming it.
   */
  private async assertNoOverlap(trx: Kysely<Database>, applicationId: number | undefined, serviceUrl: string) {
    if (!serviceUrl) return;
    const url = new URL(serviceUrl);
    for (const other of await this.app.ssoAppRepository.prefixesOnHosts(trx, [url.hostname])) {
      if (other.platform && other.applicationId === applicationId) continue;
      if (!overlaps(url, new URL(other.prefix))) continue;
      throw new ConflictError(
        other.platform ? platformServiceOverlapsPlatform(other.name) : platformServiceOverlapsEnterprise(other.enterpriseName, other.name),
      );
    }
  }

  private async refuseDuplicateName(name: string, exceptId?: number) {
    if (await this.app.applicationRepository.nameTaken(name, exceptId)) throw new ConflictError('应用名称已存在');
  }
}

export default fp(
  async (app) => {
    app.decorate('applicationAdminService', new ApplicationAdminService(app));
  },
  { name: 'application-admin-service', dependencies: ['application-repository'] },
);
