// PLACEHOLDER (issue 19): the LDAP helper's checks replace this file (same name and signature).
import type { LdapSourceConfig } from '@portal/shared';

/** The first problem of an LDAP source's settings (address, DNs, RFC 4515 filters, attribute names), or undefined. */
export function ldapConfigProblem(_config: LdapSourceConfig): string | undefined {
  return undefined;
}
