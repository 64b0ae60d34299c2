import { describe, expect, it, vi } from 'vitest';
import { CacheRegistry } from '../cache.js';

/** A clock the test moves: TTLs run out without waiting for them. */
function testClock() {
  let now = 1_000;
  return {
    clock: { now: () => now },
    advance(ms: number) {
      now += ms;
    },
  };
}

describe('CacheRegistry', () => {
  it('loads once for concurrent misses and answers from memory until the TTL runs out', async () => {
    let n = 0;
    const load = vi.fn(async () => ({ n: ++n }));
    const { clock, advance } = testClock();
    const cache = new CacheRegistry({ clock }).create('site', { max: 10, ttl: 50, load });
    expect(await Promise.all([cache.get('a'), cache.get('a'), cache.get('a')])).toEqual([{ n: 1 }, { n: 1 }, { n: 1 }]);
    expect(load).toHaveBeenCalledTimes(1);
    advance(49);
    expect(await cache.get('a')).toEqual({ n: 1 });
    advance(2);
    expect(await cache.get('a')).toEqual({ n: 2 });
  });

  it('keeps a value for the TTL its load sets, and does not keep undefined or a failure', async () => {
    let calls = 0;
    const { clock, advance } = testClock();
    const cache = new CacheRegistry({ clock }).create<{ v: string }>('identifiers', {
      max: 10,
      ttl: 0,
      load: async (key, setTtl) => {
        calls += 1;
        if (key === 'missing') return undefined;
        if (key === 'broken') throw new Error('upstream down');
        setTtl(30);
        return { v: key };
      },
    });
    expect(await cache.get('x')).toEqual({ v: 'x' });
    expect(await cache.get('x')).toEqual({ v: 'x' });
    expect(calls).toBe(1);
    advance(29);
    await cache.get('x');
    expect(calls).toBe(1);
    advance(2);
    await cache.get('x');
    expect(calls).toBe(2);
    expect(await cache.get('missing')).toBeUndefined();
    expect(await cache.get('missing')).toBeUndefined();
    expect(calls).toBe(4);
    await expect(cache.get('broken')).rejects.toThrow('upstream down');
    await expect(cache.get('broken')).rejects.toThrow('upstream down');
    expect(calls).toBe(6);
  });

  it('clear drops every cache of the group, and what a load in flight read before the write', async () => {
    const caches = new CacheRegistry();
    let stored = 'old';
    let release!: () => void;
    const slow = caches.create('content', {
      max: 10,
      ttl: 60_000,
      load: async () => {
        const seen = stored;
        await new Promise<void>((resolve) => (release = resolve));
        return { seen };
      },
    });
    let siteLoads = 0;
    const other = caches.create('site', { max: 10, ttl: 60_000, load: async () => ({ n: ++siteLoads }) });
    await other.get('k');

    const inFlight = slow.get('k');
    stored = 'new';
    caches.clear('content');
    release();
    await inFlight.catch(() => undefined);
    const again = slow.get('k');
    release();
    expect(await again).toEqual({ seen: 'new' });
    // Another group is untouched.
    expect(await other.get('k')).toEqual({ n: 1 });
  });

  it('bounds the entries by size when asked', async () => {
    const loaded: string[] = [];
    const cache = new CacheRegistry().create('identifiers', {
      max: 100,
      ttl: 0,
      maxSize: 10,
      sizeOf: (value: { text: string }) => value.text.length,
      load: async (key) => {
        loaded.push(key);
        return { text: key.repeat(4) };
      },
    });
    for (const key of ['a', 'b', 'c', 'c', 'a']) await cache.get(key);
    // Three values of 4 do not fit in 10: 'a', the least recently used, was dropped and loads again.
    expect(loaded).toEqual(['a', 'b', 'c', 'a']);
  });
});
