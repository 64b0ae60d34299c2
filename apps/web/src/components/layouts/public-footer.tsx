import { EnvironmentOutlined, MailOutlined, PhoneOutlined } from '@ant-design/icons';
import { QRCode } from 'antd';
import { Link } from 'react-router';
import { getRuntimeConfig, portalUrl } from '@/config/runtime-config';
import { useSiteInfo } from '@/api/get-site-info';
import { toTarget } from './nav-link';

function FooterAnchor({ url, children }: { url: string; children: string }) {
  const target = toTarget(url.endsWith('.html') ? portalUrl(url) : url, new URL(getRuntimeConfig().homeUrl).origin);
  // Static HTML pages (the user agreement) are files, not routes: load them as documents.
  if (target.kind === 'route' && !url.endsWith('.html')) return <Link to={target.to}>{children}</Link>;
  return <a href={target.kind === 'route' ? target.to : target.href}>{children}</a>;
}

/** Public footer (spec section 2): address, links, legal statement, technical support, app QR code. */
export function PublicFooter() {
  const { data: site } = useSiteInfo();
  if (!site) return <footer className="public-footer public-footer--loading" />;
  return (
    <footer className="public-footer">
      <div className="public-footer__inner">
        <section className="public-footer__contact" aria-label="联系我们">
          <h2>{site.name}</h2>
          <p>
            <EnvironmentOutlined /> {site.address}
          </p>
          <p>
            <PhoneOutlined /> {site.phone}
          </p>
          <p>
            <MailOutlined /> {site.email}
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
        <section className="public-footer__app" aria-label="下载 App">
          <QRCode value={portalUrl(site.appDownloadUrl)} size={112} bordered={false} bgColor="#ffffff" />
          <span>扫码下载 App</span>
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
