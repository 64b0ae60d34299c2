import { create } from 'zustand';

/** Spec section 4, "Registration dialog": visible or hidden. Opened from the header and /settled. */
export interface RegisterDialogState {
  open: boolean;
  show(): void;
  hide(): void;
}

export const useRegisterDialog = create<RegisterDialogState>((set) => ({
  open: false,
  show: () => set({ open: true }),
  hide: () => set({ open: false }),
}));
