import { afterEach, describe, expect, it, vi } from 'vitest';

const error = vi.fn();
const success = vi.fn();
let loads = 0;
vi.mock('antd/es/message', () => {
  loads++;
  return { default: { error, success } };
});

afterEach(() => {
  error.mockClear();
  success.mockClear();
});

describe('notify (antd message, loaded with the first toast)', () => {
  it('shows errors for 3 s by default, in call order, loading antd message once', async () => {
    const { notify } = await import('../notify');
    notify.error('第一条');
    notify.success('已发送', 5);
    notify.error('第二条', 3);
    // The first toast also loads antd's provider (locale and theme of static toasts): a second or more.
    await vi.waitFor(() => expect(error).toHaveBeenCalledTimes(2), { timeout: 10_000 });
    expect(error.mock.calls).toEqual([
      ['第一条', 3],
      ['第二条', 3],
    ]);
    expect(success).toHaveBeenCalledWith('已发送', 5);
    expect(loads).toBe(1);
  });
});
