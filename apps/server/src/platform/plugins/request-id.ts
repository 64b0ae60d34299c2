import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { REQUEST_ID_HEADER } from '../lib/request-id.js';

/**
 * Every answer names its request (`X-Request-Id`): the id its log lines carry (`reqId`) and its
 * 操作日志 rows record, so a user's complaint quoting it leads to both.
 */
async function requestId(app: FastifyInstance) {
  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });
}

export default fp(requestId, { name: 'request-id' });
