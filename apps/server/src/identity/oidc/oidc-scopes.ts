import type { OidcAppScope } from '@portal/shared';

/** Scopes of OpenID Connect applications and the claims each releases (OIDC Core §5.4; `enterprise` is the portal's). */
export const OIDC_CLAIM_SCOPES = {
  openid: ['sub'],
  profile: ['name', 'preferred_username'],
  email: ['email'],
  phone: ['phone_number'],
  // The portal's, mirroring CAS 返回属性: the enterprise, its employee number, account groups and role codes.
  enterprise: ['enterprise_id', 'enterprise_name', 'employee_number'],
  groups: ['groups'],
  roles: ['roles'],
} as const satisfies Record<Exclude<OidcAppScope, 'offline_access'>, readonly string[]>;

/** Scopes of machine clients: the enterprise's own APIs they may call (client_credentials); the console shows them too. */
export { MACHINE_SCOPES, type MachineScope } from '@portal/shared';
