import { AUTH_SOURCE_NAME_MAX, AuthSourceMessage, SECRET_MAX } from '@portal/shared';

// The checks of the 认证源 form, each answering the shared message for a bad value or undefined (the
// shape of SsoRules / TenantRules). The server checks the same fields again and its word is final.

const charCount = (text: string) => [...text].length;

/** An attribute description (RFC 4512 §2.5): a name or a numeric OID, with options (`;lang-zh`). */
const ATTRIBUTE_DESCRIPTION = /^(?:[A-Za-z][A-Za-z0-9-]*|\d+(?:\.\d+)+)(?:;[A-Za-z0-9-]+)*$/;
/** A matching rule (RFC 4515 §3 `matchingrule`): a name or a numeric OID. */
const MATCHING_RULE = /^(?:[A-Za-z][A-Za-z0-9-]*|\d+(?:\.\d+)+)$/;
/** An assertion value (RFC 4515 §3 `valueencoding`): no NUL or parenthesis; a backslash escapes two hex digits. */
const ASSERTION_VALUE = /^(?:[^\0()*\\]|\\[0-9A-Fa-f]{2})*$/;
/** An assertion value that may hold `*` (equality with `*` is a presence or substring filter). */
const SUBSTRING_VALUE = /^(?:[^\0()\\]|\\[0-9A-Fa-f]{2})*$/;
/** The attribute name the form maps a field from: the shared message allows letters, digits and hyphens. */
const ATTRIBUTE_NAME = /^[A-Za-z0-9-]+$/;
const DNS_LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const DNS_DOMAIN = new RegExp(`^(?=.{1,253}$)${DNS_LABEL}(?:\\.${DNS_LABEL})+$`);

/** One simple, presence, substring or extensible item between the parentheses (RFC 4515 §3 `item`). */
function validItem(item: string): boolean {
  const simple = /^([^=~<>:]+)(~=|>=|<=|=)(.*)$/.exec(item);
  if (simple) return ATTRIBUTE_DESCRIPTION.test(simple[1]!) && (simple[2] === '=' ? SUBSTRING_VALUE : ASSERTION_VALUE).test(simple[3]!);
  // Extensible: `attr[:dn][:rule]:=value` or `[:dn]:rule:=value`.
  const at = item.indexOf(':=');
  if (at < 0) return false;
  const [attr = '', ...rest] = item.slice(0, at).split(':');
  const dn = rest[0]?.toLowerCase() === 'dn';
  const rule = dn ? rest[1] : rest[0];
  if (rest.length > (dn ? 2 : 1)) return false;
  if (attr === '' ? rule === undefined : !ATTRIBUTE_DESCRIPTION.test(attr)) return false;
  return (rule === undefined || MATCHING_RULE.test(rule)) && ASSERTION_VALUE.test(item.slice(at + 2));
}

/** Whether `text` is one LDAP search filter in the string form of RFC 4515 (parenthesised, as servers take it). */
export function isLdapFilter(text: string): boolean {
  let at = 0;
  const filter = (): boolean => {
    if (text[at] !== '(') return false;
    at += 1;
    const kind = text[at];
    if (kind === '&' || kind === '|') {
      at += 1;
      let count = 0;
      while (text[at] === '(') {
        if (!filter()) return false;
        count += 1;
      }
      if (count === 0) return false;
    } else if (kind === '!') {
      at += 1;
      if (!filter()) return false;
    } else {
      const end = text.indexOf(')', at);
      if (end < 0 || !validItem(text.slice(at, end))) return false;
      at = end;
    }
    if (text[at] !== ')') return false;
    at += 1;
    return true;
  };
  return filter() && at === text.length;
}

/** Splits at `separator` where it is not escaped by a backslash. */
function splitUnescaped(text: string, separator: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (c === '\\' && i + 1 < text.length) {
      current += c + text[i + 1]!;
      i += 1;
    } else if (c === separator) {
      parts.push(current);
      current = '';
    } else current += c;
  }
  parts.push(current);
  return parts;
}

/** An attribute value of a DN (RFC 4514 §3): `#` and hex, or a string with its special characters escaped. */
function validDnValue(value: string): boolean {
  if (value === '') return false;
  if (value.startsWith('#')) return /^#(?:[0-9A-Fa-f]{2})+$/.test(value);
  return /^(?:[^"+,;<>\\\0]|\\(?:[0-9A-Fa-f]{2}|[ "#+,;<=>\\]))+$/.test(value);
}

/**
 * Whether `text` is a distinguished name in the string form of RFC 4514 (`ou=people,dc=example,dc=com`);
 * spaces after the commas are accepted, as directory servers do (RFC 2253's readers).
 */
export function isDistinguishedName(text: string): boolean {
  if (!text.trim()) return false;
  return splitUnescaped(text, ',').every((rdn) =>
    splitUnescaped(rdn, '+').every((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return false;
      const type = pair.slice(0, eq).trim();
      return ATTRIBUTE_DESCRIPTION.test(type) && !type.includes(';') && validDnValue(pair.slice(eq + 1).trim());
    }),
  );
}

/** Active Directory also takes a simple bind as `user@corp.example.com` or `CORP\user`. */
const AD_BIND_NAME = /^(?:[^\s@\\]+@[^\s@\\]+|[^\s@\\]+\\[^\s@\\]+)$/;

const isLdaps = (url: string) => /^ldaps:\/\//i.test(url.trim());

export const AuthSourceRules = {
  name(value: string): string | undefined {
    if (!value.trim()) return AuthSourceMessage.nameRequired;
    return charCount(value.trim()) > AUTH_SOURCE_NAME_MAX ? AuthSourceMessage.nameTooLong : undefined;
  },
  /** `ldap://host[:port]` or `ldaps://host[:port]`: nothing after the host and port (RFC 4516's DN and query are other fields). */
  url(value: string): string | undefined {
    const raw = value.trim();
    if (!/^ldaps?:\/\//i.test(raw) || /[\s\\]/.test(raw)) return AuthSourceMessage.urlInvalid;
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return AuthSourceMessage.urlInvalid;
    }
    const bare = !url.hostname || url.username || url.password || url.search || url.hash || (url.pathname && url.pathname !== '/');
    return bare ? AuthSourceMessage.urlInvalid : undefined;
  },
  /** StartTLS (RFC 4511 §4.14) upgrades a plain connection; an `ldaps://` one is TLS already. */
  startTls(startTls: boolean, url: string): string | undefined {
    return startTls && isLdaps(url) ? AuthSourceMessage.startTlsWithLdaps : undefined;
  },
  bindDn(value: string, adDomain: string): string | undefined {
    const raw = value.trim();
    if (!raw) return AuthSourceMessage.bindDnRequired;
    if (adDomain.trim() && AD_BIND_NAME.test(raw)) return undefined;
    return isDistinguishedName(raw) ? undefined : AuthSourceMessage.dnInvalid;
  },
  baseDn(value: string): string | undefined {
    const raw = value.trim();
    if (!raw) return AuthSourceMessage.baseDnRequired;
    return isDistinguishedName(raw) ? undefined : AuthSourceMessage.dnInvalid;
  },
  /** Optional: empty means no 账号组 come from the directory. */
  groupBaseDn(value: string): string | undefined {
    const raw = value.trim();
    return !raw || isDistinguishedName(raw) ? undefined : AuthSourceMessage.dnInvalid;
  },
  userFilter(value: string): string | undefined {
    return isLdapFilter(value.trim()) ? undefined : AuthSourceMessage.filterInvalid;
  },
  /** Needed only where groups are read (a 组基准 DN is set). */
  groupFilter(value: string, groupBaseDn: string): string | undefined {
    const raw = value.trim();
    if (!raw && !groupBaseDn.trim()) return undefined;
    return isLdapFilter(raw) ? undefined : AuthSourceMessage.groupFilterInvalid;
  },
  usernameAttribute(value: string): string | undefined {
    const raw = value.trim();
    if (!raw) return AuthSourceMessage.usernameAttributeRequired;
    return ATTRIBUTE_NAME.test(raw) ? undefined : AuthSourceMessage.attributeInvalid;
  },
  /** 姓名, 手机号, 邮箱: optional (empty: not read from the directory). */
  attribute(value: string): string | undefined {
    const raw = value.trim();
    return !raw || ATTRIBUTE_NAME.test(raw) ? undefined : AuthSourceMessage.attributeInvalid;
  },
  /** Optional; set, the directory is Active Directory. */
  adDomain(value: string): string | undefined {
    const raw = value.trim();
    return !raw || DNS_DOMAIN.test(raw) ? undefined : AuthSourceMessage.domainInvalid;
  },
  /** Kept as typed (a password may hold spaces); required only while no secret is stored. */
  secret(value: string, stored: boolean): string | undefined {
    if (!value) return stored ? undefined : AuthSourceMessage.secretRequired;
    return charCount(value) > SECRET_MAX ? AuthSourceMessage.secretTooLong : undefined;
  },
  corpId: (value: string) => (value.trim() ? undefined : AuthSourceMessage.corpIdRequired),
  agentId: (value: string) => (value.trim() ? undefined : AuthSourceMessage.agentIdRequired),
  appKey: (value: string) => (value.trim() ? undefined : AuthSourceMessage.appKeyRequired),
  appId: (value: string) => (value.trim() ? undefined : AuthSourceMessage.appIdRequired),
} as const;
