import { AuthSourceMessage, type LdapSourceConfig } from '@portal/shared';
import { FilterParser } from 'ldapts';
import { isValidDn } from './ldap-dn.js';

/**
 * What an LDAP / AD source's settings must look like before anything talks to the directory (issue 19,
 * "Bad input"): each check answers the AuthSourceMessage text the console shows.
 */

/** `ldap://host[:port]` or `ldaps://host[:port]` (RFC 4516 without DN or query); IPv6 in brackets. */
const LDAP_URL = /^(ldaps?):\/\/(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?)(?::(\d{1,5}))?\/?$/;

export interface LdapAddress {
  secure: boolean;
  host: string;
  port: number;
}

/** The parts of an LDAP address, or undefined when it is not one (default ports 389 / 636). */
export function parseLdapUrl(url: string): LdapAddress | undefined {
  const match = LDAP_URL.exec(url.trim());
  if (!match) return undefined;
  const [, scheme, host = '', port] = match;
  const secure = scheme === 'ldaps';
  const number = port === undefined ? (secure ? 636 : 389) : Number(port);
  if (number < 1 || number > 65535) return undefined;
  return { secure, host: host.replace(/^\[|\]$/g, ''), port: number };
}

export const isValidLdapUrl = (url: string) => parseLdapUrl(url) !== undefined;

/**
 * An RFC 4515 filter as ldapts sends it (its own parser, so what passes here is what the search
 * sends); a filter without its outer parentheses is accepted the way ldapts and ldapsearch take it.
 */
export function isValidLdapFilter(filter: string): boolean {
  const text = filter.trim();
  if (!text) return false;
  try {
    FilterParser.parseString(text);
    return true;
  } catch {
    return false;
  }
}

/** The filter as it goes into a compound filter: with its outer parentheses. */
export const filterText = (filter: string) => {
  const text = filter.trim();
  return text.startsWith('(') ? text : `(${text})`;
};

// RFC 4512 §1.4 descr (a name; numeric OIDs are not offered in the form).
const DESCR = /^[A-Za-z][A-Za-z0-9-]{0,63}$/;
export const isValidAttributeName = (name: string) => DESCR.test(name);

export { isValidDn };

// A DNS domain (RFC 1035 labels), e.g. corp.example.com.
const DOMAIN = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
export const isValidAdDomain = (domain: string) => DOMAIN.test(domain);

/**
 * The first problem of an LDAP source's settings as the console words it, or undefined when they can be
 * used. The bind password is the source's secret and is checked by whoever stores it.
 */
export function ldapConfigProblem(config: LdapSourceConfig): string | undefined {
  const address = parseLdapUrl(config.url);
  if (!address) return AuthSourceMessage.urlInvalid;
  // RFC 4513 §3: StartTLS upgrades a plain connection; ldaps:// is TLS from the first byte.
  if (config.startTls && address.secure) return AuthSourceMessage.startTlsWithLdaps;
  if (!config.bindDn.trim()) return AuthSourceMessage.bindDnRequired;
  if (!isValidDn(config.bindDn)) return AuthSourceMessage.dnInvalid;
  if (!config.baseDn.trim()) return AuthSourceMessage.baseDnRequired;
  if (!isValidDn(config.baseDn)) return AuthSourceMessage.dnInvalid;
  if (!isValidLdapFilter(config.userFilter)) return AuthSourceMessage.filterInvalid;
  if (!config.mapping.username.trim()) return AuthSourceMessage.usernameAttributeRequired;
  for (const attribute of [config.mapping.username, config.mapping.name, config.mapping.phone, config.mapping.email]) {
    if (attribute.trim() && !isValidAttributeName(attribute.trim())) return AuthSourceMessage.attributeInvalid;
  }
  if (config.adDomain.trim() && !isValidAdDomain(config.adDomain.trim())) return AuthSourceMessage.domainInvalid;
  if (config.groupBaseDn.trim()) {
    if (!isValidDn(config.groupBaseDn)) return AuthSourceMessage.dnInvalid;
    if (!isValidLdapFilter(config.groupFilter)) return AuthSourceMessage.groupFilterInvalid;
  }
  return undefined;
}
