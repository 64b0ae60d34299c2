import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { AccessLogController, SLOW_REQUEST_MS } from '../access-log.js';

/** A finished request as Fastify hands it to the log controller, with a logger that records its lines. */
function finished(statusCode: number, elapsedTime: number) {
  const lines: { level: string; msg: string; ms: number; err?: Error }[] = [];
  const record = (level: string) => (fields: { ms: number; err?: Error }, msg: string) => lines.push({ level, msg, ...fields });
  const request = { log: { info: record('info'), error: record('error') } } as unknown as FastifyRequest;
  const reply = { statusCode, elapsedTime } as FastifyReply;
  return { request, reply, lines };
}

describe('AccessLogController', () => {
  it('by default logs failures and slow requests only, with the time rounded', () => {
    const log = new AccessLogController('errors');
    const fast = finished(200, 3.4);
    log.requestCompleted(null, fast.request, fast.reply);
    expect(fast.lines).toEqual([]);
    const slow = finished(200, SLOW_REQUEST_MS + 0.6);
    log.requestCompleted(null, slow.request, slow.reply);
    expect(slow.lines.map((l) => [l.level, l.ms])).toEqual([['info', SLOW_REQUEST_MS + 1]]);
    const refused = finished(403, 1);
    log.requestCompleted(null, refused.request, refused.reply);
    expect(refused.lines.map((l) => l.level)).toEqual(['info']);
  });

  it('logs a response whose stream failed as an error, with the error', () => {
    const broken = finished(200, 2);
    const error = new Error('socket hang up');
    new AccessLogController('errors').requestCompleted(error, broken.request, broken.reply);
    expect(broken.lines.map((l) => [l.level, l.msg, l.err])).toEqual([['error', 'request', error]]);
  });

  it('ACCESS_LOG=off logs nothing, not even failures; Fastify lines stay off', () => {
    const log = new AccessLogController('off');
    const failed = finished(500, SLOW_REQUEST_MS * 2);
    log.requestCompleted(new Error('x'), failed.request, failed.reply);
    expect(failed.lines).toEqual([]);
    expect(log.isLogDisabled(failed.request)).toBe(true);
  });
});
