import { Outlet } from 'react-router';
import { PublicFooter } from './public-footer';
import { PublicHeader } from './public-header';
import './public-layout.css';

/** Layout of the public site: header, page, footer. */
export function PublicLayout() {
  return (
    <div className="public-layout">
      <PublicHeader />
      <main className="public-layout__main">
        <Outlet />
      </main>
      <PublicFooter />
    </div>
  );
}
