/**
 * The portal as a CAS client: validates a service ticket over HTTP at the configured CAS server's
 * `/p3/serviceValidate` with `format=JSON` (CAS 3.0 §2.6), also when that server is the embedded one.
 */
export type TicketValidation =
  { ok: true; user: string; attributes: Record<string, unknown> } | { ok: false; code: string; description: string };

interface CasJson {
  serviceResponse?: {
    authenticationSuccess?: { user?: unknown; attributes?: Record<string, unknown> };
    authenticationFailure?: { code?: unknown; description?: unknown };
  };
}

export async function validateServiceTicket(
  casServerUrl: string,
  service: string,
  ticket: string,
  timeoutMs = 5000,
): Promise<TicketValidation> {
  const url = new URL(`${casServerUrl}/p3/serviceValidate`);
  url.searchParams.set('service', service);
  url.searchParams.set('ticket', ticket);
  url.searchParams.set('format', 'JSON');
  let body: CasJson;
  try {
    const res = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs) });
    if (!res.ok) return { ok: false, code: 'HTTP_' + res.status, description: '认证服务暂时不可用' };
    body = (await res.json()) as CasJson;
  } catch {
    return { ok: false, code: 'UNREACHABLE', description: '无法连接统一身份认证服务' };
  }
  const success = body.serviceResponse?.authenticationSuccess;
  if (success && typeof success.user === 'string' && success.user)
    return { ok: true, user: success.user, attributes: success.attributes ?? {} };
  const failure = body.serviceResponse?.authenticationFailure;
  return {
    ok: false,
    code: typeof failure?.code === 'string' ? failure.code : 'INVALID_RESPONSE',
    description: typeof failure?.description === 'string' ? failure.description : '认证服务的应答无法识别',
  };
}

/** The service ticket named by a single-logout message (CAS 3.0 §2.3.3: `SessionIndex`), if it is one. */
export function sessionIndexOf(logoutRequest: string): string | undefined {
  return /<samlp:SessionIndex>\s*(ST-[A-Za-z0-9-]+)\s*<\/samlp:SessionIndex>/.exec(logoutRequest)?.[1];
}
