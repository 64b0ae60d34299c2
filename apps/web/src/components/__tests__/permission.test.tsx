import { render, renderHook, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useSessionStore } from '@/stores/session-store';
import { Permission, usePermission } from '../permission';

describe('Permission (spec section 6)', () => {
  afterEach(() => useSessionStore.getState().clear());

  it('shows its content only to a user holding at least one of the codes', () => {
    useSessionStore.setState({ authorities: ['content:article:edit', 'dashboard:view'] });
    render(
      <>
        <Permission codes={['content:article:delete', 'content:article:edit']}>
          <button type="button">编辑</button>
        </Permission>
        <Permission codes={['system:audit:view']} fallback={<span>无权查看</span>}>
          <button type="button">操作日志</button>
        </Permission>
      </>,
    );
    expect(screen.getByRole('button', { name: '编辑' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: '操作日志' })).toBeNull();
    expect(screen.getByText('无权查看')).toBeTruthy();
  });

  it('shows nothing to a visitor, and the hook answers the same', () => {
    const { result } = renderHook(() => usePermission());
    expect(result.current(['dashboard:view'])).toBe(false);
    expect(result.current([])).toBe(false);
    useSessionStore.setState({ authorities: ['dashboard:view'] });
    const { result: after } = renderHook(() => usePermission());
    expect(after.current(['dashboard:view'])).toBe(true);
  });
});
