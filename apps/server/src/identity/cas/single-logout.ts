import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { type OutboundGuard, outboundRequest } from '../../platform/lib/outbound.js';
import type { SingleLogoutTarget } from './cas-services.js';
import { logoutRequestXml } from './cas-responses.js';

const SLO_TIMEOUT_MS = 3000;

/**
 * CAS single logout (protocol §2.3.3): POST a SAML LogoutRequest to every service that received a
 * ticket in the ended session and is still registered (`target` answers where its message goes: the
 * application's logout address or the service address; nothing for a service dropped from the
 * registry, or any address that is not one: it gets no request from this server). Sent in parallel
 * and awaited briefly so the portal session is gone before the browser lands back on it; a redirect
 * is not followed; an address an enterprise typed goes through `guard` (the portal's own and
 * configured services do not); errors are logged and otherwise ignored, as the protocol says.
 */
export async function sendSingleLogout(
  tickets: { id: string; service: string }[],
  target: (service: string) => Promise<SingleLogoutTarget | undefined>,
  log: FastifyBaseLogger,
  guard: OutboundGuard,
): Promise<void> {
  await Promise.all(
    tickets.map(async (ticket) => {
      const found = await target(ticket.service).catch((err: unknown) => {
        log.warn({ err }, 'single logout target not resolved');
        return undefined;
      });
      if (!found) {
        log.warn({ service: ticket.service.slice(0, 200) }, 'single logout skipped: service not registered');
        return;
      }
      const { url } = found;
      const body = new URLSearchParams({ logoutRequest: logoutRequestXml(ticket.id, `LR-${randomBytes(12).toString('hex')}`, new Date()) });
      try {
        const init = {
          method: 'POST' as const,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: body.toString(),
          signal: AbortSignal.timeout(SLO_TIMEOUT_MS),
        };
        if (found.tenant) await outboundRequest(guard, url, init);
        else await (await fetch(url, { ...init, redirect: 'manual' })).body?.cancel();
      } catch (err) {
        log.warn({ service: url.origin, err: (err as Error).message }, 'single logout message not delivered');
      }
    }),
  );
}
