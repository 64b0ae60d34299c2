import { useEffect, useState } from 'react';

/**
 * True once the page has loaded, `delayMs` have passed and the browser is idle: the moment for code
 * that is not needed for the first view but should be ready later. False on the server and in the
 * first browser render (hydration).
 */
export function useIdleAfterLoad(delayMs: number): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let idleHandle: number | undefined;
    const whenIdle = () => {
      if (typeof window.requestIdleCallback === 'function') idleHandle = window.requestIdleCallback(() => setIdle(true));
      else setIdle(true);
    };
    const afterLoad = () => {
      timer = setTimeout(whenIdle, delayMs);
    };
    if (document.readyState === 'complete') afterLoad();
    else window.addEventListener('load', afterLoad, { once: true });
    return () => {
      window.removeEventListener('load', afterLoad);
      clearTimeout(timer);
      if (idleHandle !== undefined) window.cancelIdleCallback(idleHandle);
    };
  }, [delayMs]);
  return idle;
}
