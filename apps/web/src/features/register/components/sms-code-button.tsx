import { SMS_PHONE_PATTERN } from '@portal/shared';
import { Button } from 'antd';
import { useEffect, useState } from 'react';

/** Spec section 9: the SMS countdown. */
export const SMS_COUNTDOWN_SECONDS = 60;

/**
 * The SMS button (spec section 4): enabled only for a valid phone (second digit 3 to 9); after a
 * send it counts down from 60 s (`{n}秒后重新获取`), then offers 获取验证码 again.
 */
export function SmsCodeButton({ phone, onSend }: { phone: string; onSend: (phone: string) => Promise<unknown> }) {
  const [left, setLeft] = useState(0);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setLeft((n) => n - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);

  const valid = SMS_PHONE_PATTERN.test(phone);
  const send = async () => {
    setSending(true);
    try {
      await onSend(phone);
      setLeft(SMS_COUNTDOWN_SECONDS);
    } catch {
      // the API client already showed the server's message
    } finally {
      setSending(false);
    }
  };

  return (
    <Button className="sms-code-button" disabled={!valid || left > 0} loading={sending} onClick={() => void send()}>
      {left > 0 ? `${left}秒后重新获取` : '获取验证码'}
    </Button>
  );
}
