import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { logoutRequestXml } from './cas-responses.js';

const SLO_TIMEOUT_MS = 3000;

/**
 * CAS single logout (protocol §2.3.3): POST a SAML LogoutRequest to every service that received a
 * ticket in the ended session and is still registered (`registered` answers its address, or nothing:
 * a service dropped from the registry, or any address that is not one, gets no request from this
 * server). Sent in parallel and awaited briefly so the portal session is gone before the browser
 * lands back on it; a redirect is not followed; errors are logged and otherwise ignored, as the
 * protocol says.
 */
export async function sendSingleLogout(
  tickets: { id: string; service: string }[],
  registered: (service: string) => URL | undefined,
  log: FastifyBaseLogger,
): Promise<void> {
  await Promise.all(
    tickets.map(async (ticket) => {
      const url = registered(ticket.service);
      if (!url) {
        log.warn({ service: ticket.service.slice(0, 200) }, 'single logout skipped: service not registered');
        return;
      }
      const body = new URLSearchParams({ logoutRequest: logoutRequestXml(ticket.id, `LR-${randomBytes(12).toString('hex')}`, new Date()) });
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body,
          redirect: 'manual',
          signal: AbortSignal.timeout(SLO_TIMEOUT_MS),
        });
        await res.body?.cancel();
      } catch (err) {
        log.warn({ service: url.origin, err: (err as Error).message }, 'single logout message not delivered');
      }
    }),
  );
}
