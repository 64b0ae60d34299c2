import { describe, expect, it, vi } from 'vitest';
import { ttlCache } from '../ttl-cache.js';

describe('ttlCache', () => {
  it('loads once for concurrent misses, serves from memory within the TTL, reloads after it or on invalidate', async () => {
    let clock = 1_000;
    let n = 0;
    const load = vi.fn(async () => ++n);
    const cache = ttlCache(100, load, () => clock);
    expect(await Promise.all([cache.get(), cache.get(), cache.get()])).toEqual([1, 1, 1]);
    expect(load).toHaveBeenCalledTimes(1);
    clock += 99;
    expect(await cache.get()).toBe(1);
    clock += 2;
    expect(await cache.get()).toBe(2);
    cache.invalidate();
    expect(await cache.get()).toBe(3);
  });

  it('does not keep a failed load', async () => {
    let fail = true;
    const cache = ttlCache(100, async () => {
      if (fail) throw new Error('db down');
      return 'ok';
    });
    await expect(cache.get()).rejects.toThrow('db down');
    fail = false;
    await expect(cache.get()).resolves.toBe('ok');
  });
});

describe('ttlCache invalidated during a load', () => {
  it('does not keep what the load read before the write, and the next get loads afresh', async () => {
    let stored = 'old';
    const releases: (() => void)[] = [];
    const load = vi.fn(async () => {
      const seen = stored;
      await new Promise<void>((resolve) => releases.push(resolve));
      return seen;
    });
    const cache = ttlCache(10_000, load);
    const slow = cache.get();
    // A write lands while the load is in flight.
    stored = 'new';
    cache.invalidate();
    const fresh = cache.get();
    releases[1]?.();
    expect(await fresh).toBe('new');
    releases[0]?.();
    expect(await slow).toBe('old');
    expect(await cache.get()).toBe('new');
    expect(load).toHaveBeenCalledTimes(2);
  });
});
