import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { changePassword } from '@/api/change-password';
import { ApiError } from '@/lib/api-client';
import { encryptPassword } from '@/lib/encrypt-password';
import { ChangePasswordDialog } from '../change-password-dialog';

vi.mock('@/api/change-password', () => ({
  getPasswordKey: vi.fn(() => Promise.resolve({ algorithm: 'RSA-OAEP-256', publicKey: 'AAAA' })),
  changePassword: vi.fn(() => Promise.resolve()),
}));
vi.mock('@/lib/encrypt-password', () => ({
  importPasswordKey: vi.fn(() => Promise.resolve({})),
  encryptPassword: vi.fn((_key: unknown, text: string) => Promise.resolve(`enc(${text})`)),
}));

beforeEach(() => {
  vi.mocked(changePassword).mockReset();
  vi.mocked(changePassword).mockResolvedValue(undefined);
});

function renderDialog(onClose = vi.fn()) {
  render(<ChangePasswordDialog open onClose={onClose} />);
  return onClose;
}
const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const ok = () => fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));

describe('change password dialog (spec sections 4 and 5)', () => {
  it('focuses 原密码 on open and shows the required messages', async () => {
    renderDialog();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('原密码')));
    ok();
    expect(await screen.findByText('请输入原密码')).toBeTruthy();
    expect(await screen.findByText('请输入密码')).toBeTruthy();
    expect(await screen.findByText('请再次输入密码')).toBeTruthy();
  });

  it('refuses a different confirmation', async () => {
    renderDialog();
    type('新密码', 'Second#2026');
    type('确认新密码', 'Other#2026');
    ok();
    expect(await screen.findByText('两次输入密码不一致')).toBeTruthy();
    expect(changePassword).not.toHaveBeenCalled();
  });

  it('encrypts every field, says 密码修改成功 and closes', async () => {
    const onClose = renderDialog();
    type('原密码', 'First#2026');
    type('新密码', 'Second#2026');
    type('确认新密码', 'Second#2026');
    ok();
    await waitFor(() =>
      expect(changePassword).toHaveBeenCalledWith({
        oldPassword: 'enc(First#2026)',
        newPassword: 'enc(Second#2026)',
        confirmPassword: 'enc(Second#2026)',
      }),
    );
    expect(encryptPassword).toHaveBeenCalledTimes(3);
    expect(await screen.findByText('密码修改成功')).toBeTruthy();
    expect(onClose).toHaveBeenCalled();
  });

  it('says 密码修改失败 and marks 原密码 when the server refuses it', async () => {
    vi.mocked(changePassword).mockRejectedValue(new ApiError('原密码错误', 1, 400));
    const onClose = renderDialog();
    type('原密码', 'Wrong#2026');
    type('新密码', 'Second#2026');
    type('确认新密码', 'Second#2026');
    ok();
    expect(await screen.findByText('密码修改失败')).toBeTruthy();
    expect(await screen.findByText('原密码错误')).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('shows why the server refused the new password under 新密码', async () => {
    vi.mocked(changePassword).mockRejectedValue(new ApiError('该密码过于常见，请换一个更安全的密码', 1, 400));
    const onClose = renderDialog();
    type('原密码', 'First#2026');
    type('新密码', 'Password1');
    type('确认新密码', 'Password1');
    ok();
    expect(await screen.findByText('密码修改失败')).toBeTruthy();
    const reason = await screen.findByText('该密码过于常见，请换一个更安全的密码');
    expect(reason.closest('.ant-form-item')?.querySelector('label')?.textContent).toBe('新密码');
    expect(onClose).not.toHaveBeenCalled();
  });
});
