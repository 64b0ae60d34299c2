import { beforeEach, describe, expect, it } from 'vitest';
import { SIDEBAR_COOKIE, deviceFor, useAppStore } from '../stores/app-store';

const cookie = () =>
  document.cookie
    .split('; ')
    .find((c) => c.startsWith(`${SIDEBAR_COOKIE}=`))
    ?.split('=')[1];

describe('console app state (spec sections 3, 4 and 9)', () => {
  beforeEach(() => {
    document.cookie = `${SIDEBAR_COOKIE}=; path=/; max-age=0`;
    useAppStore.setState({ sidebar: { opened: true, withoutAnimation: false }, device: 'desktop' });
  });

  it('toggling flips the sidebar and writes 1 or 0 into sidebarStatus', () => {
    useAppStore.getState().toggleSidebar();
    expect(useAppStore.getState().sidebar.opened).toBe(false);
    expect(cookie()).toBe('0');
    useAppStore.getState().toggleSidebar();
    expect(useAppStore.getState().sidebar.opened).toBe(true);
    expect(cookie()).toBe('1');
  });

  it('closing always writes 0 and can skip the animation', () => {
    useAppStore.getState().closeSidebar(true);
    expect(useAppStore.getState().sidebar).toEqual({ opened: false, withoutAnimation: true });
    expect(cookie()).toBe('0');
    useAppStore.getState().closeSidebar(false);
    expect(cookie()).toBe('0');
  });

  it('is mobile when the body width minus 1 is under 992', () => {
    expect(deviceFor(992)).toBe('mobile');
    expect(deviceFor(993)).toBe('desktop');
    expect(deviceFor(375)).toBe('mobile');
    useAppStore.getState().toggleDevice('mobile');
    expect(useAppStore.getState().device).toBe('mobile');
  });
});
