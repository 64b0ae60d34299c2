import { ApiPrefix } from '@portal/shared';
import { getRuntimeConfig } from '@/config/runtime-config';

const CHECKED = 'portal.sso-checked';
const TIMEOUT_MS = 10_000;

/**
 * Silent single sign-on (CAS `gateway=true`): a hidden iframe asks the central login whether this
 * browser is logged in there. Someone who is gets a portal session without any visible redirect;
 * everyone else keeps browsing. Once per tab (sessionStorage). Resolves true when a session opened.
 */
export function silentSingleSignOn(): Promise<boolean> {
  try {
    if (window.sessionStorage.getItem(CHECKED)) return Promise.resolve(false);
    window.sessionStorage.setItem(CHECKED, '1');
  } catch {
    return Promise.resolve(false);
  }
  // The portal server starts the check (binding it to this browser) and asks the CAS with gateway=true.
  const start = new URL(`${ApiPrefix.portalAuth}/cas/login`, getRuntimeConfig().apiBaseUrl);
  start.searchParams.set('mode', 'silent');
  const expectedOrigin = start.origin;
  return new Promise((resolve) => {
    const frame = document.createElement('iframe');
    frame.hidden = true;
    frame.title = 'sso';
    frame.setAttribute('aria-hidden', 'true');
    const finish = (loggedIn: boolean) => {
      window.removeEventListener('message', onMessage);
      clearTimeout(timer);
      frame.remove();
      resolve(loggedIn);
    };
    const onMessage = (event: MessageEvent) => {
      const data = event.data as { type?: unknown; loggedIn?: unknown } | null;
      if (event.origin !== expectedOrigin || data?.type !== 'portal-sso') return;
      finish(data.loggedIn === true);
    };
    const timer = setTimeout(() => finish(false), TIMEOUT_MS);
    window.addEventListener('message', onMessage);
    frame.src = start.toString();
    document.body.appendChild(frame);
  });
}
