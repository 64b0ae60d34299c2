import { render, screen, within } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { beforeEach, describe, expect, it } from 'vitest';
import type { SiteInfo } from '@portal/shared';
import { QueryClientProvider } from '@tanstack/react-query';
import { getSiteInfoQueryOptions } from '@/api/get-site-info';
import { createTestQueryClient } from '@/testing/render';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { AppDownloadPage } from '../components/app-download-page';

beforeEach(() => installRuntimeConfig());

/** The page as the public layout holds it: the site information (its hotline) already loaded. */
function Page() {
  const queryClient = createTestQueryClient();
  queryClient.setQueryData(getSiteInfoQueryOptions().queryKey, { phone: '400-800-1234' } as SiteInfo);
  return (
    <QueryClientProvider client={queryClient}>
      <AppDownloadPage />
    </QueryClientProvider>
  );
}

describe('App 下载', () => {
  it('presents each platform with its version, date, size, requirement and how to install it', () => {
    render(<Page />);
    const platforms = within(screen.getByRole('region', { name: '选择您的设备' })).getAllByRole('listitem');
    expect(platforms.map((p) => within(p).getByRole('heading').textContent)).toEqual(['Android', 'iPhone / iPad', 'HarmonyOS']);
    expect(platforms[0]!.textContent).toContain('V3.6.2');
    expect(platforms[0]!.textContent).toContain('Android 8.0 及以上');
    // No package address is configured: no dead link, but whom to ask.
    expect(within(platforms[0]!).queryByRole('link', { name: '下载安装包' })).toBeNull();
    expect(platforms[0]!.textContent).toContain('安装包暂未开放下载，请联系企业管理员获取，或拨打服务热线 400-800-1234。');
    expect(within(platforms[1]!).getByText('在 App Store 搜索“Engineering e+”')).toBeTruthy();
    expect(within(platforms[2]!).getByText('在华为应用市场搜索“Engineering e+”')).toBeTruthy();
  });

  it('offers the installation package at the configured address (APP_PACKAGE_URL)', () => {
    installRuntimeConfig('http://localhost:3000', { appPackageUrl: 'https://download.example.cn/eplus-3.6.2.apk' });
    render(<Page />);
    const android = within(screen.getByRole('region', { name: '选择您的设备' })).getAllByRole('listitem')[0]!;
    const apk = within(android).getByRole('link', { name: '下载安装包' });
    expect(apk.getAttribute('href')).toBe('https://download.example.cn/eplus-3.6.2.apk');
    expect(android.textContent).not.toContain('暂未开放下载');
  });

  it('the server renders it whole, the QR code of the page as a box until the browser draws it', () => {
    const page = document.body.appendChild(document.createElement('div'));
    page.innerHTML = renderToString(<Page />);
    expect(within(page).getByRole('heading', { level: 1 }).textContent).toBe('Engineering e+ App');
    expect(within(page).getByRole('img', { name: '本页的二维码' }).getAttribute('aria-busy')).toBe('true');
    expect(
      within(page)
        .getAllByRole('heading', { level: 2 })
        .map((h) => h.textContent),
    ).toEqual(['选择您的设备', '主要功能', '更新记录']);
    page.remove();
  });
});
