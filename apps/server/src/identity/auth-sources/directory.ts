import type {
  AuthSourceTestResult,
  DirectoryUserView,
  AuthSourceType,
  DingtalkSourceConfig,
  FeishuSourceConfig,
  LdapSourceConfig,
  OidcSourceConfig,
  SamlSourceConfig,
  WecomSourceConfig,
} from '@portal/shared';

/** A source as the server uses it: its settings and its secret, opened (never sent to a browser or logged). */
export type LoadedSource = {
  id: number;
  enterpriseId: number;
  name: string;
  enabled: boolean;
  /** The bind password or app secret ('' when none is stored). */
  secret: string;
} & (
  | { type: 'ldap'; config: LdapSourceConfig }
  | { type: 'wecom'; config: WecomSourceConfig }
  | { type: 'dingtalk'; config: DingtalkSourceConfig }
  | { type: 'feishu'; config: FeishuSourceConfig }
  | { type: 'oidc'; config: OidcSourceConfig }
  | { type: 'saml'; config: SamlSourceConfig }
);

/** A person as the directory describes them; usernames are raw (the sync job's prefix comes later). */
export interface DirectoryUser {
  /** Stable across renames and moves: entryUUID (OpenLDAP), objectGUID (AD), the platform's user id. */
  externalId: string;
  username: string;
  name: string;
  phone: string;
  email: string;
  /** LDAP: the entry's DN; '' for the chat platforms. */
  dn: string;
  /** The DN's parent (LDAP) or the department names joined with '、' (chat platforms): a change is a 移动. */
  location: string;
  /** External ids of the groups or departments the user belongs to. */
  groupIds: string[];
  /** False when the directory marks the person disabled or resigned (AD userAccountControl bit 2, …). */
  active: boolean;
}

export interface DirectoryGroup {
  externalId: string;
  name: string;
}

export interface DirectorySnapshot {
  users: DirectoryUser[];
  groups: DirectoryGroup[];
}

/**
 * A source's failure as the user should read it, in Chinese (`无法连接到 10.0.0.8:389（超时）`; a chat
 * platform's error code and message after it). Routes answer it as 400 / a failed run.
 */
export class DirectoryError extends Error {
  override readonly name = 'DirectoryError';
}

/** What every source type offers the console and the sync. */
export interface Directory {
  readonly type: AuthSourceType;
  /** 测试连接: each step with what went wrong when it fails, and a sample of users. */
  test(): Promise<AuthSourceTestResult>;
  /** Every user (and, when asked, every group or department); throws DirectoryError. */
  read(options: { groups: boolean }): Promise<DirectorySnapshot>;
}

/** A user as 测试连接's sample and the previews show them. */
export const toUserView = ({ externalId, username, name, phone, email, location }: DirectoryUser): DirectoryUserView => ({
  externalId,
  username,
  name,
  phone,
  email,
  location,
});
