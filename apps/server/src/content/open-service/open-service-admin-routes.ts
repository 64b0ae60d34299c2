import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ApiPrefix,
  Authority,
  isOpenServiceIcon,
  isOpenServiceToolId,
  isOpenServiceToolStatus,
  OPEN_SERVICE_TOOL_IDS,
  OpenServiceMessage,
  OpenServiceRules,
  OpenServiceToolAdminSchema,
  OpenServiceToolBodySchema,
  OpenServiceToolIdParamsSchema,
} from '@portal/shared';
import sanitizeHtml from 'sanitize-html';
import type { Static } from 'typebox';
import { inTransaction } from '../../platform/db/transaction.js';
import { Envelope, errorResponses, ok } from '../../platform/lib/envelope.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/lib/errors.js';
import { auditRequest } from '../../platform/audit/audit-log.js';
import { sanitizeArticleHtml } from '../../platform/lib/sanitize-article.js';
import type { OpenServiceToolColumns, OpenServiceToolRow } from './open-service-repository.js';
import { toAdminTool } from './open-service-answers.js';

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
 * 开放服务 (authority content:open-service): the six tools of the open-service centre, edited in place
 * (spec section 9: fixed ids, never added or removed). A write shows on the public centre at once on
 * this instance (its cached content is dropped) and within CONTENT_CACHE's seconds behind shared caches.
 */
const openServiceAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.database;
  const tools = app.openServiceRepository;
  const guard = app.requireAuthority(Authority.ContentOpenService);

  async function byId(id: string): Promise<OpenServiceToolRow> {
    const row = isOpenServiceToolId(id) ? await tools.byId(id) : undefined;
    if (!row) throw new NotFoundError(OpenServiceMessage.adminNotFound);
    return row;
  }

  app.get(
    `${ApiPrefix.console}/open-service/tool/list`,
    {
      onRequest: guard,
      schema: {
        tags: ['console'],
        summary: `开放服务工具列表（含已下线的，共 ${OPEN_SERVICE_TOOL_IDS.length} 个），按排序`,
        response: { 200: Envelope(OpenServiceToolAdminSchema), ...errorResponses },
      },
    },
    async () => ok((await tools.all()).map(toAdminTool)),
  );

  app.put(
    `${ApiPrefix.console}/open-service/tool/:id`,
    {
      onRequest: guard,
      config: { auditAction: 'content.open-service.update' },
      schema: {
        tags: ['console'],
        summary: '修改开放服务工具：名称、简介、介绍、图标、排序、上线/下线',
        params: OpenServiceToolIdParamsSchema,
        body: OpenServiceToolBodySchema,
        response: { 200: Envelope(OpenServiceToolAdminSchema), ...errorResponses },
      },
    },
    async (request) => {
      const existing = await byId(request.params.id);
      const columns = toolColumns(request.body);
      if (await tools.titleTaken(columns.title, existing.id)) throw new ConflictError(OpenServiceMessage.titleTaken);
      await inTransaction(db, async (trx) => {
        await tools.update(existing.id, columns, trx);
        await auditRequest(trx, request, 'content.open-service.update', `${existing.id} ${columns.title}`);
      });
      app.caches.clear('content');
      return ok(toAdminTool(await byId(existing.id)), OpenServiceMessage.saved);
    },
  );
};

export default openServiceAdminRoutes;
