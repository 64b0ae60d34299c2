import { ResponseCode } from '@portal/shared';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { reauthenticate } from '@/api/reauth';
import { ApiError } from '@/lib/api-client';
import { useReauth } from '../reauth-dialog';

vi.mock('@/api/change-password', () => ({
  getPasswordKey: vi.fn(() => Promise.resolve({ algorithm: 'RSA-OAEP-256', publicKey: 'AAAA' })),
}));
vi.mock('@/lib/encrypt-password', () => ({
  importPasswordKey: vi.fn(() => Promise.resolve({})),
  encryptPassword: vi.fn((_key: unknown, text: string) => Promise.resolve(`enc(${text})`)),
}));
vi.mock('@/api/reauth', () => ({ reauthenticate: vi.fn() }));

const stale = () => new ApiError('请先验证身份', ResponseCode.ReauthRequired, 403);
let change: ReturnType<typeof vi.fn<() => Promise<string>>>;

/** A page with one sensitive change run through useReauth. */
function Page() {
  const { run, dialog } = useReauth();
  const [result, setResult] = useState('');
  const go = () =>
    run(change).then(
      (r) => setResult(r),
      (err: unknown) => setResult(err instanceof ApiError ? `refused: ${err.message}` : 'refused'),
    );
  return (
    <>
      <button onClick={() => void go()}>修改</button>
      <output aria-label="结果">{result}</output>
      {dialog}
    </>
  );
}

beforeEach(() => {
  vi.mocked(reauthenticate).mockReset();
  change = vi.fn<() => Promise<string>>().mockRejectedValueOnce(stale()).mockResolvedValue('changed');
});

const result = () => screen.getByLabelText('结果').textContent;
const verify = () => fireEvent.click(screen.getByRole('button', { name: /验\s*证/ }));

describe('验证身份 before a sensitive change', () => {
  it('a fresh session changes at once, without the dialog', async () => {
    change = vi.fn<() => Promise<string>>().mockResolvedValue('changed');
    render(<Page />);
    fireEvent.click(screen.getByRole('button', { name: '修改' }));
    await waitFor(() => expect(result()).toBe('changed'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('asks for the password, shows a wrong one’s reason, and runs the change again once verified', async () => {
    vi.mocked(reauthenticate)
      .mockRejectedValueOnce(new ApiError('密码错误，还可尝试 2 次', 1, 400))
      .mockResolvedValue('身份已验证');
    render(<Page />);
    fireEvent.click(screen.getByRole('button', { name: '修改' }));
    const dialog = await screen.findByRole('dialog', { name: '验证身份' });
    expect(dialog).toBeTruthy();

    verify();
    expect(await screen.findByText('请输入当前密码')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('当前密码'), { target: { value: 'wrong' } });
    verify();
    expect(await screen.findByText('密码错误，还可尝试 2 次')).toBeTruthy();
    expect(reauthenticate).toHaveBeenLastCalledWith({ password: 'enc(wrong)' });
    expect(change).toHaveBeenCalledTimes(1);

    fireEvent.change(screen.getByLabelText('当前密码'), { target: { value: 'Right#2026' } });
    verify();
    await waitFor(() => expect(result()).toBe('changed'));
    expect(reauthenticate).toHaveBeenLastCalledWith({ password: 'enc(Right#2026)' });
    expect(change).toHaveBeenCalledTimes(2);
  });

  it('takes an authenticator code instead', async () => {
    vi.mocked(reauthenticate).mockResolvedValue('身份已验证');
    render(<Page />);
    fireEvent.click(screen.getByRole('button', { name: '修改' }));
    await screen.findByRole('dialog', { name: '验证身份' });
    fireEvent.click(screen.getByRole('radio', { name: '使用动态验证码' }));
    fireEvent.change(await screen.findByLabelText('动态验证码'), { target: { value: ' 123456 ' } });
    verify();
    await waitFor(() => expect(result()).toBe('changed'));
    expect(reauthenticate).toHaveBeenCalledWith({ code: '123456' });
  });

  it('cancelling leaves the change undone', async () => {
    render(<Page />);
    fireEvent.click(screen.getByRole('button', { name: '修改' }));
    await screen.findByRole('dialog', { name: '验证身份' });
    fireEvent.click(screen.getByRole('button', { name: /取\s*消/ }));
    await waitFor(() => expect(result()).toBe('refused: 请先验证身份'));
    expect(change).toHaveBeenCalledTimes(1);
    expect(reauthenticate).not.toHaveBeenCalled();
  });
});
