import { create } from 'zustand';
import { onLogout } from '@/lib/auth';

/** Spec section 3, "Header state": `number` is the login indicator. Filled from the menus call. */
export interface HeaderState {
  number: string;
  name: string;
  enterpriseName: string;
  setHeader(state: Pick<HeaderState, 'number' | 'name' | 'enterpriseName'>): void;
  clear(): void;
}

export const useHeaderStore = create<HeaderState>((set) => ({
  number: '',
  name: '',
  enterpriseName: '',
  setHeader: (state) => set(state),
  clear: () => set({ number: '', name: '', enterpriseName: '' }),
}));

onLogout(() => useHeaderStore.getState().clear());

export const useIsLoggedIn = () => useHeaderStore((s) => s.number !== '');
