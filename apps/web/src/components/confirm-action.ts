import Modal from 'antd/es/modal';
import { notify } from '@/lib/notify';

export interface ConfirmActionOptions {
  title: string;
  content: string;
  /** The button that runs the action (删除, 发布…). */
  okText: string;
  /** A destructive action: the button is red. */
  danger?: boolean;
  /** The console write; answers the server's message, shown as a success toast. */
  run: () => Promise<string | { msg: string }>;
}

/**
 * Asks before a console write (delete, publish, unpublish…), runs it on 确定 and toasts the server's
 * message. A refused write has already been toasted by the API client with the server's reason, and
 * the dialog closes either way.
 */
export function confirmAction({ title, content, okText, danger = false, run }: ConfirmActionOptions): void {
  Modal.confirm({
    title,
    content,
    okText,
    cancelText: '取消',
    okButtonProps: danger ? { danger: true } : {},
    onOk: async () => {
      try {
        const result = await run();
        notify.success(typeof result === 'string' ? result : result.msg);
      } catch {
        // shown by the API client
      }
    },
  });
}
