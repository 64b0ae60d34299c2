import { SelfTestMessage } from '@portal/shared';
import { type OutboundGuard, OutboundRefusedError, errorCodeOf, outboundRequest } from '../../platform/lib/outbound.js';

/**
 * How long 接入自检 waits for one answer (the application's page, its logout address, the CAS's
 * validation). The three run side by side, so a whole check ends well inside the console's request
 * timeout (spec: 50000 ms).
 */
export const SELF_TEST_HTTP_TIMEOUT_MS = 5_000;

/** Longest host-and-path of a redirect target quoted back. */
const LOCATION_MAX = 200;

export type Exchange = { ok: true; response: Response } | { ok: false; reason: string };

/**
 * One request of the check: never follows a redirect (so never to another host), gives up after
 * SELF_TEST_HTTP_TIMEOUT_MS, and answers a connection failure as the Chinese reason shown to the user.
 * With `guard`, the address is the application's (a tenant's word): it is checked where the
 * connection is made and the answer's body is never read.
 */
export async function exchange(
  url: URL,
  init: { method: 'GET' | 'POST'; headers?: Record<string, string>; body?: URLSearchParams },
  guard?: OutboundGuard,
): Promise<Exchange> {
  const signal = AbortSignal.timeout(SELF_TEST_HTTP_TIMEOUT_MS);
  try {
    if (!guard) return { ok: true, response: await fetch(url, { ...init, redirect: 'manual', signal }) };
    const answer = await outboundRequest(guard, url, { ...init, body: init.body?.toString(), signal });
    // A status outside 200–599 is not HTTP an application would send (and not one a Response can hold).
    if (answer.status < 200 || answer.status > 599) return { ok: false, reason: SelfTestMessage.connectionFailed(`HTTP ${answer.status}`) };
    return {
      ok: true,
      response: new Response(null, { status: answer.status, headers: answer.location ? { location: answer.location } : {} }),
    };
  } catch (err) {
    return { ok: false, reason: failureReason(err) };
  }
}

/** The application's answer is only looked at, never read: its body is dropped unread. */
export async function statusOf(response: Response): Promise<{ status: number; location: string | null }> {
  await response.body?.cancel().catch(() => undefined);
  return { status: response.status, location: response.headers.get('location') };
}

/** Where a redirect points, as host and path only (its query may carry anything: it is not quoted). */
export function redirectTarget(location: string, from: URL): string {
  try {
    const url = new URL(location, from);
    const shown = url.protocol === 'http:' || url.protocol === 'https:' ? `${url.host}${url.pathname}` : url.protocol;
    return shown.slice(0, LOCATION_MAX);
  } catch {
    return location.slice(0, 40);
  }
}

const UNREACHABLE = new Set(['EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'EAI_AGAIN']);

function failureReason(err: unknown): string {
  if (err instanceof OutboundRefusedError) return err.message;
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) {
    return SelfTestMessage.timeout(SELF_TEST_HTTP_TIMEOUT_MS / 1000);
  }
  const code = errorCodeOf(err);
  if (code === 'ECONNREFUSED') return SelfTestMessage.refused;
  if (code === 'ENOTFOUND') return SelfTestMessage.notFound;
  if (code === 'ECONNRESET' || code === 'UND_ERR_CLOSED') return SelfTestMessage.reset;
  if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT') {
    return SelfTestMessage.timeout(SELF_TEST_HTTP_TIMEOUT_MS / 1000);
  }
  if (code && UNREACHABLE.has(code)) return SelfTestMessage.unreachableHost(code);
  if (code && (code.startsWith('ERR_TLS') || code.startsWith('CERT_') || code.includes('CERT') || code.includes('SELF_SIGNED'))) {
    return SelfTestMessage.certificate(code);
  }
  return SelfTestMessage.connectionFailed(code ?? (err instanceof Error ? err.name : 'unknown'));
}
