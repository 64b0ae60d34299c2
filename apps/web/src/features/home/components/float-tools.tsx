import { CustomerServiceOutlined, MobileOutlined, VerticalAlignTopOutlined } from '@ant-design/icons';
import { Popover, QRCode } from 'antd';
import { useEffect, useState } from 'react';
import { portalUrl } from '@/config/runtime-config';
import { throttle } from '@/lib/throttle';

/** Spec section 9: the widget appears at 400 px of scroll; the handler is throttled to 300 ms. */
export const FLOAT_TOOLS_THRESHOLD = 400;
export const FLOAT_TOOLS_THROTTLE_MS = 300;

/** The floating tool widget: back to top, hotline, and the app QR code on hover (spec section 2). */
export function FloatTools({ appDownloadUrl, phone }: { appDownloadUrl: string; phone: string }) {
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const onScroll = throttle(() => setVisible(window.scrollY >= FLOAT_TOOLS_THRESHOLD), FLOAT_TOOLS_THROTTLE_MS);
    window.addEventListener('scroll', onScroll, { passive: true });
    onScroll();
    return () => {
      onScroll.cancel();
      window.removeEventListener('scroll', onScroll);
    };
  }, []);
  if (!visible) return null;
  return (
    <div className="float-tools" role="complementary" aria-label="悬浮工具">
      <Popover
        placement="left"
        trigger="hover"
        content={
          <div className="float-tools__qr">
            <QRCode value={portalUrl(appDownloadUrl)} size={120} bordered={false} />
            <span>扫码下载 App</span>
          </div>
        }
      >
        <button type="button" className="float-tools__btn" aria-label="下载 App">
          <MobileOutlined />
          <span className="float-tools__label">App</span>
        </button>
      </Popover>
      <Popover placement="left" trigger="hover" content={<span>服务热线：{phone}</span>}>
        <button type="button" className="float-tools__btn" aria-label="联系我们">
          <CustomerServiceOutlined />
          <span className="float-tools__label">客服</span>
        </button>
      </Popover>
      <button
        type="button"
        className="float-tools__btn"
        aria-label="回到顶部"
        onClick={() => window.scrollTo({ top: 0, behavior: 'smooth' })}
      >
        <VerticalAlignTopOutlined />
        <span className="float-tools__label">顶部</span>
      </button>
    </div>
  );
}
