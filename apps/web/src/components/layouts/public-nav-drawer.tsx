import type { NavItem } from '@portal/shared';
import Drawer from 'antd/es/drawer';
import { PublicNavDrawerContent } from './public-nav-drawer-content';
import './public-nav-drawer.css';

/**
 * The phone header's drawer (below 768 px) with its entries. Its code (antd's Drawer, the
 * entries) loads when the menu button is first used: the first page does not carry it.
 */
export default function PublicNavDrawer({ open, onClose, nav }: { open: boolean; onClose: () => void; nav: readonly NavItem[] }) {
  // Only the browser shows the drawer (loaded with `lazyWithAntd`): antd generates its styles, which the
  // public pages' stylesheet does not hold.
  return (
    <Drawer
      open={open}
      onClose={onClose}
      title="菜单"
      placement="right"
      size="min(320px, 86vw)"
      rootClassName="public-drawer"
      styles={{ body: { padding: 0 } }}
    >
      <PublicNavDrawerContent nav={nav} onClose={onClose} />
    </Drawer>
  );
}
