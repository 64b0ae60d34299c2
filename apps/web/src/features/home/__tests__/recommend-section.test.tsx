import type { RecommendItem } from '@portal/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { getRecommendedAppsQueryOptions } from '../api/home';
import { RecommendSection } from '../components/recommend-section';

// The apps never arrive from the network here: each test puts them in the query cache (or not).
vi.mock('@/lib/api', () => ({ api: () => ({ get: () => new Promise(() => undefined) }) }));

const APPS: RecommendItem[] = Array.from({ length: 6 }, (_, i) => ({
  applicationUuid: `00000000-0000-4000-8000-00000000000${i}`,
  name: `应用${i + 1}`,
  applicationDescription: `说明${i + 1}`,
  imagePath: `/demo/app-${i + 1}.svg`,
  iconPath: '/demo/icon-app.svg',
  category: '数据可视化',
  provider: 'Engineering e+ 平台',
}));

/** An IntersectionObserver the test drives: `enter()` reports every observed element as visible. */
class FakeObserver {
  static all: FakeObserver[] = [];
  readonly targets: Element[] = [];
  constructor(private readonly callback: IntersectionObserverCallback) {
    FakeObserver.all.push(this);
  }
  observe(el: Element) {
    this.targets.push(el);
  }
  disconnect() {
    this.targets.length = 0;
  }
  static enter() {
    for (const o of FakeObserver.all) {
      const entries = o.targets.map((target) => ({ target, isIntersecting: true }) as IntersectionObserverEntry);
      if (entries.length) o.callback(entries, o as unknown as IntersectionObserver);
    }
  }
}

function ui(apps: RecommendItem[] | undefined) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  if (apps) client.setQueryData(getRecommendedAppsQueryOptions().queryKey, apps);
  return (
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <RecommendSection />
      </MemoryRouter>
    </QueryClientProvider>
  );
}

beforeEach(() => {
  installRuntimeConfig();
  FakeObserver.all = [];
  vi.stubGlobal('IntersectionObserver', FakeObserver);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const carousel = () => screen.getByRole('group', { name: '推荐应用' });
/** The carousel's slides as Swiper labels them (n / count). */
const slides = (count: number) => within(carousel()).queryAllByRole('group', { name: new RegExp(`^\\d+ / ${count}$`) });
/**
 * Swiper's arrow: only the carousel it drives has one. Without a layout (this test DOM) Swiper finds
 * nothing to scroll and hides its controls, hence `hidden`.
 */
const nextArrow = () => within(carousel()).queryByRole('button', { name: '下一个', hidden: true });

describe('recommended applications', () => {
  it('the server renders the first view without Swiper: the first 3 cards and a dot per app', () => {
    const html = renderToString(ui(APPS));
    // The server's markup as the browser first shows it, before any script runs.
    const page = document.body.appendChild(document.createElement('div'));
    page.innerHTML = html;
    expect(slides(6).map((s) => within(s).getByRole('button').textContent)).toEqual(['应用1说明1', '应用2说明2', '应用3说明3']);
    expect(nextArrow()).toBeNull();
    // The dots are drawn only (aria-hidden): Swiper's own take their place without moving anything.
    expect(page.getElementsByClassName('home-recommend__dot')).toHaveLength(6);
    page.remove();
  });

  it('while the apps load, three empty cards keep the carousel’s place', () => {
    render(ui(undefined));
    expect(carousel().getAttribute('aria-busy')).toBe('true');
    expect(slides(3).map((s) => within(s).queryByRole('button'))).toEqual([null, null, null]);
  });

  it('a card of the first view already opens the application center', () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    render(ui(APPS));
    fireEvent.click(screen.getByRole('button', { name: /应用2/ }));
    expect(assign).toHaveBeenCalledWith(`http://localhost:3000/product/center/detail?uuid=${APPS[1]!.applicationUuid}`);
  });

  it('near the viewport, Swiper takes over with every app', async () => {
    render(ui(APPS));
    expect(nextArrow()).toBeNull();
    FakeObserver.enter();
    // Swiper's code loads now: then every app has its slide (a looping carousel may add copies).
    await waitFor(() => expect(slides(6).length).toBeGreaterThanOrEqual(6));
    for (const app of APPS)
      expect(within(carousel()).getAllByRole('button', { name: new RegExp(app.name) }).length).toBeGreaterThanOrEqual(1);
    expect(nextArrow()).not.toBeNull();
    expect(within(carousel()).getByRole('button', { name: '上一个', hidden: true })).toBeTruthy();
    expect(within(carousel()).getAllByRole('button', { name: /^第 \d 个应用$/, hidden: true })).toHaveLength(6);
  });
});
