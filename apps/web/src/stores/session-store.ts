import type { PortalMenuEntry, PortalRouter } from '@portal/shared';
import { create } from 'zustand';
import { onLogout } from '@/lib/auth';
import { tokenStore } from '@/lib/token';
import { useHeaderStore } from './header-store';

/** Spec section 3, "User session state": filled from the menus call, cleared at logout. */
export interface SessionState {
  name: string;
  number: string;
  loginName: string;
  phone: string;
  email: string;
  authorities: string[];
  menus: PortalRouter[];
  token: string;
  enterpriseId: number | null;
  enterpriseName: string;
  setFromMenus(entry: PortalMenuEntry): void;
  clear(): void;
}

const EMPTY = {
  name: '',
  number: '',
  loginName: '',
  phone: '',
  email: '',
  authorities: [] as string[],
  menus: [] as PortalRouter[],
  token: '',
  enterpriseId: null,
  enterpriseName: '',
};

export const useSessionStore = create<SessionState>((set) => ({
  ...EMPTY,
  setFromMenus(entry) {
    const token = `${entry.token.token_type} ${entry.token.access_token}`;
    tokenStore.set(token);
    const { user } = entry;
    set({
      name: user.name,
      number: user.number,
      loginName: user.username,
      phone: user.telephone,
      email: '',
      authorities: entry.authorities,
      menus: entry.routers,
      token,
      enterpriseId: user.enterpriseId,
      enterpriseName: user.enterpriseName,
    });
    // The header's login indicator must be non-empty for every logged-in user.
    useHeaderStore.getState().setHeader({ number: user.number || user.username, name: user.name, enterpriseName: user.enterpriseName });
  },
  clear: () => set(EMPTY),
}));

onLogout(() => useSessionStore.getState().clear());
