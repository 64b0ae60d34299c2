import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { LazyQrCode } from '@/components/layouts/lazy-qr-code';
import { paths } from '@/config/paths';
import { portalUrl, useRuntimeConfig } from '@/config/runtime-config';
import { telHref } from '@/lib/contact-links';
import { throttle } from '@/lib/throttle';
import { HomeIcon } from './home-icon';

/** Spec section 9: the widget appears at 400 px of scroll; the handler is throttled to 300 ms. */
export const FLOAT_TOOLS_THRESHOLD = 400;
export const FLOAT_TOOLS_THROTTLE_MS = 300;
const QR_SIZE = 120;

/**
 * The floating tool widget: back to top, hotline, and the app QR code on hover (spec section 2), which
 * leads to the app's download page.
 * Its bubbles open on hover and on keyboard focus (CSS); the QR code's code loads on the first one.
 * App and 客服 are links (the download page, the hotline): on a phone, where nobody scans their own
 * screen, the bubbles are not shown and the small widget stays clear of the content.
 */
export function FloatTools({ phone }: { phone: string }) {
  const config = useRuntimeConfig();
  const [visible, setVisible] = useState(false);
  const [wantsQr, setWantsQr] = useState(false);
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
  const showQr = () => setWantsQr(true);
  return (
    <div className="float-tools" role="complementary" aria-label="悬浮工具">
      <div className="float-tools__item" onMouseEnter={showQr} onFocus={showQr}>
        <Link className="float-tools__btn" to={paths.appDownload.getHref()} aria-label="下载 App" aria-describedby="float-tools-app">
          <HomeIcon name="mobile" />
          <span className="float-tools__label">App</span>
        </Link>
        <div className="float-tools__bubble" id="float-tools-app" role="tooltip">
          <div className="float-tools__qr">
            <LazyQrCode value={portalUrl(config, paths.appDownload.getHref())} size={QR_SIZE} load={wantsQr} label="下载 App 的二维码" />
            <span>扫码下载 App</span>
          </div>
        </div>
      </div>
      <div className="float-tools__item">
        <a className="float-tools__btn" href={telHref(phone)} aria-label="联系我们" aria-describedby="float-tools-phone">
          <HomeIcon name="customer-service" />
          <span className="float-tools__label">客服</span>
        </a>
        <div className="float-tools__bubble" id="float-tools-phone" role="tooltip">
          <span className="float-tools__phone">
            服务热线：<a href={telHref(phone)}>{phone}</a>
          </span>
        </div>
      </div>
      <div className="float-tools__item">
        <button
          type="button"
          className="float-tools__btn"
          aria-label="回到顶部"
          onClick={() => window.scrollTo({ top: 0, behavior: 'smooth' })}
        >
          <HomeIcon name="vertical-align-top" />
          <span className="float-tools__label">顶部</span>
        </button>
      </div>
    </div>
  );
}
