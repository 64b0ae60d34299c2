import { XMLParser } from 'fast-xml-parser';

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

/** A CAS 3.0 validation answer in XML (protocol §2.5.2 and appendix A), each attribute with all its values. */
export type CasXmlAnswer =
  { ok: true; user: string; attributes: Record<string, string[]> } | { ok: false; code: string; description: string };

const ATTRIBUTES_PATH = 'serviceResponse.authenticationSuccess.attributes';

// Namespace prefixes dropped (`cas:user` → `user`); values kept as text; an attribute always a list, as it may repeat (§2.5.2).
const casXml = new XMLParser({
  removeNSPrefix: true,
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  parseAttributeValue: false,
  isArray: (_name, path) => typeof path === 'string' && path.startsWith(`${ATTRIBUTES_PATH}.`),
});

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
/** An element's text: a plain value, or `#text` beside its XML attributes. */
const textOf = (value: unknown): string =>
  typeof value === 'string' ? value : isRecord(value) && typeof value['#text'] === 'string' ? value['#text'] : '';

/**
 * Reads the XML answer of `/serviceValidate` or `/p3/serviceValidate` as a CAS client does; undefined
 * when it is not one (not XML, no `cas:serviceResponse`, neither success nor failure).
 */
export function parseCasXml(xml: string): CasXmlAnswer | undefined {
  let parsed: unknown;
  try {
    parsed = casXml.parse(xml);
  } catch {
    return undefined;
  }
  const response = isRecord(parsed) ? parsed.serviceResponse : undefined;
  if (!isRecord(response)) return undefined;
  const success = response.authenticationSuccess;
  if (isRecord(success)) {
    const user = textOf(success.user).trim();
    if (!user) return undefined;
    const attributes: Record<string, string[]> = {};
    const given = isRecord(success.attributes) ? success.attributes : {};
    for (const [name, values] of Object.entries(given)) {
      if (Array.isArray(values)) attributes[name] = values.map(textOf);
    }
    return { ok: true, user, attributes };
  }
  const failure = response.authenticationFailure;
  if (failure === undefined) return undefined;
  const code = isRecord(failure) && typeof failure['@code'] === 'string' ? failure['@code'] : 'INVALID_RESPONSE';
  return { ok: false, code, description: textOf(failure).trim() };
}
