import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { throttle } from '../throttle';

describe('throttle', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs at once, then at most once per interval, ending with the last call', () => {
    const fn = vi.fn();
    const t = throttle(fn, 300);
    t(1);
    t(2);
    t(3);
    expect(fn.mock.calls).toEqual([[1]]);
    vi.advanceTimersByTime(299);
    expect(fn).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(fn.mock.calls).toEqual([[1], [3]]);
    vi.advanceTimersByTime(1000);
    expect(fn).toHaveBeenCalledTimes(2);
  });

  it('can be cancelled', () => {
    const fn = vi.fn();
    const t = throttle(fn, 300);
    t(1);
    t(2);
    t.cancel();
    vi.advanceTimersByTime(500);
    expect(fn.mock.calls).toEqual([[1]]);
  });
});
