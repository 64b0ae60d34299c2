import type { LinkBlock } from '@portal/shared';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { BANNER_AUTOPLAY_MS, BannerCarousel } from '../components/banner-section';

const banner = (title: string, linkUrl: string): LinkBlock => ({
  title,
  subtitle: `${title} 副标题`,
  icon: '/demo/b.svg',
  linkUrl,
  openUrlFlag: 0,
});
const BANNERS = [banner('第一张', '/settled'), banner('第二张', '/product'), banner('第三张', '/mark')];

const ui = (banners = BANNERS) => (
  <MemoryRouter>
    <BannerCarousel banners={banners} />
  </MemoryRouter>
);
/** The title of the slide shown: the others are out of the accessibility tree. */
const activeTitle = () => screen.getByRole('heading', { level: 2 }).textContent;
const carousel = () => screen.getByRole('group', { name: '横幅轮播' });

beforeEach(() => {
  installRuntimeConfig();
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('banner carousel', () => {
  it('renders every slide on the server, the first one shown, the others inert', () => {
    const html = renderToString(ui());
    for (const b of BANNERS) expect(html).toContain(b.title);
    // The server's markup as the browser first shows it, before any script runs.
    const page = document.body.appendChild(document.createElement('div'));
    page.innerHTML = html;
    const slides = within(page)
      .getAllByRole('group', { hidden: true })
      .filter((g) => g.getAttribute('aria-roledescription') === 'slide');
    expect(slides.map((s) => s.getAttribute('aria-label'))).toEqual(['1 / 3', '2 / 3', '3 / 3']);
    // Only the first is in the accessibility tree.
    expect(within(page).getByRole('group', { name: '1 / 3' })).toBe(slides[0]);
    expect(within(page).queryByRole('group', { name: '2 / 3' })).toBeNull();
    expect(within(page).getByRole('heading', { level: 2 }).textContent).toBe('第一张');
    expect(slides.map((s) => s.hasAttribute('inert'))).toEqual([false, true, true]);
    page.remove();
  });

  it('advances every 5 s and wraps around; the links and 了解更多 stay', () => {
    render(ui());
    expect(activeTitle()).toBe('第一张');
    expect(
      within(carousel())
        .getAllByRole('link', { hidden: true })
        .map((a) => a.getAttribute('href')),
    ).toEqual(['/settled', '/product', '/mark']);
    // Only the slide shown is in the accessibility tree.
    expect(screen.getAllByRole('link').map((a) => a.getAttribute('href'))).toEqual(['/settled']);
    act(() => vi.advanceTimersByTime(BANNER_AUTOPLAY_MS));
    expect(activeTitle()).toBe('第二张');
    act(() => vi.advanceTimersByTime(BANNER_AUTOPLAY_MS));
    expect(activeTitle()).toBe('第三张');
    act(() => vi.advanceTimersByTime(BANNER_AUTOPLAY_MS));
    expect(activeTitle()).toBe('第一张');
    expect(screen.getAllByText('了解更多')).toHaveLength(3);
  });

  it('a dot shows its slide; hovering pauses the autoplay', () => {
    render(ui());
    fireEvent.click(screen.getByRole('button', { name: '第 3 张：第三张' }));
    expect(activeTitle()).toBe('第三张');
    expect(screen.getByRole('button', { name: '第 3 张：第三张' }).getAttribute('aria-current')).toBe('true');
    fireEvent.mouseEnter(carousel());
    act(() => vi.advanceTimersByTime(3 * BANNER_AUTOPLAY_MS));
    expect(activeTitle()).toBe('第三张');
    fireEvent.mouseLeave(carousel());
    act(() => vi.advanceTimersByTime(BANNER_AUTOPLAY_MS));
    expect(activeTitle()).toBe('第一张');
  });

  it('one banner: no dots and no autoplay', () => {
    render(ui([BANNERS[0]!]));
    expect(screen.queryByRole('button', { name: /第 1 张/ })).toBeNull();
    act(() => vi.advanceTimersByTime(2 * BANNER_AUTOPLAY_MS));
    expect(activeTitle()).toBe('第一张');
  });
});
