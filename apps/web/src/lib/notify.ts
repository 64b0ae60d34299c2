import type { MessageInstance } from 'antd/es/message/interface';

type MessageApi = Pick<MessageInstance, 'error' | 'success'>;

let loading: Promise<MessageApi> | undefined;

/**
 * antd's `message` loads with the first toast, not with the first page: most visits never show one.
 * Its provider module comes along: it gives static toasts their locale and theme. Toasts keep their
 * order, since every call waits for the same promise.
 */
function messageApi(): Promise<MessageApi> {
  loading ??= Promise.all([import('antd/es/message'), import('@/components/antd-provider')]).then(([m]) => m.default);
  return loading;
}

function show(kind: keyof MessageApi, text: string, seconds: number): void {
  // The server renderer has no document to show a toast in: the browser's own render shows the failure.
  if (typeof document === 'undefined') return;
  void messageApi().then(
    (api) => void api[kind](text, seconds),
    () => {
      // The code failed to load (offline): forget the failure so the next toast tries again.
      loading = undefined;
    },
  );
}

/** Toasts of the API client (spec section 8): errors stay 3 seconds. */
export const notify = {
  error(text: string, seconds = 3): void {
    show('error', text, seconds);
  },
  success(text: string, seconds = 3): void {
    show('success', text, seconds);
  },
};
