/** Spec section 9: the default scroll animation. */
export const SCROLL_DURATION_MS = 500;
/** Each animation step advances the clock by this much (style.md: 20 ms steps). */
const STEP_MS = 20;

/** Quadratic ease-in-out: slow start, fast middle, slow end. */
function easeInOutQuad(elapsed: number, start: number, change: number, duration: number): number {
  let t = elapsed / (duration / 2);
  if (t < 1) return (change / 2) * t * t + start;
  t -= 1;
  return (-change / 2) * (t * (t - 2) - 1) + start;
}

function currentScroll(): number {
  return document.documentElement.scrollTop || document.body.scrollTop || 0;
}

function moveTo(top: number): void {
  document.documentElement.scrollTop = top;
  document.body.scrollTop = top;
}

/** Scrolls the page to `to` px with ease-in-out over `duration` ms, one 20 ms step per frame. */
export function scrollTo(to: number, duration: number = SCROLL_DURATION_MS, done?: () => void): void {
  const start = currentScroll();
  const change = to - start;
  let elapsed = 0;
  const step = () => {
    elapsed += STEP_MS;
    moveTo(easeInOutQuad(Math.min(elapsed, duration), start, change, duration));
    if (elapsed < duration) requestAnimationFrame(step);
    else done?.();
  };
  step();
}
