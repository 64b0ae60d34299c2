/** Scopes of OpenID Connect applications and the claims each releases (OIDC Core §5.4; `enterprise` is the portal's). */
export const OIDC_CLAIM_SCOPES = {
  openid: ['sub'],
  profile: ['name', 'preferred_username'],
  email: ['email'],
  phone: ['phone_number'],
  enterprise: ['enterprise_id', 'enterprise_name'],
} as const;

/** Scopes of machine clients: the enterprise's own APIs they may call (client_credentials). */
export const MACHINE_SCOPES = ['accounts:read', 'groups:read', 'identifiers:read', 'identifiers:write'] as const;
export type MachineScope = (typeof MACHINE_SCOPES)[number];
