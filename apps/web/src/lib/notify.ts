import { message } from 'antd';

/** Toasts of the API client (spec section 8): errors stay 3 seconds. */
export const notify = {
  error(text: string, seconds = 3): void {
    void message.error(text, seconds);
  },
  success(text: string, seconds = 3): void {
    void message.success(text, seconds);
  },
};
