import { type OutboundGuard, outboundRequest } from '../../platform/lib/outbound.js';

/**
 * oidc-provider's `fetch` (its calls to client addresses: back-channel logout) through the portal's
 * outbound rules, as CAS single logout goes: an enterprise typed the address, so it reaches only
 * public networks unless OUTBOUND_ALLOW_NETWORKS lists it, and never the portal itself. The answer's
 * body is not read: the provider only looks at the status of a logout notification.
 */
export function outboundFetch(guard: OutboundGuard) {
  return async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : input);
    const method = (init?.method ?? 'GET').toUpperCase();
    if (method !== 'GET' && method !== 'POST') throw new TypeError(`unsupported method ${method}`);
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, name) => {
      // The provider blanks the user agent; an empty header is left out.
      if (value) headers[name] = value;
    });
    const body = init?.body;
    if (body !== undefined && body !== null && typeof body !== 'string' && !(body instanceof URLSearchParams)) {
      throw new TypeError('unsupported request body');
    }
    const answer = await outboundRequest(guard, url, {
      method,
      headers,
      ...(body ? { body: body.toString() } : {}),
      signal: init?.signal ?? AbortSignal.timeout(2500),
    });
    // A Response takes statuses 200–599 only; anything else is an unusable answer to the provider.
    const status = answer.status >= 200 && answer.status <= 599 ? answer.status : 502;
    return new Response(null, { status, headers: answer.location ? { location: answer.location } : {} });
  };
}
