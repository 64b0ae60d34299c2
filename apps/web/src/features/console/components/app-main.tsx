import { Spin } from 'antd';
import { Activity, Suspense } from 'react';
import type { ConsoleRoute } from '../console-route';

/**
 * The page area. Visited pages stay alive while their tab is open (React's `<Activity>`: hidden, their
 * state kept, effects paused); a page is dropped when its tab closes, when it is refreshed, or when its
 * route says no cache (spec section 4, cached views by name).
 */
export function AppMain({
  pages,
  current,
  cachedNames,
}: {
  pages: readonly ConsoleRoute[];
  current: ConsoleRoute | undefined;
  cachedNames: readonly string[];
}) {
  const alive = pages.filter((p) => p.component && (p === current || (!p.noCache && cachedNames.includes(p.name))));
  return (
    <main className="console-main">
      {alive.map((page) => {
        const Page = page.component;
        if (!Page) return null;
        return (
          <Activity key={page.name} mode={page === current ? 'visible' : 'hidden'} name={page.name}>
            <section className="console-view" aria-label={page.title}>
              <Suspense
                fallback={
                  <div className="console-view__loading">
                    <Spin />
                  </div>
                }
              >
                <Page />
              </Suspense>
            </section>
          </Activity>
        );
      })}
    </main>
  );
}
