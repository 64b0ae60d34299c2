import { Result } from 'antd';
import '@/components/layouts/portal-button.css';
import './error-page.css';

/**
 * A page address the server could not decode (a broken %-escape, often a link cut short when it was
 * copied): said in the site's frame, with a way back, instead of an error envelope. The server sends
 * it without the app's scripts (the browser could not route such an address either), so its links are
 * plain ones.
 */
export function BadRequestPage() {
  return (
    <main className="error-page error-page--framed">
      <Result
        status="warning"
        title={<h1 className="error-page__title">请求地址有误</h1>}
        subTitle="地址中含有无法识别的字符，可能是链接不完整。请检查地址，或从首页重新进入。"
        extra={
          <a className="portal-btn portal-btn--primary portal-btn--large" href="/">
            返回首页
          </a>
        }
      />
    </main>
  );
}
