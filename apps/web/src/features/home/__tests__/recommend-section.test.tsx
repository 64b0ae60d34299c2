import type { RecommendItem } from '@portal/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
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

describe('recommended applications', () => {
  it('the server renders the first view without Swiper: the first 3 cards and a dot per app', () => {
    const html = renderToString(ui(APPS));
    const doc = new DOMParser().parseFromString(html, 'text/html');
    expect(doc.querySelectorAll('.home-recommend--static .home-recommend__card')).toHaveLength(3);
    expect(doc.querySelectorAll('.home-recommend__dot')).toHaveLength(6);
    expect(doc.querySelector('.swiper')).toBeNull();
  });

  it('while the apps load, three empty cards keep the carousel’s place', () => {
    render(ui(undefined));
    expect(document.querySelectorAll('.home-recommend__card--placeholder')).toHaveLength(3);
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
    expect(document.querySelector('.swiper')).toBeNull();
    FakeObserver.enter();
    // Swiper's code loads now: give a busy machine time.
    await vi.waitFor(() => expect(document.querySelector('.swiper.home-recommend')).not.toBeNull(), { timeout: 10_000 });
    expect(document.querySelector('.home-recommend--static')).toBeNull();
    expect(document.querySelectorAll('.swiper-slide .home-recommend__card').length).toBeGreaterThanOrEqual(6);
  });
});
