import { Button } from 'antd';
import { Link, useLocation } from 'react-router';
import { getRuntimeConfig } from '@/config/runtime-config';
import { useSiteInfo } from '@/api/get-site-info';
import { centralLoginUrl } from '@/lib/auth';
import { isActive, navTarget } from './nav-link';
import { ScrollMenu } from './scroll-menu';

/** Public header (spec section 2): logo back to home, scrolling menu, login entry. */
export function PublicHeader() {
  const { pathname, search } = useLocation();
  const { data: site } = useSiteInfo();
  const config = getRuntimeConfig();
  const origin = window.location.origin;

  return (
    <header className="public-header">
      <div className="public-header__inner">
        <Link to="/" className="public-header__logo" aria-label="返回首页">
          <img src="/favicon.svg" alt="" width={36} height={36} />
          <span className="public-header__brand">
            <strong>Engineering e+</strong>
            <small>工业互联网平台</small>
          </span>
        </Link>
        <ScrollMenu label="主导航" activeKey={site ? pathname : undefined}>
          {(site?.nav ?? []).map((item) => {
            const target = navTarget(item, config, origin);
            const active = isActive(target, pathname);
            const className = `public-header__item${active ? ' is-active' : ''}`;
            return target.kind === 'route' ? (
              <Link key={item.key} to={target.to} className={className} aria-current={active ? 'page' : undefined}>
                {item.title}
              </Link>
            ) : (
              <a key={item.key} href={target.href} className={className}>
                {item.title}
              </a>
            );
          })}
        </ScrollMenu>
        <div className="public-header__actions">
          <Button type="primary" href={centralLoginUrl(pathname + search)}>
            登录
          </Button>
        </div>
      </div>
    </header>
  );
}
