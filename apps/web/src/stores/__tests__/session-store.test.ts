import { beforeEach, describe, expect, it, vi } from 'vitest';
import { logout } from '@/lib/auth';
import { tokenStore } from '@/lib/token';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { useHeaderStore } from '../header-store';
import { useSessionStore } from '../session-store';

const entry = {
  routers: [
    { authCode: 'dashboard', name: 'Dashboard', path: '/console/dashboard', meta: { title: '工作台', icon: 'dashboard' }, children: [] },
  ],
  user: {
    name: '张伟',
    username: 'admin',
    telephone: '13800000001',
    number: 'HY0001',
    enterpriseName: '徐州恒岳重工机械有限公司',
    enterpriseId: 1,
  },
  token: { token_type: 'Bearer', access_token: 'abc.def', expires_in: 1800 },
  authorities: ['ROLE_ENTERPRISE_ADMIN', 'dashboard'],
};

beforeEach(() => {
  installRuntimeConfig();
  useSessionStore.getState().clear();
  useHeaderStore.getState().clear();
  tokenStore.clear();
});

describe('session store (spec section 3)', () => {
  it('fills the session, the header and the token (type + space + token) from the menus answer', () => {
    useSessionStore.getState().setFromMenus(entry);
    expect(useSessionStore.getState()).toMatchObject({
      name: '张伟',
      loginName: 'admin',
      phone: '13800000001',
      number: 'HY0001',
      enterpriseName: '徐州恒岳重工机械有限公司',
      authorities: ['ROLE_ENTERPRISE_ADMIN', 'dashboard'],
      token: 'Bearer abc.def',
    });
    expect(useSessionStore.getState().menus).toHaveLength(1);
    expect(tokenStore.get()).toBe('Bearer abc.def');
    expect(useHeaderStore.getState()).toMatchObject({ number: 'HY0001', name: '张伟', enterpriseName: '徐州恒岳重工机械有限公司' });
  });

  it('a user without a staff number still counts as logged in', () => {
    useSessionStore.getState().setFromMenus({ ...entry, user: { ...entry.user, number: '', username: 'zhaolei' } });
    expect(useHeaderStore.getState().number).toBe('zhaolei');
  });

  it('logout clears the session, the header and the token, then goes to the central logout', () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign, origin: 'http://localhost:3000' });
    useSessionStore.getState().setFromMenus(entry);
    logout();
    expect(useSessionStore.getState().name).toBe('');
    expect(useSessionStore.getState().authorities).toEqual([]);
    expect(useHeaderStore.getState().number).toBe('');
    expect(tokenStore.get()).toBeNull();
    expect(assign).toHaveBeenCalledWith(`http://localhost:3000/cas/logout?service=${encodeURIComponent('http://localhost:3000/')}`);
    vi.unstubAllGlobals();
  });
});
