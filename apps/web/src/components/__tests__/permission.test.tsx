import type { PortalMenuEntry } from '@portal/shared';
import { QueryClientProvider } from '@tanstack/react-query';
import { renderHook, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { createTestQueryClient, renderWithProviders } from '@/testing/render';
import { menusEntry, setSession } from '@/testing/session';
import { Permission, usePermission } from '../permission';

function permissionFor(session: PortalMenuEntry | null) {
  const queryClient = createTestQueryClient();
  setSession(queryClient, session);
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
  return renderHook(() => usePermission(), { wrapper }).result;
}

describe('Permission (spec section 6)', () => {
  it('shows its content only to a user holding at least one of the codes', () => {
    renderWithProviders(
      <>
        <Permission codes={['content:article:delete', 'content:article:edit']}>
          <button type="button">编辑</button>
        </Permission>
        <Permission codes={['system:audit:view']} fallback={<span>无权查看</span>}>
          <button type="button">操作日志</button>
        </Permission>
      </>,
      { session: menusEntry(['content:article:edit', 'dashboard:view']) },
    );
    expect(screen.getByRole('button', { name: '编辑' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: '操作日志' })).toBeNull();
    expect(screen.getByText('无权查看')).toBeTruthy();
  });

  it('shows nothing to a visitor, and the hook answers the same', () => {
    const visitor = permissionFor(null);
    expect(visitor.current(['dashboard:view'])).toBe(false);
    expect(visitor.current([])).toBe(false);
    const user = permissionFor(menusEntry(['dashboard:view']));
    expect(user.current(['dashboard:view'])).toBe(true);
  });
});
