import { fireEvent, waitFor } from '@testing-library/react';

const KEYS = { ArrowDown: 40, Enter: 13 } as const;
/** A whole key press: rc-select ignores a second Enter until the first has been released (a held key repeats). */
const press = (el: HTMLElement, key: keyof typeof KEYS) => {
  fireEvent.keyDown(el, { key, keyCode: KEYS[key] });
  fireEvent.keyUp(el, { key, keyCode: KEYS[key] });
};

/**
 * Chooses `label` in the select whose combobox is `combobox`, as a keyboard user does: open it, move
 * down until the active option (`aria-activedescendant`) is `label`, press Enter. antd keeps only the
 * options around the active one in its accessible list, so they cannot all be queried at once.
 */
export async function chooseOption(combobox: HTMLElement, label: string): Promise<void> {
  fireEvent.mouseDown(combobox);
  await waitFor(() => {
    if (combobox.getAttribute('aria-expanded') !== 'true') throw new Error('the select has not opened');
  });
  const seen = new Set<string>();
  for (;;) {
    const active = combobox.ownerDocument.getElementById(combobox.getAttribute('aria-activedescendant') ?? '');
    const name = active?.getAttribute('aria-label') ?? active?.textContent ?? '';
    if (name === label) return void press(combobox, 'Enter');
    // The list wraps around: once an option comes back, `label` is not among them.
    if (!active || seen.has(active.id)) throw new Error(`no option ${label} (options seen: ${[...seen].length})`);
    seen.add(active.id);
    press(combobox, 'ArrowDown');
  }
}
