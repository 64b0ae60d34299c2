import { describe, expect, it } from 'vitest';
import { LogSmsSender } from '../log-sms-sender.js';

function recorder() {
  const lines: { obj: object; msg: string }[] = [];
  return { lines, log: { info: (obj: object, msg: string) => void lines.push({ obj, msg }) } };
}

describe('LogSmsSender', () => {
  it('is the development sender and exposes codes', () => {
    const sender = new LogSmsSender(recorder());
    expect(sender.name).toBe('log');
    expect(sender.exposesCodes).toBe(true);
  });

  it('writes exactly one log line per message', async () => {
    const r = recorder();
    await new LogSmsSender(r).send({ phone: '13800138000', templateKey: 'login', params: { code: '123456' } });
    expect(r.lines).toEqual([
      {
        obj: { sms: { phone: '13800138000', templateKey: 'login', params: { code: '123456' } } },
        msg: 'development SMS (not sent to a phone)',
      },
    ]);
  });

  it('keeps a bounded outbox, newest first, filterable by phone', async () => {
    const sender = new LogSmsSender({ ...recorder(), outboxSize: 3 });
    for (let i = 1; i <= 5; i++) {
      await sender.send({ phone: i % 2 ? '13800000001' : '13800000002', templateKey: 'register', params: { code: String(i) } });
    }
    const all = sender.outbox();
    expect(all.map((e) => e.params.code)).toEqual(['5', '4', '3']);
    expect(all[0]).toEqual({ phone: '13800000001', templateKey: 'register', params: { code: '5' }, sentAt: expect.any(String) });
    expect(Number.isNaN(Date.parse(all[0]?.sentAt ?? ''))).toBe(false);
    expect(sender.outbox('13800000001').map((e) => e.params.code)).toEqual(['5', '3']);
    expect(sender.outbox('13900000000')).toEqual([]);
  });

  it('defaults to 200 entries', async () => {
    const sender = new LogSmsSender(recorder());
    for (let i = 0; i < 205; i++) await sender.send({ phone: '13800000001', templateKey: 'reset', params: { code: String(i) } });
    const all = sender.outbox();
    expect(all).toHaveLength(200);
    expect(all[0]?.params.code).toBe('204');
    expect(all[199]?.params.code).toBe('5');
  });

  it('hands out copies that cannot change the stored history', async () => {
    const sender = new LogSmsSender(recorder());
    const params = { code: '111111' };
    await sender.send({ phone: '13800000001', templateKey: 'register', params });
    params.code = 'changed';
    const first = sender.outbox()[0];
    if (first) first.params.code = 'tampered';
    expect(sender.outbox()[0]?.params.code).toBe('111111');
  });
});
