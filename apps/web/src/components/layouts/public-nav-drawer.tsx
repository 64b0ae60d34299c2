import { ConfigProvider } from 'antd';
import Drawer from 'antd/es/drawer';
import type { ReactNode } from 'react';
import { theme } from '@/config/theme';
import './public-nav-drawer.css';

/**
 * The phone header's drawer (issue 21, below 768 px) around the entries the header gives it. Its code
 * (antd's Drawer) loads when the menu button is first used: the first page does not carry it.
 */
export default function PublicNavDrawer({ open, onClose, children }: { open: boolean; onClose: () => void; children: ReactNode }) {
  return (
    // Only the browser shows the drawer: antd generates its styles (the public pages' stylesheet does not hold them).
    <ConfigProvider theme={theme}>
      <Drawer
        open={open}
        onClose={onClose}
        title="菜单"
        placement="right"
        size="min(320px, 86vw)"
        rootClassName="public-drawer"
        styles={{ body: { padding: 0 } }}
      >
        {children}
      </Drawer>
    </ConfigProvider>
  );
}
