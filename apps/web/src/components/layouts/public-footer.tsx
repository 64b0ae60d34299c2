import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { portalUrl, useRuntimeConfig } from '@/config/runtime-config';
import { useSiteInfo } from '@/api/get-site-info';
import { mailtoHref, telHref } from '@/lib/contact-links';
import { LayoutIcon } from './layout-icon';
import { LazyQrCode } from './lazy-qr-code';
import { toTarget } from './nav-link';
import { useIdleAfterLoad } from './use-idle-after-load';
import { useNearViewport } from './use-near-viewport';

/** How long after the page has loaded the footer's QR code loads anyway. */
const QR_IDLE_DELAY_MS = 3000;

function FooterAnchor({ url, children }: { url: string; children: string }) {
  const config = useRuntimeConfig();
  const target = toTarget(url.endsWith('.html') ? portalUrl(config, url) : url, new URL(config.homeUrl).origin);
  // Static HTML pages (the user agreement) are files, not routes: load them as documents.
  if (target.kind === 'route' && !url.endsWith('.html')) return <Link to={target.to}>{children}</Link>;
  return <a href={target.kind === 'route' ? target.to : target.href}>{children}</a>;
}

/** Public footer (spec section 2): address, links, legal statement, technical support, app QR code. */
export function PublicFooter() {
  const { data: site } = useSiteInfo();
  const config = useRuntimeConfig();
  // The QR code's code is not part of the first view (the footer is below the fold): it loads when
  // the footer comes near the viewport, or once the page has loaded and the browser is idle.
  const [appRef, near] = useNearViewport<HTMLElement>('600px 0px');
  const idle = useIdleAfterLoad(QR_IDLE_DELAY_MS);
  if (!site) return <footer className="public-footer public-footer--loading" />;
  return (
    <footer className="public-footer">
      <div className="public-footer__inner">
        <section className="public-footer__contact" aria-label="联系我们">
          <h2>{site.name}</h2>
          <p>
            <LayoutIcon name="environment" /> {site.address}
          </p>
          <p>
            <a href={telHref(site.phone)}>
              <LayoutIcon name="phone" /> {site.phone}
            </a>
          </p>
          <p>
            <a href={mailtoHref(site.email)}>
              <LayoutIcon name="mail" /> {site.email}
            </a>
          </p>
        </section>
        <div className="public-footer__links">
          {site.linkGroups.map((group) => (
            <section key={group.title} aria-label={group.title}>
              <h3>{group.title}</h3>
              <ul>
                {group.links.map((link) => (
                  <li key={link.url}>
                    <FooterAnchor url={link.url}>{link.title}</FooterAnchor>
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
        {/* The code leads a phone to the app's download page; on a computer the page is a click away. */}
        <section className="public-footer__app" aria-label="下载 App" ref={appRef}>
          <Link to={paths.appDownload.getHref()} className="public-footer__app-link">
            <LazyQrCode
              value={portalUrl(config, paths.appDownload.getHref())}
              size={112}
              bgColor="#ffffff"
              load={near || idle}
              label="下载 App 的二维码"
            />
            <span>扫码下载 App</span>
          </Link>
        </section>
      </div>
      <div className="public-footer__bottom">
        <span>{site.copyright}</span>
        <span>{site.icp}</span>
        <span>
          法律声明：<FooterAnchor url="/agreement.html">用户协议</FooterAnchor>
        </span>
        <span>{site.support}</span>
      </div>
    </footer>
  );
}
