import { vi } from 'vitest';

/**
 * The browser's answers to media queries (`window.matchMedia`), decided by `matches` for each query:
 * a phone's width, the system's reduced-motion setting. Undone by `vi.restoreAllMocks()`.
 */
export function mockMediaQueries(matches: (query: string) => boolean): void {
  vi.spyOn(window, 'matchMedia').mockImplementation((query: string) => ({
    matches: matches(query),
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  }));
}
