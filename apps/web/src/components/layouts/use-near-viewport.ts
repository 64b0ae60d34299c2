import { useCallback, useState } from 'react';

/**
 * Whether the element given to the returned ref has come within `rootMargin` of the viewport (it
 * stays true from then on). False on the server and in the first browser render, so server markup and
 * hydration agree: code below the fold can wait for it instead of loading with the page. The ref
 * starts the observer itself (a React 19 ref with cleanup) and state changes only when the observer
 * reports, so attaching it during hydration's commit triggers no second render there.
 */
export function useNearViewport<T extends Element>(rootMargin: string): [ref: (el: T | null) => (() => void) | undefined, near: boolean] {
  const [near, setNear] = useState(false);
  const ref = useCallback(
    (el: T | null) => {
      if (near || !el) return undefined;
      if (typeof IntersectionObserver === 'undefined') {
        // No observer (an old browser, a test DOM): treat it as near, one tick later.
        const timer = setTimeout(() => setNear(true), 0);
        return () => clearTimeout(timer);
      }
      const observer = new IntersectionObserver(
        (entries) => {
          if (entries.some((e) => e.isIntersecting)) setNear(true);
        },
        { rootMargin },
      );
      observer.observe(el);
      return () => observer.disconnect();
    },
    [rootMargin, near],
  );
  return [ref, near];
}
