import { fireEvent, render, screen } from '@testing-library/react';
import { Modal } from 'antd';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockMediaQueries } from '@/testing/media-query';

/** The system setting, as the browser reports it to `matchMedia`. */
const systemAsksForReducedMotion = (reduce: boolean) =>
  mockMediaQueries((query) => reduce && query.includes('prefers-reduced-motion: reduce'));

function Dialog() {
  const [open, setOpen] = useState(true);
  return (
    <Modal open={open} title="通过申请" onCancel={() => setOpen(false)}>
      确定通过吗？
    </Modal>
  );
}

async function closeDialog(reduce: boolean) {
  systemAsksForReducedMotion(reduce);
  vi.resetModules();
  const { AntdProvider } = await import('../antd-provider');
  render(
    <AntdProvider>
      <Dialog />
    </AntdProvider>,
  );
  fireEvent.click(screen.getByRole('button', { name: /取\s*消/ }));
  return screen.queryByRole('dialog', { name: '通过申请' });
}

afterEach(() => vi.restoreAllMocks());

describe('AntdProvider and reduced motion (WCAG 2.3.3)', () => {
  it('closes a dialog at once when the system asks for reduced motion', async () => {
    expect(await closeDialog(true)).toBeNull();
  });

  it('animates the dialog out otherwise', async () => {
    expect(await closeDialog(false)).not.toBeNull();
  });
});
