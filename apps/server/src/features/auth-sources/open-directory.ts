import type { ServerConfig } from '../../config.js';
import { chatPlatform } from './chat/chat-platform.js';
import type { Directory, LoadedSource } from './directory.js';
import { LdapDirectory } from './ldap/ldap-directory.js';

/** The directory behind a source, talking to the configured hosts with the configured timeouts. */
export function openDirectory(config: ServerConfig, source: LoadedSource): Directory {
  if (source.type === 'ldap') return new LdapDirectory(source, { timeoutMs: config.auth.ldapTimeoutMs });
  return chatPlatform(source, config.auth.chatEndpoints);
}
