/**
 * The syntax of an LDAP / Active Directory source's settings: addresses
 * (RFC 4516), distinguished names (RFC 4514), search filters (RFC 4515), attribute names (RFC 4512)
 * and Active Directory's bind names. The console's form and the server check with these same
 * functions (AuthSourceRules), and the server's LDAP code reads addresses and DNs with them.
 */

// RFC 1035 §2.3.1 / RFC 1123 §2.1 labels: letters, digits and inner hyphens, at most 63 characters.
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const HOST_NAME = new RegExp(`^(?=.{1,253}$)${LABEL}(?:\\.${LABEL})*$`);
const DNS_DOMAIN = new RegExp(`^(?=.{1,253}$)${LABEL}(?:\\.${LABEL})+$`);

/** A DNS domain of two labels or more (`corp.example.com`), as an AD 域 or a UPN suffix is written. */
export const isDnsDomain = (text: string) => DNS_DOMAIN.test(text);

// ------------------------------------------------------------------------------------------ addresses

export interface LdapAddress {
  /** `ldaps://`: TLS from the first byte. */
  secure: boolean;
  /** A host name, an IPv4 address, or an IPv6 address without its brackets. */
  host: string;
  port: number;
}

/** RFC 4516 `scheme://host[:port]` with nothing after it but an optional `/` (the DN and query are other fields). */
const LDAP_URL = /^(ldaps?):\/\/(\[[0-9A-Fa-f:.]+\]|[^/:[\]]+)(?::(\d{1,5}))?\/?$/i;

/**
 * `ldap://host[:port]` or `ldaps://host[:port]` as its parts (ports 389 / 636 by default), or undefined
 * when it is not one. Schemes are case-insensitive (RFC 3986 §3.1); an IPv6 address is in brackets.
 */
export function parseLdapUrl(url: string): LdapAddress | undefined {
  const match = LDAP_URL.exec(url.trim());
  if (!match) return undefined;
  const [, scheme = '', host = '', port] = match;
  const ipv6 = host.startsWith('[');
  if (ipv6 ? !host.includes(':') : !HOST_NAME.test(host)) return undefined;
  const secure = scheme.toLowerCase() === 'ldaps';
  const number = port === undefined ? (secure ? 636 : 389) : Number(port);
  if (number < 1 || number > 65535) return undefined;
  return { secure, host: ipv6 ? host.slice(1, -1) : host, port: number };
}

/** Whether the address is TLS from the first byte (`ldaps://`), as soon as its scheme is typed. */
export const isLdapsUrl = (url: string) => /^ldaps:\/\//i.test(url.trim());

// -------------------------------------------------------------------------------------------- names

/** RFC 4512 §1.4 `descr`: an attribute or matching rule by name (`uid`, `sAMAccountName`). */
const DESCR = /^[A-Za-z][A-Za-z0-9-]*$/;
/** RFC 4512 §1.4 `numericoid` (`2.5.4.3`, `1.2.840.113556.1.4.803`). */
const NUMERIC_OID = /^(?:0|[1-9]\d*)(?:\.(?:0|[1-9]\d*))+$/;
const isOid = (text: string) => DESCR.test(text) || NUMERIC_OID.test(text);

/**
 * An attribute the form maps a field from, or a filter names: a name (RFC 4512 `descr`). Numeric OIDs
 * and options (`cn;lang-zh`) are not taken: the server's LDAP client (ldapts) cannot send them in a
 * filter, and directories name the attributes people are read from.
 */
export const isAttributeName = (text: string) => DESCR.test(text);

// ---------------------------------------------------------------------------------- distinguished names

/** The RDNs of a DN, each as its raw attribute-value assertions ("cn=a+sn=b" → two); undefined for a dangling "\". */
export function splitDn(dn: string): string[][] | undefined {
  const rdns: string[][] = [];
  let avas: string[] = [];
  let current = '';
  for (let i = 0; i < dn.length; i += 1) {
    const char = dn[i];
    if (char === '\\') {
      // An escaped special ("\,") or the first digit of a hex pair ("\2C"): never a separator.
      if (i + 1 >= dn.length) return undefined;
      current += char + dn[i + 1];
      i += 1;
    } else if (char === ',' || char === '+') {
      avas.push(current);
      current = '';
      if (char === ',') {
        rdns.push(avas);
        avas = [];
      }
    } else {
      current += char;
    }
  }
  avas.push(current);
  rdns.push(avas);
  return rdns;
}

/** Spaces around a value are not part of it, but an escaped one ("\ ") at its end is. */
function trimDnValue(value: string): string {
  const text = value.trimStart();
  let end = text.length;
  while (end > 0 && text[end - 1] === ' ') {
    let escapes = 0;
    while (end - 2 - escapes >= 0 && text[end - 2 - escapes] === '\\') escapes += 1;
    if (escapes % 2 === 1) break;
    end -= 1;
  }
  return text.slice(0, end);
}

/**
 * RFC 4514 §3 `attributeValue`: a `#` hexstring, or a string whose specials are escaped ("\," or
 * "\2C"); a leading `#` of a string is escaped too. The empty value is not taken (nothing is named by it).
 */
const DN_HEX_VALUE = /^#(?:[0-9A-Fa-f]{2})+$/;
const DN_STRING_VALUE = /^(?:[^"+,;<>\\\0]|\\(?:[0-9A-Fa-f]{2}|[ "#+,;<=>\\]))+$/;
const isDnValue = (value: string) => (value.startsWith('#') ? DN_HEX_VALUE : DN_STRING_VALUE).test(value);

/** One attribute-value assertion of a DN (`type=value`, RFC 4514 §3), or undefined when it is not one. */
export function parseDnAva(ava: string): { type: string; value: string } | undefined {
  const eq = ava.indexOf('=');
  if (eq < 0) return undefined;
  const type = ava.slice(0, eq).trim();
  const value = trimDnValue(ava.slice(eq + 1));
  return isOid(type) && isDnValue(value) ? { type, value } : undefined;
}

/**
 * A distinguished name in the string form of RFC 4514 (`ou=people,dc=example,dc=com`): one or more
 * RDNs of one or more `type=value`. Spaces around the separators are taken, as OpenLDAP and Active
 * Directory take them (RFC 2253's readers); the empty DN is not a place to search or bind.
 */
export function isDistinguishedName(text: string): boolean {
  const rdns = splitDn(text);
  return !!rdns && text.trim() !== '' && rdns.every((avas) => avas.every((ava) => parseDnAva(ava) !== undefined));
}

/**
 * Active Directory's other simple-bind names ([MS-ADTS] §5.1.1.1.1): the user principal name
 * `user@corp.example.com` (its suffix may be any of the forest's UPN suffixes, not only the AD 域) and
 * the down-level logon name `CORP\user` (a NetBIOS domain name of at most 15 characters). The server
 * binds with the name as it is typed.
 */
const UPN = /^[^\s@\\]+@([^\s@\\]+)$/;
const DOWN_LEVEL_NAME = /^[^\s@\\/:*?"<>|]{1,15}\\[^\s@\\/:*?"<>|[\]=,+;]+$/;
export function isAdBindName(text: string): boolean {
  const upn = UPN.exec(text);
  return upn ? isDnsDomain(upn[1] ?? '') : DOWN_LEVEL_NAME.test(text);
}

// -------------------------------------------------------------------------------------------- filters

/** RFC 4515 §3 `assertionvalue`: no NUL, parenthesis or `*`; a backslash escapes two hex digits. */
const ASSERTION_VALUE = /^(?:[^\0()*\\]|\\[0-9A-Fa-f]{2})*$/;
/** After `=`, `*` makes it a presence or substring filter (`present`, `substring`). */
const EQUALITY_VALUE = /^(?:[^\0()\\]|\\[0-9A-Fa-f]{2})*$/;
const SIMPLE_ITEM = /^([^=~<>:]+)(~=|>=|<=|=)(.*)$/s;

/** One simple, presence, substring or extensible item between its parentheses (RFC 4515 §3 `item`). */
function isFilterItem(item: string): boolean {
  const simple = SIMPLE_ITEM.exec(item);
  if (simple) {
    const [, attribute = '', type, value = ''] = simple;
    return isAttributeName(attribute) && (type === '=' ? EQUALITY_VALUE : ASSERTION_VALUE).test(value);
  }
  // `extensible`: `attr[:dn][:rule]:=value` or `[:dn]:rule:=value`.
  const at = item.indexOf(':=');
  if (at < 0) return false;
  const [attribute = '', ...rest] = item.slice(0, at).split(':');
  const dn = rest[0]?.toLowerCase() === 'dn';
  const rule = dn ? rest[1] : rest[0];
  if (rest.length > (dn ? 2 : 1)) return false;
  if (attribute === '' ? rule === undefined : !isAttributeName(attribute)) return false;
  return (rule === undefined || isOid(rule)) && ASSERTION_VALUE.test(item.slice(at + 2));
}

/** Whether `text` is exactly one parenthesised filter (RFC 4515 §3 `filter`). */
function isParenthesisedFilter(text: string): boolean {
  let at = 0;
  const filter = (): boolean => {
    if (text[at] !== '(') return false;
    at += 1;
    const kind = text[at];
    if (kind === '&' || kind === '|') {
      // `filterlist = 1*filter`: the absolute true and false of RFC 4526, `(&)` and `(|)`, are not taken.
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
      if (end < 0 || !isFilterItem(text.slice(at, end))) return false;
      at = end;
    }
    if (text[at] !== ')') return false;
    at += 1;
    return true;
  };
  return filter() && at === text.length;
}

/**
 * The filter as it is sent: trimmed and inside its outer parentheses. A filter typed without them
 * (`objectClass=person`) is taken and sent with them, as ldapsearch and the server's LDAP client
 * (ldapts) do; the form shows and stores it as typed.
 */
export function ldapFilterText(filter: string): string {
  const text = filter.trim();
  return text.startsWith('(') ? text : `(${text})`;
}

/**
 * An LDAP search filter in the string form of RFC 4515 (see ldapFilterText for the outer
 * parentheses), with attributes named (isAttributeName); matching rules may be numeric OIDs, as AD's
 * `userAccountControl:1.2.840.113556.1.4.803:=2` is.
 */
export function isLdapFilter(filter: string): boolean {
  return filter.trim() !== '' && isParenthesisedFilter(ldapFilterText(filter));
}
