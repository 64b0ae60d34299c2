// PLACEHOLDER (issue 19 foundation): the LDAP helper replaces this file.
import type { AuthSourceTestResult, LdapSourceConfig } from '@portal/shared';
import { type Directory, DirectoryError, type DirectorySnapshot, type DirectoryUser, type LoadedSource } from '../directory.js';

/** Sign-in against the directory: the user's entry found by a service bind, then a bind as the user. */
export type LdapAuthResult =
  { ok: true; user: DirectoryUser } | { ok: false; reason: 'bad-credentials' | 'not-found' | 'disabled' | 'unavailable'; detail: string };

export class LdapDirectory implements Directory {
  readonly type = 'ldap';
  constructor(
    readonly source: LoadedSource & { type: 'ldap'; config: LdapSourceConfig },
    readonly options: { timeoutMs: number },
  ) {}
  test(): Promise<AuthSourceTestResult> {
    return Promise.reject(new DirectoryError('not implemented'));
  }
  read(): Promise<DirectorySnapshot> {
    return Promise.reject(new DirectoryError('not implemented'));
  }
  /** `dn`: where the entry was last seen (tried first); the search by username otherwise. */
  authenticate(_username: string, _password: string, _dn?: string): Promise<LdapAuthResult> {
    return Promise.reject(new DirectoryError('not implemented'));
  }
}
