import { create } from 'zustand';

/** Spec sections 3 and 9: the sidebar's state survives in the cookie `sidebarStatus` as 1 or 0. */
export const SIDEBAR_COOKIE = 'sidebarStatus';
/** Spec section 9: below 992 px (body width − 1) the console is in mobile mode. */
export const MOBILE_BREAKPOINT = 992;

export type Device = 'desktop' | 'mobile';

function readSidebarCookie(): string | undefined {
  if (typeof document === 'undefined') return undefined;
  return document.cookie
    .split('; ')
    .find((c) => c.startsWith(`${SIDEBAR_COOKIE}=`))
    ?.slice(SIDEBAR_COOKIE.length + 1);
}

function writeSidebarCookie(open: boolean): void {
  document.cookie = `${SIDEBAR_COOKIE}=${open ? '1' : '0'}; path=/; SameSite=Lax`;
}

export interface AppState {
  sidebar: { opened: boolean; withoutAnimation: boolean };
  device: Device;
  /** Flips the sidebar and remembers it (1 open, 0 closed). */
  toggleSidebar(): void;
  /** Closes the sidebar (always remembered as 0), optionally without the animation. */
  closeSidebar(withoutAnimation: boolean): void;
  toggleDevice(device: Device): void;
}

/** Spec section 3, "App state": no cookie means open; the device defaults to desktop. */
export const useAppStore = create<AppState>((set) => ({
  sidebar: { opened: readSidebarCookie() !== '0', withoutAnimation: false },
  device: 'desktop',
  toggleSidebar: () =>
    set((s) => {
      const opened = !s.sidebar.opened;
      writeSidebarCookie(opened);
      return { sidebar: { opened, withoutAnimation: false } };
    }),
  closeSidebar: (withoutAnimation) => {
    writeSidebarCookie(false);
    set({ sidebar: { opened: false, withoutAnimation } });
  },
  toggleDevice: (device) => set({ device }),
}));

/** Spec section 4: the device is mobile when the body's width minus 1 is under 992. */
export function deviceFor(bodyWidth: number): Device {
  return bodyWidth - 1 < MOBILE_BREAKPOINT ? 'mobile' : 'desktop';
}
