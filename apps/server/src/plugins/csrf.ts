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
  // A callback hook (not async): it runs on every request and a promise per GET is measurable.
  app.addHook('onRequest', (request, _reply, done) => {
    if (!STATE_CHANGING.has(request.method) || request.routeOptions.config.csrf === false) return done();
    if (request.headers['x-requested-with'] !== 'XMLHttpRequest') return done(new AppError('非法请求：缺少 X-Requested-With 请求头', 403));
    const site = request.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'same-site' && site !== 'none') {
      return done(new AppError('非法请求：不接受跨站提交', 403));
    }
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== requestOrigin(request) && origin !== app.config.publicUrl) {
      return done(new AppError('非法请求：请求来源不受信任', 403));
    }
    done();
  });
}

export default fp(csrf, { name: 'csrf' });
