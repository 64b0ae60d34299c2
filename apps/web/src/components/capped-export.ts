import Modal from 'antd/es/modal';
import { notify } from '@/lib/notify';

export interface CappedExportOptions {
  /** Rows matching the filters now. */
  total: number;
  /** The most rows one export writes (the server's limit). */
  max: number;
  /** The dialog's title and what it says when `total` is over `max`. */
  title: string;
  content: string;
  run: () => Promise<unknown>;
}

/**
 * A console export of the filtered rows (操作日志, 登录日志, 账号): over the server's limit it asks first,
 * saying how many rows there are and how many one file takes; a refusal has been toasted by the API client.
 */
export function cappedExport({ total, max, title, content, run }: CappedExportOptions): void {
  const go = async () => {
    try {
      await run();
      notify.success('导出成功');
    } catch {
      // The API client has shown the server's message.
    }
  };
  if (total <= max) {
    void go();
    return;
  }
  Modal.confirm({ title, content, okText: '继续导出', cancelText: '取消', onOk: go });
}
