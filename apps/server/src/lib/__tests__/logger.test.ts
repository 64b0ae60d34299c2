import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { LazyChildLogger, redactUrlSecrets } from '../logger.js';

function captured() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      callback();
    },
  });
  return { lines, logger: pino({ level: 'info' }, stream) };
}

describe('LazyChildLogger (a request logger built on its first line)', () => {
  it('builds no pino child until a line is logged, and then one', () => {
    const { logger } = captured();
    const child = vi.spyOn(logger, 'child');
    const lazy = new LazyChildLogger(logger, { reqId: 'req-1' }, {});
    expect(lazy.level).toBe('info');
    expect(child).not.toHaveBeenCalled();
    lazy.debug('below the level');
    lazy.info('a line');
    expect(child).toHaveBeenCalledTimes(1);
    expect(child).toHaveBeenCalledWith({ reqId: 'req-1' }, {});
  });

  it('writes what a pino child writes: bindings, objects, messages and format arguments', async () => {
    const { logger, lines } = captured();
    const lazy = new LazyChildLogger(logger, { reqId: 'req-7' }, {});
    lazy.info('plain message');
    lazy.warn({ handle: '88.118.8/A' }, 'upstream %s failed', 'timeout');
    lazy.error(new Error('boom'));
    lazy.child({ part: 'import' }).info('from a grandchild');
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.map((l) => [l.reqId, l.msg])).toEqual([
      ['req-7', 'plain message'],
      ['req-7', 'upstream timeout failed'],
      ['req-7', 'boom'],
      ['req-7', 'from a grandchild'],
    ]);
    expect(lines[1]).toMatchObject({ handle: '88.118.8/A', level: 40 });
    expect(lines[2]).toMatchObject({ level: 50, err: { message: 'boom' } });
    expect(lines[3]).toMatchObject({ part: 'import' });
  });

  it('takes a level of its own, like a pino child', async () => {
    const { logger, lines } = captured();
    const lazy = new LazyChildLogger(logger, { reqId: 'req-9' }, {});
    lazy.level = 'error';
    lazy.warn('not written');
    lazy.error('written');
    logger.warn('the parent keeps its level');
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.map((l) => l.msg)).toEqual(['written', 'the parent keeps its level']);
  });
});

describe('redactUrlSecrets', () => {
  it('masks tickets, tokens, codes and phone numbers in a query string', () => {
    expect(redactUrlSecrets('/cas/validate?ticket=ST-1&service=x&code=123456&phone=13800000000')).toBe(
      '/cas/validate?ticket=***&service=x&code=***&phone=***',
    );
  });
});
