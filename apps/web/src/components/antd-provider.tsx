import { ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import type { ReactNode } from 'react';
import { Outlet } from 'react-router';
import { browserTheme, publicTheme, theme } from '@/config/theme';

// Toasts and confirms are static calls (lib/notify.ts, the dialogs): they render outside the tree, so
// they get the same locale and theme here, set before any of them can run (each loads this module).
ConfigProvider.config({
  holderRender: (children) => (
    <ConfigProvider locale={zhCN} theme={browserTheme()}>
      {children}
    </ConfigProvider>
  ),
});

/**
 * antd's locale and theme around the parts of the app that render antd components. It is not at the
 * app's root: a page without them (the home page, the header, the footer) does not load antd's code.
 * `prebuilt`: the public pages' components take their styles from the build-time stylesheet
 * (`publicTheme`); everything else, shown by the browser only, generates them (`browserTheme`).
 */
export function AntdProvider({ prebuilt = false, children }: { prebuilt?: boolean; children: ReactNode }) {
  return (
    <ConfigProvider locale={zhCN} theme={prebuilt ? publicTheme : browserTheme()}>
      {children}
    </ConfigProvider>
  );
}

/** A layout route around the public pages that render antd components. */
export function PublicAntdOutlet() {
  return (
    <AntdProvider prebuilt>
      <Outlet />
    </AntdProvider>
  );
}

/** A layout route around pages outside the public layout that render antd components (403, 404). */
export function AntdOutlet() {
  // Rendered on the server too (HTTP 404 with the page): `theme`, never the browser-only variant.
  return (
    <ConfigProvider locale={zhCN} theme={theme}>
      <Outlet />
    </ConfigProvider>
  );
}
