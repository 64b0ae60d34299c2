/** CAS 3.0 validation answers (protocol §2.5–2.7, appendix A): XML by default, JSON on `format=JSON`. */
import escapeHtml from 'escape-html';

export type CasFailureCode =
  | 'INVALID_REQUEST'
  | 'INVALID_TICKET_SPEC'
  | 'UNAUTHORIZED_SERVICE_PROXY'
  | 'INVALID_PROXY_CALLBACK'
  | 'INVALID_TICKET'
  | 'INVALID_SERVICE'
  | 'INTERNAL_ERROR';

export type CasAttributes = Record<string, string | string[]>;

// escape-html's character references (&#39; for ') are XML's too.
const xmlEscape = escapeHtml;

const NS = 'xmlns:cas="http://www.yale.edu/tp/cas"';

export function successXml(user: string, attributes: CasAttributes | undefined): string {
  const attrs = attributes
    ? `<cas:attributes>${Object.entries(attributes)
        .flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((v) => `<cas:${name}>${xmlEscape(v)}</cas:${name}>`))
        .join('')}</cas:attributes>`
    : '';
  return `<cas:serviceResponse ${NS}><cas:authenticationSuccess><cas:user>${xmlEscape(user)}</cas:user>${attrs}</cas:authenticationSuccess></cas:serviceResponse>`;
}

export function failureXml(code: CasFailureCode, description: string): string {
  return `<cas:serviceResponse ${NS}><cas:authenticationFailure code="${code}">${xmlEscape(description)}</cas:authenticationFailure></cas:serviceResponse>`;
}

export function successJson(user: string, attributes: CasAttributes | undefined) {
  return { serviceResponse: { authenticationSuccess: { user, ...(attributes ? { attributes } : {}) } } };
}

export function failureJson(code: CasFailureCode, description: string) {
  return { serviceResponse: { authenticationFailure: { code, description } } };
}

/** The SAML logout request of CAS single logout (protocol §2.3.3), posted as `logoutRequest=`. */
export function logoutRequestXml(serviceTicket: string, id: string, now: Date): string {
  return (
    `<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion"` +
    ` ID="${id}" Version="2.0" IssueInstant="${now.toISOString()}">` +
    `<saml:NameID>@NOT_USED@</saml:NameID><samlp:SessionIndex>${xmlEscape(serviceTicket)}</samlp:SessionIndex></samlp:LogoutRequest>`
  );
}
