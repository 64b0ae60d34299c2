import type { ThemeConfig } from 'antd';

/** Brand colours of the portal: industrial blue with a safety-amber accent. */
export const BRAND = {
  primary: '#1456d9',
  deep: '#0f3d8c',
  accent: '#ffb020',
  ink: '#1d2129',
} as const;

export const theme: ThemeConfig = {
  token: {
    colorPrimary: BRAND.primary,
    colorLink: BRAND.primary,
    borderRadius: 6,
    fontFamily:
      "-apple-system, BlinkMacSystemFont, 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', 'Helvetica Neue', Arial, sans-serif",
  },
  // A named CSS-variable scope (not one per React id), so the markup matches the stylesheet the build
  // extracts from this theme. Its hashed class comes from the tokens, the same in both.
  cssVar: { key: 'css-var-portal' },
  // No hashed class either: the public pages' light components (components/antd-markup.tsx) write
  // antd's own class names without antd's code, and the stylesheet's rules match them as they are.
  hashed: false,
  // antd generates the styles of the components it renders (the console, dialogs, toasts).
  zeroRuntime: false,
};

let browserOnly: ThemeConfig | undefined;

/**
 * The theme of what only the browser renders (the console, dialogs, menus, toasts): without antd's
 * animations when the user's system asks for reduced motion (WCAG 2.3.3). Server-rendered pages keep
 * `theme`, so their hydration matches the server's markup.
 */
export function browserTheme(): ThemeConfig {
  browserOnly ??=
    typeof window !== 'undefined' && window.matchMedia?.('(prefers-reduced-motion: reduce)').matches
      ? { ...theme, token: { ...theme.token, motion: false } }
      : theme;
  return browserOnly;
}

/**
 * The public pages (the ones the server renders) take antd's styles from that stylesheet instead:
 * antd's zero-runtime mode. Pages carry no inline copy of the styles and hydration does not compute
 * them again. What only the browser shows there (dialogs, a logged-in user's menu) goes back to
 * `theme`, so the stylesheet holds what the pages render.
 */
export const publicTheme: ThemeConfig = { ...theme, zeroRuntime: true };

/**
 * The antd components the public pages render under `publicTheme`. The build (vite.config.ts)
 * writes their styles for `theme` into the app's stylesheet.
 */
export const PUBLIC_ANTD_COMPONENTS = [
  'Anchor',
  'Breadcrumb',
  'Button',
  'Collapse',
  'DatePicker',
  'Empty',
  'Input',
  'Modal',
  'Pagination',
  'QRCode',
  'Result',
  'Segmented',
  'Select',
  'Skeleton',
  'Space',
  'Steps',
  'Tabs',
  'Tag',
];
