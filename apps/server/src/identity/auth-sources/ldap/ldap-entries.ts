import type { LdapSourceConfig } from '@portal/shared';
import type { Entry } from 'ldapts';
import type { DirectoryUser } from '../directory.js';
import { parentDn } from './ldap-dn.js';

/**
 * Directory entries as the portal reads them: which attributes to ask for, and how an entry becomes a
 * DirectoryUser (OpenLDAP: entryUUID; Active Directory: objectGUID and userAccountControl).
 */

/** Active Directory when AD 域 is set (the source's settings say so, LdapSourceConfig.adDomain). */
export const isActiveDirectory = (config: LdapSourceConfig) => config.adDomain.trim() !== '';

/** RFC 4530 entryUUID (OpenLDAP and most servers); AD's objectGUID, a 16-byte value. */
export const ENTRY_UUID = 'entryUUID';
export const OBJECT_GUID = 'objectGUID';
/** AD: bit 2 (ACCOUNTDISABLE) of userAccountControl marks a disabled account. */
export const USER_ACCOUNT_CONTROL = 'userAccountControl';
const ACCOUNT_DISABLE = 0x2;

/** The attributes a user search asks for: the mapping's, the stable id and, for AD, the account control. */
export function userAttributes(config: LdapSourceConfig): string[] {
  const { username, name, phone, email } = config.mapping;
  const mapped = [username, name, phone, email].map((a) => a.trim()).filter(Boolean);
  const ad = isActiveDirectory(config) ? [OBJECT_GUID, USER_ACCOUNT_CONTROL] : [];
  return [...new Set([...mapped, ENTRY_UUID, ...ad])];
}

/** Binary attributes (ldapts returns them as Buffers only when asked). */
export const bufferAttributes = (config: LdapSourceConfig) => (isActiveDirectory(config) ? [OBJECT_GUID] : []);

/** An attribute's values, whatever the case the server spelled its name in. */
export function values(entry: Entry, attribute: string): (string | Buffer)[] {
  const wanted = attribute.toLowerCase();
  for (const [key, value] of Object.entries(entry)) {
    if (key === 'dn' || key.toLowerCase() !== wanted) continue;
    return Array.isArray(value) ? value : [value];
  }
  return [];
}

/** An attribute's first value as text ('' when absent or unmapped). */
export function text(entry: Entry, attribute: string): string {
  if (!attribute.trim()) return '';
  const [first] = values(entry, attribute.trim());
  if (first === undefined) return '';
  return (Buffer.isBuffer(first) ? first.toString('utf8') : first).trim();
}

/**
 * AD's objectGUID as Windows writes a GUID: the first three groups are little-endian in the 16 bytes
 * ([MS-DTYP] §2.3.4.2), so the text matches what AD's own tools show.
 */
export function guidToString(bytes: Buffer): string {
  if (bytes.length !== 16) return bytes.toString('hex');
  const hex = (indexes: number[]) => indexes.map((i) => (bytes[i] ?? 0).toString(16).padStart(2, '0')).join('');
  return [hex([3, 2, 1, 0]), hex([5, 4]), hex([7, 6]), hex([8, 9]), hex([10, 11, 12, 13, 14, 15])].join('-');
}

/** The 16 bytes of a GUID written by guidToString, for an objectGUID filter; undefined when it is not one. */
export function guidToBytes(guid: string): Buffer | undefined {
  const hex = guid.replace(/-/g, '');
  if (!/^[0-9a-f]{32}$/i.test(hex)) return undefined;
  const bytes = Buffer.from(hex, 'hex');
  const order = [3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15];
  return Buffer.from(order.map((i) => bytes[i] ?? 0));
}

/** The entry's stable id: objectGUID (AD) or entryUUID, lowercase; '' when the server gave neither. */
export function externalIdOf(entry: Entry): string {
  const [guid] = values(entry, OBJECT_GUID);
  if (Buffer.isBuffer(guid) && guid.length) return guidToString(guid);
  return text(entry, ENTRY_UUID).toLowerCase();
}

/** False when AD marks the account disabled (userAccountControl bit 2). */
export function isActive(entry: Entry): boolean {
  const control = Number.parseInt(text(entry, USER_ACCOUNT_CONTROL), 10);
  return Number.isNaN(control) || (control & ACCOUNT_DISABLE) === 0;
}

/** A user entry as the console and the sync see it. */
export function toDirectoryUser(entry: Entry, config: LdapSourceConfig, groupIds: string[] = []): DirectoryUser {
  const { mapping } = config;
  return {
    externalId: externalIdOf(entry),
    username: text(entry, mapping.username),
    name: text(entry, mapping.name),
    phone: text(entry, mapping.phone),
    email: text(entry, mapping.email),
    dn: entry.dn,
    location: parentDn(entry.dn),
    groupIds,
    active: isActive(entry),
  };
}
