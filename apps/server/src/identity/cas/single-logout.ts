import { randomBytes } from 'node:crypto';
import { type OutboundGuard, outboundRequest } from '../../platform/lib/outbound.js';
import { logoutRequestXml } from './cas-responses.js';

/** How long one single-logout message may take. */
export const SLO_TIMEOUT_MS = 3000;

/** An application answered a single-logout message with an error status. */
export class LogoutRefusedError extends Error {
  constructor(readonly status: number) {
    super(`HTTP ${status}`);
  }
}

/**
 * CAS single logout (protocol §2.3.3): POSTs a SAML LogoutRequest for `ticketId` to `url` (the
 * application's logout address or its service address). A redirect is not followed; an address an
 * enterprise typed goes through `guard` (the portal's own and configured services do not). Throws when
 * the message does not arrive or the application answers 4xx/5xx, so the delivery log can say why.
 */
export async function sendLogoutRequest(url: URL, ticketId: string, guard: OutboundGuard | undefined): Promise<void> {
  const body = new URLSearchParams({ logoutRequest: logoutRequestXml(ticketId, `LR-${randomBytes(12).toString('hex')}`, new Date()) });
  const init = {
    method: 'POST' as const,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: body.toString(),
    signal: AbortSignal.timeout(SLO_TIMEOUT_MS),
  };
  let status: number;
  if (guard) status = (await outboundRequest(guard, url, init)).status;
  else {
    const response = await fetch(url, { ...init, redirect: 'manual' });
    await response.body?.cancel();
    status = response.status;
  }
  if (status >= 400) throw new LogoutRefusedError(status);
}
