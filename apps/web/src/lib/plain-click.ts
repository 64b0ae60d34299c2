import type { MouseEvent } from 'react';

/**
 * A primary-button click without a modifier: the app handles it in place. Any other click on a link
 * (ctrl, cmd, shift or alt held, another button) is the browser's: a new tab or window.
 */
export const isPlainClick = (e: MouseEvent): boolean => e.button === 0 && !e.metaKey && !e.ctrlKey && !e.shiftKey && !e.altKey;
