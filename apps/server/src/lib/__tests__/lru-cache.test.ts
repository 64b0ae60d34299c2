import { describe, expect, it, vi } from 'vitest';
import { TtlLruCache } from '../lru-cache.js';

describe('TtlLruCache', () => {
  it('shares concurrent loads, expires after the TTL and evicts the least recently used', async () => {
    let clock = 0;
    const cache = new TtlLruCache<number>(2, 100, () => clock);
    const load = vi.fn(async () => 1);
    await Promise.all([cache.get('a', load), cache.get('a', load)]);
    expect(load).toHaveBeenCalledTimes(1);
    await cache.get('b', async () => 2);
    await cache.get('a', load); // a is now the most recent
    await cache.get('c', async () => 3); // evicts b
    expect(cache.size).toBe(2);
    const reloadB = vi.fn(async () => 22);
    expect(await cache.get('b', reloadB)).toBe(22);
    clock = 150;
    expect(await cache.get('a', async () => 11)).toBe(11);
  });

  it('a load that began before clear() does not put the old value back', async () => {
    const cache = new TtlLruCache<string>(10, 1000);
    let finish: (value: string) => void = () => undefined;
    const before = cache.get('k', () => new Promise<string>((resolve) => (finish = resolve)));
    cache.clear(); // a write happened while the old value was being read
    finish('old');
    expect(await before).toBe('old');
    expect(await cache.get('k', async () => 'new')).toBe('new');
  });

  it('peek answers a fresh value at once, refreshes its place, and nothing once expired or absent', async () => {
    let clock = 0;
    const cache = new TtlLruCache<number>(2, 100, () => clock);
    expect(cache.peek('a')).toBeUndefined();
    await cache.get('a', async () => 1);
    await cache.get('b', async () => 2);
    expect(cache.peek('a')).toBe(1); // a is now the most recent
    await cache.get('c', async () => 3); // evicts b
    expect(cache.peek('b')).toBeUndefined();
    expect(cache.peek('a')).toBe(1);
    clock = 100;
    expect(cache.peek('a')).toBeUndefined();
  });

  it('repeated hits on the most recent entry keep the order right', async () => {
    const cache = new TtlLruCache<number>(2, 100, () => 0);
    await cache.get('a', async () => 1);
    await cache.get('b', async () => 2);
    expect(cache.peek('b')).toBe(2); // already the most recent
    expect(cache.peek('a')).toBe(1);
    expect(cache.peek('a')).toBe(1); // a run of hits on a
    await cache.get('c', async () => 3); // evicts b, the least recent
    expect(cache.peek('b')).toBeUndefined();
    expect(cache.peek('c')).toBe(3);
    expect(cache.peek('a')).toBe(1);
    await cache.get('d', async () => 4); // evicts c
    expect([cache.peek('c'), cache.peek('a'), cache.peek('d')]).toEqual([undefined, 1, 4]);
  });

  it('does not keep failures', async () => {
    const cache = new TtlLruCache<string>(10, 1000);
    await expect(cache.get('k', async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get('k', async () => 'ok')).toBe('ok');
  });

  it('keeps each value for its own TTL and does not keep values whose TTL is 0', async () => {
    let clock = 0;
    const cache = new TtlLruCache<{ ttl: number; n: number }>(10, 100, () => clock);
    await cache.get(
      'short',
      async () => ({ ttl: 10, n: 1 }),
      (v) => v.ttl,
    );
    await cache.get(
      'long',
      async () => ({ ttl: 1000, n: 1 }),
      (v) => v.ttl,
    );
    await cache.get(
      'none',
      async () => ({ ttl: 0, n: 1 }),
      (v) => v.ttl,
    );
    expect(cache.size).toBe(2);
    clock = 50;
    expect(
      (
        await cache.get(
          'short',
          async () => ({ ttl: 10, n: 2 }),
          (v) => v.ttl,
        )
      ).n,
    ).toBe(2);
    expect(
      (
        await cache.get(
          'long',
          async () => ({ ttl: 1000, n: 2 }),
          (v) => v.ttl,
        )
      ).n,
    ).toBe(1);
    expect(
      (
        await cache.get(
          'none',
          async () => ({ ttl: 0, n: 2 }),
          (v) => v.ttl,
        )
      ).n,
    ).toBe(2);
  });
});
