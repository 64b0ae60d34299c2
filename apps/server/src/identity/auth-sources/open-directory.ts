import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { chatPlatform } from './chat/chat-platform.js';
import { AuthSourceMessage } from '@portal/shared';
import { type Directory, DirectoryError, type LoadedSource } from './directory.js';
import { LdapDirectory } from './ldap/ldap-directory.js';

/**
 * The directory behind a source, talking to the configured hosts with the configured timeouts; an
 * LDAP source's address is a tenant's, reached through the outbound guard. `log` gets the library's
 * and the server's own words of a failure.
 */
export function openDirectory(app: FastifyInstance, source: LoadedSource, log: FastifyBaseLogger = app.log): Directory {
  if (source.type === 'ldap') return new LdapDirectory(source, { timeoutMs: app.config.auth.ldapTimeoutMs, guard: app.outbound, log });
  // An enterprise's own provider signs people in; it has no directory to read (SCIM pushes changes instead).
  if (source.type === 'oidc' || source.type === 'saml') throw new DirectoryError(AuthSourceMessage.federatedNoSync);
  return chatPlatform(source, app.config.auth.chatEndpoints);
}
