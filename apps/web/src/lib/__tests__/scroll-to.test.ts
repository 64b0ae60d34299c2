import { afterEach, describe, expect, it, vi } from 'vitest';
import { scrollTo } from '../scroll-to';

describe('scrollTo (style.md: ease-in-out, 20 ms steps)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('eases from the current position to the target in duration / 20 steps, then calls back', () => {
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => frames.push(cb));
    document.documentElement.scrollTop = 800;
    const positions: number[] = [];
    const done = vi.fn();
    scrollTo(0, 800, done);
    positions.push(document.documentElement.scrollTop);
    while (frames.length > 0) {
      frames.shift()?.(0);
      positions.push(document.documentElement.scrollTop);
    }
    expect(positions).toHaveLength(800 / 20);
    expect(positions.at(-1)).toBe(0);
    expect(done).toHaveBeenCalledOnce();
    // Slow at both ends, fast in the middle.
    const steps = positions.map((p, i) => (i === 0 ? 800 - p : (positions[i - 1] ?? 0) - p));
    expect(steps[0]).toBeLessThan(steps[20] ?? 0);
    expect(steps.at(-1)).toBeLessThan(steps[20] ?? 0);
  });
});
