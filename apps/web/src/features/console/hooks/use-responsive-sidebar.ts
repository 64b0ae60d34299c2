import { useEffect } from 'react';
import { deviceFor, useAppStore } from '../stores/app-store';

/**
 * Spec section 4: the device is mobile when the body's width minus 1 is under 992; turning mobile
 * (or opening the console on a phone) closes the sidebar without its animation. A phone's own resizes
 * (the address bar sliding away) leave an open drawer open.
 */
export function useResponsiveSidebar(): void {
  useEffect(() => {
    let first = true;
    const check = () => {
      const device = deviceFor(document.body.getBoundingClientRect().width);
      const state = useAppStore.getState();
      const changed = device !== state.device;
      if (changed) state.toggleDevice(device);
      if (device === 'mobile' && (changed || first) && state.sidebar.opened) state.closeSidebar(true);
      first = false;
    };
    check();
    window.addEventListener('resize', check);
    return () => window.removeEventListener('resize', check);
  }, []);
}
