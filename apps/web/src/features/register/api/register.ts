import { ApiPrefix } from '@portal/shared';
import { api } from '@/lib/api';

export interface RegisterInput {
  username: string;
  email: string;
  enterpriseName: string;
  password: string;
  phone: string;
  smsCode: string;
}

/** `POST /web-api/register/v1/sms?phone=` (spec section 7): answers the server's message. */
export async function sendRegisterSms(phone: string): Promise<string> {
  const res = await api().post<unknown>(`${ApiPrefix.register}/sms?phone=${encodeURIComponent(phone)}`);
  return res.msg;
}

/** `POST /web-api/register/v1/user` (spec section 7). */
export async function registerUser(input: RegisterInput): Promise<string> {
  const res = await api().post<{ username: string }>(`${ApiPrefix.register}/user`, input);
  return res.msg;
}
