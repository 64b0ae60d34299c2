import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Modal } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { registerUser, sendRegisterSms } from '../api/register';
import { CONSENT_REQUIRED, RegisterDialog } from '../components/register-dialog';
import { SmsCodeButton } from '../components/sms-code-button';

vi.mock('../api/register', () => ({
  sendRegisterSms: vi.fn(() => Promise.resolve('验证码已发送，请注意查收')),
  registerUser: vi.fn(() => Promise.resolve('注册成功，请使用账号和密码登录')),
}));
vi.mock('@/lib/notify', () => ({ notify: { error: vi.fn(), success: vi.fn() } }));

beforeEach(() => {
  installRuntimeConfig();
  vi.mocked(registerUser).mockClear();
  vi.mocked(sendRegisterSms).mockClear();
});
afterEach(() => {
  vi.useRealTimers();
  // The success confirmation is a static modal (outside the rendered tree).
  Modal.destroyAll();
});

function renderDialog(onClose = vi.fn()) {
  render(<RegisterDialog open onClose={onClose} />);
  return onClose;
}

const field = (label: string) => screen.getByLabelText(new RegExp(`^${label}`));
const type = (label: string, value: string) => fireEvent.change(field(label), { target: { value } });
const submit = () => fireEvent.click(screen.getByRole('button', { name: /注\s*册/ }));
const consent = () => screen.getByRole('checkbox', { name: /我已阅读并同意/ });
/** Fills every required field with valid values (the consent aside). */
function fillValid() {
  type('用户名', 'zhaolei');
  type('密码', 'Secret#1');
  type('确认密码', 'Secret#1');
  type('手机号', '13912345678');
  type('验证码', '123456');
}

describe('registration dialog (spec section 5)', () => {
  it('shows the required-field messages', async () => {
    renderDialog();
    submit();
    for (const text of ['请输入用户名', '请输入密码', '请确认密码', '请输入手机号', '请输入验证码', CONSENT_REQUIRED]) {
      expect(await screen.findByText(text)).toBeTruthy();
    }
    expect(registerUser).not.toHaveBeenCalled();
  });

  it('checks email, password length, confirm and phone with the table messages', async () => {
    renderDialog();
    type('邮箱', 'not-an-email');
    type('密码', '12345');
    type('确认密码', '54321');
    type('手机号', '16912345678');
    submit();
    expect(await screen.findByText('请输入正确的邮箱地址')).toBeTruthy();
    expect(await screen.findByText('请输入至少6位密码')).toBeTruthy();
    expect(await screen.findByText('两次输入的密码不一致')).toBeTruthy();
    expect(await screen.findByText('请输入正确的手机号')).toBeTruthy();
    type('密码', 'a'.repeat(19));
    expect(await screen.findByText('密码最多18个字符')).toBeTruthy();
    // Changing the password revalidates the confirmation.
    type('确认密码', 'Secret#1');
    type('密码', 'Secret#1');
    await waitFor(() => expect(screen.queryByText('两次输入的密码不一致')).toBeNull());
  });

  it('registers, closes and confirms with 注册成功', async () => {
    const onClose = renderDialog();
    type('用户名', 'zhaolei');
    type('密码', 'Secret#1');
    type('确认密码', 'Secret#1');
    type('手机号', '13912345678');
    type('验证码', '123456');
    fireEvent.click(consent());
    submit();
    await waitFor(() =>
      expect(registerUser).toHaveBeenCalledWith({
        username: 'zhaolei',
        email: '',
        enterpriseName: '',
        password: 'Secret#1',
        phone: '13912345678',
        smsCode: '123456',
      }),
    );
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(await screen.findByText('注册成功，请使用账号和密码登录')).toBeTruthy();
  });
});

describe('registration dialog', () => {
  it('does not register without the consent to the agreements', async () => {
    renderDialog();
    fillValid();
    expect((consent() as HTMLInputElement).checked).toBe(false);
    submit();
    expect(await screen.findByText(CONSENT_REQUIRED)).toBeTruthy();
    // Give a wrongly sent call the time to happen.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(registerUser).not.toHaveBeenCalled();
    fireEvent.click(consent());
    await waitFor(() => expect(screen.queryByText(CONSENT_REQUIRED)).toBeNull());
    submit();
    await waitFor(() => expect(registerUser).toHaveBeenCalledOnce());
  });

  it('links the user agreement and the privacy agreement, each in a new tab', () => {
    renderDialog();
    const agreement = screen.getByRole('link', { name: '《用户协议》' });
    const privacy = screen.getByRole('link', { name: '《隐私协议》' });
    expect(agreement.getAttribute('href')).toBe('/agreement.html');
    expect(privacy.getAttribute('href')).toBe('/privacy');
    for (const link of [agreement, privacy]) {
      expect(link.getAttribute('target')).toBe('_blank');
      expect(link.getAttribute('rel')).toContain('noopener');
    }
    // Both are inside the checkbox's label: the consent names what it agrees to.
    expect(consent().closest('label')?.textContent).toBe('我已阅读并同意《用户协议》《隐私协议》');
  });

  it('offers 已有账号？去登录, back to this page without the dialog', () => {
    window.history.replaceState(null, '', '/settled?register=1');
    renderDialog();
    expect(screen.getByText(/已有账号？/)).toBeTruthy();
    expect(screen.getByRole('link', { name: '去登录' }).getAttribute('href')).toBe(
      'http://localhost:3000/web/portal/cas/login?target=%2Fsettled',
    );
    window.history.replaceState(null, '', '/');
  });

  it('the password placeholder states the 6 to 18 rule', () => {
    renderDialog();
    expect(field('密码').getAttribute('placeholder')).toBe('6-18 位，区分大小写');
  });
});

describe('SMS button (spec section 4)', () => {
  it('is enabled only for a valid phone (second digit 3 to 9)', () => {
    const { rerender, container } = render(<SmsCodeButton phone="" onSend={vi.fn()} />);
    const button = () => within(container).getByRole('button');
    expect(button().hasAttribute('disabled')).toBe(true);
    rerender(<SmsCodeButton phone="12912345678" onSend={vi.fn()} />);
    expect(button().hasAttribute('disabled')).toBe(true);
    rerender(<SmsCodeButton phone="16912345678" onSend={vi.fn()} />);
    expect(button().hasAttribute('disabled')).toBe(false);
  });

  it('counts down from 60 seconds after a send, then offers 获取验证码 again', async () => {
    vi.useFakeTimers();
    const onSend = vi.fn(() => Promise.resolve());
    const { container } = render(<SmsCodeButton phone="13912345678" onSend={onSend} />);
    await act(async () => {
      fireEvent.click(within(container).getByRole('button', { name: '获取验证码' }));
    });
    expect(onSend).toHaveBeenCalledWith('13912345678');
    expect(within(container).getByRole('button').textContent).toBe('60秒后重新获取');
    expect(within(container).getByRole('button').hasAttribute('disabled')).toBe(true);
    for (let i = 0; i < 59; i++) {
      await act(async () => {
        vi.advanceTimersByTime(1000);
      });
    }
    expect(within(container).getByRole('button').textContent).toBe('1秒后重新获取');
    await act(async () => {
      vi.advanceTimersByTime(1000);
    });
    expect(within(container).getByRole('button').textContent?.replace(/\s/g, '')).toBe('获取验证码');
    expect(within(container).getByRole('button').hasAttribute('disabled')).toBe(false);
  });

  it('a failed send does not start the countdown', async () => {
    const { container } = render(<SmsCodeButton phone="13912345678" onSend={() => Promise.reject(new Error('429'))} />);
    await act(async () => {
      fireEvent.click(within(container).getByRole('button'));
    });
    expect(within(container).getByRole('button').textContent?.replace(/\s/g, '')).toBe('获取验证码');
  });
});
