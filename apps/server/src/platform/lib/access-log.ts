import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/** ACCESS_LOG: every request, only failed or slow ones, or none. */
export type AccessLog = 'all' | 'errors' | 'off';

/** A request this slow is logged whatever ACCESS_LOG says (unless off). */
export const SLOW_REQUEST_MS = 1000;

/**
 * The access log: one line per request (ACCESS_LOG=all) or, by default, only for requests that
 * failed or took a second or more, instead of Fastify's two lines per request: the reverse proxy in
 * front keeps the full access log. Fastify's log controller is its extension point for these lines.
 */
export class AccessLogController extends LogController {
  constructor(private readonly mode: AccessLog) {
    super({ disableRequestLogging: true });
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.mode === 'off') return;
    const ms = reply.elapsedTime;
    if (error) {
      request.log.error({ req: request, res: { statusCode: reply.statusCode }, ms: Math.round(ms), err: error }, 'request');
    } else if (this.mode === 'all' || reply.statusCode >= 400 || ms >= SLOW_REQUEST_MS) {
      request.log.info({ req: request, res: { statusCode: reply.statusCode }, ms: Math.round(ms) }, 'request');
    }
  }
}
