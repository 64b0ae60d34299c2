import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/errors.js';
import { requestOrigin } from '../lib/request-origin.js';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Whether a route answers a method that changes state (a route may take several methods). */
function changesState(method: string | string[]): boolean {
  return typeof method === 'string' ? STATE_CHANGING.has(method) : method.some((m) => STATE_CHANGING.has(m));
}

/**
 * State-changing calls need `X-Requested-With` (a header a cross-site form cannot send) and, when
 * the browser names one, a same-site origin. Routes that take form posts opt out with `config.csrf`.
 *
 * The check is attached to the state-changing routes only (first of their onRequest hooks), so
 * reads, which are most requests, do not run it at all.
 */
async function csrf(app: FastifyInstance) {
  // A callback hook (not async): a promise per request is measurable.
  function csrfCheck(this: FastifyInstance, request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) {
    if (!STATE_CHANGING.has(request.method)) return done();
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
  }

  app.addHook('onRoute', (route) => {
    if (!changesState(route.method) || route.config?.csrf === false) return;
    const own: onRequestHookHandler[] =
      route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
    route.onRequest = [csrfCheck, ...own];
  });
}

export default fp(csrf, { name: 'csrf' });
