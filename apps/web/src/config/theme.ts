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
};
