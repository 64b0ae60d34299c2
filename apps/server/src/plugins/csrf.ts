import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/errors.js';
import { requestOrigin } from '../lib/request-origin.js';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * State-changing calls need `X-Requested-With` (a header a cross-site form cannot send) and, when
 * the browser names one, a same-site origin. Routes that take form posts opt out with `config.csrf`.
 */
async function csrf(app: FastifyInstance) {
  app.addHook('onRequest', async (request) => {
    if (!STATE_CHANGING.has(request.method) || request.routeOptions.config.csrf === false) return;
    if (request.headers['x-requested-with'] !== 'XMLHttpRequest') throw new AppError('非法请求：缺少 X-Requested-With 请求头', 403);
    const site = request.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'same-site' && site !== 'none') {
      throw new AppError('非法请求：不接受跨站提交', 403);
    }
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== requestOrigin(request) && origin !== app.config.publicUrl) {
      throw new AppError('非法请求：请求来源不受信任', 403);
    }
  });
}

export default fp(csrf, { name: 'csrf' });
