import type { PortalMenuEntry } from '@portal/shared';
import { act, render, renderHook, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useMenus } from '@/api/get-menus';
import { AppProviders } from '@/app/app';
import { getRuntimeConfig } from '@/config/runtime-config';
import { logout } from '@/lib/auth';
import { tokenStore } from '@/lib/token';
import { installFakeApi, okReply } from '@/testing/fake-api';
import { createTestQueryClient } from '@/testing/render';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { menusEntry } from '@/testing/session';
import { useAuthorities, useIsLoggedIn, useSession } from '../use-session';

const entry = menusEntry(['ROLE_ENTERPRISE_ADMIN', 'dashboard']);

/** The app's providers around a client whose server answers the menus call with `answer`. */
function withMenus(answer: PortalMenuEntry[]) {
  const requests = installFakeApi((method, path) =>
    method === 'GET' && path === '/web/portal/menu/list' ? okReply(answer) : { status: 404, body: { code: 1, msg: '请求的接口不存在' } },
  );
  const queryClient = createTestQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <AppProviders queryClient={queryClient} config={getRuntimeConfig()}>
      {children}
    </AppProviders>
  );
  return { requests, queryClient, wrapper };
}

/** Like the public layout: asks who the visitor is, and shows the user's name. */
function Header() {
  useMenus();
  const session = useSession();
  return <p>{session ? `${session.name}，${session.enterpriseName}` : '访客'}</p>;
}

beforeEach(() => {
  installRuntimeConfig();
  tokenStore.clear();
});
afterEach(() => vi.unstubAllGlobals());

describe('user state (spec section 3)', () => {
  it('is the menus answer: name, login name, phone, staff number, enterprise and authorities; the token is stored as type + space + token', async () => {
    const { wrapper } = withMenus([entry]);
    const { result } = renderHook(
      () => {
        useMenus();
        return { session: useSession(), loggedIn: useIsLoggedIn(), authorities: useAuthorities() };
      },
      { wrapper },
    );
    await waitFor(() => expect(result.current.loggedIn).toBe(true));
    expect(result.current.session).toMatchObject({
      name: '张伟',
      loginName: 'admin',
      phone: '13800000001',
      number: 'HY0001',
      enterpriseId: 1,
      enterpriseName: '徐州恒岳重工机械有限公司',
    });
    expect(result.current.authorities).toEqual(['ROLE_ENTERPRISE_ADMIN', 'dashboard']);
    expect(tokenStore.get()).toBe('Bearer abc.def');
  });

  it('a user without a staff number still counts as logged in, with the login name as the indicator', async () => {
    const { wrapper } = withMenus([menusEntry([], { number: '', username: 'zhaolei' })]);
    const { result } = renderHook(() => (useMenus(), useSession()), { wrapper });
    await waitFor(() => expect(result.current?.number).toBe('zhaolei'));
  });

  it('a visitor has none: not logged in, no authorities, no token', async () => {
    const { wrapper, requests } = withMenus([]);
    const { result } = renderHook(() => ({ menus: useMenus(), loggedIn: useIsLoggedIn(), authorities: useAuthorities() }), { wrapper });
    await waitFor(() => expect(result.current.menus.isSuccess).toBe(true));
    expect(result.current.loggedIn).toBe(false);
    expect(result.current.authorities).toEqual([]);
    expect(tokenStore.get()).toBeNull();
    // Readers share the one call.
    expect(requests).toHaveLength(1);
  });

  it('logout clears it and the token, asks nobody for it again, then goes to the central logout', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign, origin: 'http://localhost:3000' });
    const { wrapper, queryClient, requests } = withMenus([entry]);
    const { rerender } = render(<Header />, { wrapper });
    expect(await screen.findByText('张伟，徐州恒岳重工机械有限公司')).toBeTruthy();

    act(() => logout());
    expect(queryClient.getQueryCache().getAll()).toEqual([]);
    expect(tokenStore.get()).toBeNull();
    expect(assign).toHaveBeenCalledWith(`http://localhost:3000/cas/logout?service=${encodeURIComponent('http://localhost:3000/')}`);
    // Until the browser has left, a reader drawn again does not fetch the user back.
    rerender(<Header />);
    expect(await screen.findByText('访客')).toBeTruthy();
    expect(requests).toHaveLength(1);
    expect(tokenStore.get()).toBeNull();
  });
});
