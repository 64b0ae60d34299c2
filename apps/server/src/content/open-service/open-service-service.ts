import {
  isOpenServiceIcon,
  isOpenServiceToolId,
  isOpenServiceToolStatus,
  OpenServiceMessage,
  OpenServiceRules,
  type OpenServiceToolBodySchema,
} from '@portal/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import sanitizeHtml from 'sanitize-html';
import type { Static } from 'typebox';
import type { Caller } from '../../identity/portal-auth/auth.js';
import { auditBy } from '../../platform/audit/audit-log.js';
import { inTransaction } from '../../platform/db/transaction.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/lib/errors.js';
import { sanitizeArticleHtml } from '../../platform/lib/sanitize-article.js';
import type { OpenServiceToolColumns, OpenServiceToolRow } from './open-service-repository.js';

declare module 'fastify' {
  interface FastifyInstance {
    openServiceService: OpenServiceService;
  }
}

/** Whether sanitised HTML still shows something: text or an image. */
const showsSomething = (html: string) =>
  html.includes('<img') || sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} }).trim() !== '';

/** Checks a tool body with the rules the console's form runs; answers the columns to write. */
function toolColumns(body: Static<typeof OpenServiceToolBodySchema>): OpenServiceToolColumns {
  const fail = (problem: string | undefined) => {
    if (problem) throw new BadRequestError(problem);
  };
  fail(OpenServiceRules.title(body.title) ?? OpenServiceRules.summary(body.summary) ?? OpenServiceRules.body(body.body));
  if (!isOpenServiceIcon(body.icon)) throw new BadRequestError(OpenServiceMessage.iconInvalid);
  fail(OpenServiceRules.sort(body.sort));
  if (!isOpenServiceToolStatus(body.status)) throw new BadRequestError(OpenServiceMessage.statusInvalid);
  const html = sanitizeArticleHtml(body.body);
  if (!showsSomething(html)) throw new BadRequestError(OpenServiceMessage.bodyRequired);
  return {
    title: body.title.trim(),
    summary: body.summary.trim(),
    body: html,
    icon: body.icon,
    sort: body.sort,
    status: body.status,
    updated_at: new Date().toISOString(),
  };
}

/**
 * 开放服务's rules: the six tools are edited in place (spec section 9: fixed ids, never added or
 * removed); a write commits with its audit row and drops this instance's cached content.
 */
export class OpenServiceService {
  constructor(private readonly app: FastifyInstance) {}

  async byId(id: string): Promise<OpenServiceToolRow> {
    const row = isOpenServiceToolId(id) ? await this.app.openServiceRepository.byId(id) : undefined;
    if (!row) throw new NotFoundError(OpenServiceMessage.adminNotFound);
    return row;
  }

  /** Saves a tool; answers it. `caller` is who asks (the audit row). */
  async update(caller: Caller, id: string, body: Static<typeof OpenServiceToolBodySchema>): Promise<OpenServiceToolRow> {
    const tools = this.app.openServiceRepository;
    const existing = await this.byId(id);
    const columns = toolColumns(body);
    if (await tools.titleTaken(columns.title, existing.id)) throw new ConflictError(OpenServiceMessage.titleTaken);
    await inTransaction(this.app.database.db, async (trx) => {
      await tools.update(existing.id, columns, trx);
      await auditBy(trx, caller, 'content.open-service.update', `${existing.id} ${columns.title}`);
    });
    this.app.caches.clear('content');
    return this.byId(existing.id);
  }
}

export default fp(
  async (app) => {
    app.decorate('openServiceService', new OpenServiceService(app));
  },
  { name: 'open-service-service', dependencies: ['open-service-repository'] },
);
