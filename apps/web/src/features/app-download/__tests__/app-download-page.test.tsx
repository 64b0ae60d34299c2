import { render, screen, within } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { beforeEach, describe, expect, it } from 'vitest';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { AppDownloadPage } from '../components/app-download-page';

beforeEach(() => installRuntimeConfig());

describe('App 下载 (issue 21)', () => {
  it('presents each platform with its version, date, size, requirement and how to install it', () => {
    render(<AppDownloadPage />);
    const platforms = within(screen.getByRole('region', { name: '选择您的设备' })).getAllByRole('listitem');
    expect(platforms.map((p) => within(p).getByRole('heading').textContent)).toEqual(['Android', 'iPhone / iPad', 'HarmonyOS']);
    expect(platforms[0]!.textContent).toContain('V3.6.2');
    expect(platforms[0]!.textContent).toContain('Android 8.0 及以上');
    const apk = within(platforms[0]!).getByRole('link', { name: '下载安装包' });
    expect(apk.getAttribute('href')).toBe('http://localhost:3000/files/app/engineering-eplus-android-3.6.2.apk');
    expect(within(platforms[1]!).getByText('在 App Store 搜索“Engineering e+”')).toBeTruthy();
    expect(within(platforms[2]!).getByText('在华为应用市场搜索“Engineering e+”')).toBeTruthy();
  });

  it('the server renders it whole, the QR code of the page as a box until the browser draws it', () => {
    const page = document.body.appendChild(document.createElement('div'));
    page.innerHTML = renderToString(<AppDownloadPage />);
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
