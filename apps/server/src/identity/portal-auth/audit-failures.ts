import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../../platform/lib/errors.js';
import { describeValidation } from '../../platform/plugins/error-handler.js';
import { actorOf } from './auth.js';

/** The message the user saw, never an internal error's text. */
function refusal(error: FastifyError): string {
  if (error instanceof AppError) return error.message;
  if (error.validation) return describeValidation(error.validation, error.validationContext);
  return (error.statusCode ?? 500) < 500 ? '请求不正确' : '服务器内部错误';
}

/**
 * A console write refused for a logged-in user (no authority, bad input, conflict) lands in the
 * audit log as a failure of the route's `auditAction`, with the refusal's message. Calls without a
 * valid token are not recorded: the client refreshes its token and replays them.
 */
async function auditFailures(app: FastifyInstance) {
  app.addHook('onError', async (request, _reply, error) => {
    const action = request.routeOptions.config.auditAction;
    if (!action || !request.principal) return;
    const params = request.params && typeof request.params === 'object' ? Object.values(request.params) : [];
    await app.auditRepository.recordBy(actorOf(request), action, params.map(String).join(' '), 'failure', refusal(error));
  });
}

export default fp(auditFailures, { name: 'audit-failures', dependencies: ['auth', 'audit-repository'] });
