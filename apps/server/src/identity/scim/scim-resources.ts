import { createHash } from 'node:crypto';
import { TenantRules } from '@portal/shared';
import { ScimError, invalidValue } from './scim-errors.js';
import type { ScimGroupRecord, ScimUserRecord } from './scim-repository.js';
import { ENTERPRISE_USER_SCHEMA, GROUP_SCHEMA, USER_SCHEMA } from './scim-schemas.js';

/** A SCIM resource as answered: JSON with its meta. */
export type ScimResource = Record<string, unknown> & { id: string; meta: { version: string } & Record<string, unknown> };

/** The weak version of a representation without its meta (RFC 7644 §3.14): any change of what a client sees changes it. */
function versionOf(body: Record<string, unknown>): string {
  return `W/"${createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 22)}"`;
}

const CJK_NAME = /^[\p{Script=Han}·]+$/u;

/** The full name of a family and a given name: Chinese names without a space, family first; others given first. */
export function composeName(family: string, given: string): string {
  if (!family || !given) return family || given;
  return CJK_NAME.test(family) && CJK_NAME.test(given) ? `${family}${given}` : `${given} ${family}`;
}

/**
 * The parts SCIM was given, while they still belong to the account's name: they make it up, or the name
 * holds each of them (RFC 7643 §4.1.1's formatted name carries titles and middle names, "Ms. Barbara J
 * Jensen III"); else a Chinese name's first character as the family name.
 */
function nameParts(u: ScimUserRecord): { familyName?: string; givenName?: string } {
  const family = u.familyName ?? '';
  const given = u.givenName ?? '';
  const holds = (part: string) => !part || u.name.includes(part);
  if ((family || given) && (composeName(family, given) === u.name || (holds(family) && holds(given)))) {
    return { ...(family ? { familyName: family } : {}), ...(given ? { givenName: given } : {}) };
  }
  if (CJK_NAME.test(u.name) && [...u.name].length >= 2) return { familyName: [...u.name][0]!, givenName: [...u.name].slice(1).join('') };
  return {};
}

export function userResource(u: ScimUserRecord, base: string, manager?: { id: number; name: string }): ScimResource {
  const extension = {
    ...(u.number ? { employeeNumber: u.number } : {}),
    ...(u.department ? { department: u.department } : {}),
    ...(manager ? { manager: { value: String(manager.id), $ref: `${base}/Users/${manager.id}`, displayName: manager.name } } : {}),
  };
  const hasExtension = Object.keys(extension).length > 0;
  const body: Record<string, unknown> = {
    schemas: hasExtension ? [USER_SCHEMA, ENTERPRISE_USER_SCHEMA] : [USER_SCHEMA],
    id: String(u.id),
    ...(u.externalId ? { externalId: u.externalId } : {}),
    userName: u.username,
    name: { formatted: u.name, ...nameParts(u) },
    displayName: u.name,
    active: u.status === 'active',
    emails: u.email ? [{ value: u.email, type: 'work', primary: true }] : [],
    phoneNumbers: [{ value: u.phone, type: 'mobile', primary: true }],
    groups: u.groups.map((g) => ({ value: String(g.id), $ref: `${base}/Groups/${g.id}`, display: g.name })),
    ...(hasExtension ? { [ENTERPRISE_USER_SCHEMA]: extension } : {}),
  };
  return {
    ...body,
    id: String(u.id),
    meta: {
      resourceType: 'User',
      created: new Date(u.createdAt).toISOString(),
      lastModified: new Date(u.updatedAt).toISOString(),
      location: `${base}/Users/${u.id}`,
      version: versionOf(body),
    },
  };
}

export function groupResource(g: ScimGroupRecord, base: string): ScimResource {
  const body: Record<string, unknown> = {
    schemas: [GROUP_SCHEMA],
    id: String(g.id),
    ...(g.externalId ? { externalId: g.externalId } : {}),
    displayName: g.name,
    members: g.members.map((m) => ({ value: String(m.id), $ref: `${base}/Users/${m.id}`, display: m.name, type: 'User' })),
  };
  return {
    ...body,
    id: String(g.id),
    meta: {
      resourceType: 'Group',
      created: new Date(g.createdAt).toISOString(),
      lastModified: new Date(g.updatedAt).toISOString(),
      location: `${base}/Groups/${g.id}`,
      version: versionOf(body),
    },
  };
}

// ----- reading what a client sent

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The value of a key, compared case-insensitively (RFC 7643 §2.1: attribute names are case-insensitive). */
function field(obj: Json, name: string): unknown {
  const key = Object.keys(obj).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : obj[key];
}

/**
 * Refuses keys that are no attribute of the schema; `ignored` are the core schema's attributes the
 * portal does not keep (RFC 7643 §4.1: title, locale…), accepted and dropped as other providers do.
 */
function refuseUnknown(obj: Json, known: readonly string[], where: string): void {
  const allowed = new Set(known.map((k) => k.toLowerCase()));
  for (const key of Object.keys(obj)) {
    if (!allowed.has(key.toLowerCase())) throw invalidValue(`不支持的属性 ${where}${key}`);
  }
}

function text(value: unknown, path: string, max: number): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalidValue(`属性 ${path} 须为字符串`);
  const trimmed = value.trim();
  if ([...trimmed].length > max) throw invalidValue(`属性 ${path} 不能超过 ${max} 个字符`);
  return trimmed;
}

/** Booleans, and the "True"/"False" strings some identity providers send in PATCH. */
function bool(value: unknown, path: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  throw invalidValue(`属性 ${path} 须为 true 或 false`);
}

/** The multi-valued attribute's chosen value: the primary one, else the one of `type`, else the first. */
function chosen(value: unknown, path: string, type: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw invalidValue(`属性 ${path} 须为数组`);
  const entries = value.map((v, i) => {
    if (!isObject(v)) throw invalidValue(`属性 ${path}[${i}] 须为对象`);
    refuseUnknown(v, ['value', 'type', 'primary', 'display'], `${path}.`);
    return {
      value: text(field(v, 'value'), `${path}.value`, 200) ?? '',
      type: text(field(v, 'type'), `${path}.type`, 32) ?? '',
      primary: bool(field(v, 'primary'), `${path}.primary`),
    };
  });
  // The last primary wins: a PATCH that adds a new primary value appends it after the old one (RFC 7643 §2.4: one primary).
  const pick = entries.findLast((e) => e.primary) ?? entries.find((e) => e.type.toLowerCase() === type) ?? entries[0];
  return pick?.value || undefined;
}

/** A mainland mobile number as the portal keeps it: +86, spaces and dashes dropped. */
function mobile(value: string): string {
  return value.replace(/[\s-]/g, '').replace(/^(?:\+86|0086)/, '');
}

const USER_KEYS = [
  'schemas',
  'id',
  'externalId',
  'userName',
  'name',
  'displayName',
  'active',
  'emails',
  'phoneNumbers',
  'groups',
  'meta',
  ENTERPRISE_USER_SCHEMA,
];
export const USER_IGNORED = [
  'nickName',
  'profileUrl',
  'title',
  'userType',
  'preferredLanguage',
  'locale',
  'timezone',
  'addresses',
  'ims',
  'photos',
  'entitlements',
  'roles',
  'x509Certificates',
];

/** An account's fields as a client's User sets them (create and replace; a patch's result too). */
export interface UserInput {
  username: string;
  name: string;
  familyName: string | null;
  givenName: string | null;
  email: string;
  phone: string;
  /** Absent: a create makes the account active, a replace or patch leaves its status as it is. */
  active: boolean | undefined;
  externalId: string | null;
  number: string;
  department: string | null;
  managerId: number | null;
}

function checkSchemas(body: Json, core: string): void {
  const schemas = field(body, 'schemas');
  if (schemas === undefined) return;
  if (!Array.isArray(schemas) || !schemas.every((s) => typeof s === 'string')) throw invalidValue('属性 schemas 须为字符串数组');
  if (!schemas.some((s) => s.toLowerCase() === core.toLowerCase())) throw invalidValue(`属性 schemas 须包含 ${core}`);
}

/**
 * Reads a User. `previousName` is the account's name before a patch: a patch that changed only the
 * name's parts (or only displayName) decides the name by them, one that changed `formatted` by it.
 */
export function readUser(
  raw: unknown,
  previous?: { name: string; formatted?: string; family?: string; given?: string; display?: string },
): UserInput {
  if (!isObject(raw)) throw new ScimError(400, '请求体须为 JSON 对象', 'invalidSyntax');
  checkSchemas(raw, USER_SCHEMA);
  if (field(raw, 'password') !== undefined)
    throw invalidValue('不支持通过 SCIM 设置密码：新账号通过“忘记密码”用手机号设置，或由管理员重置密码');
  refuseUnknown(raw, [...USER_KEYS, ...USER_IGNORED], '');
  const username = text(field(raw, 'userName'), 'userName', 64);
  if (!username) throw invalidValue('缺少必填属性 userName');
  const usernameProblem = TenantRules.username(username);
  if (usernameProblem) throw invalidValue(`userName：${usernameProblem}`);

  const nameObj = field(raw, 'name');
  if (nameObj !== undefined && nameObj !== null && !isObject(nameObj)) throw invalidValue('属性 name 须为对象');
  const nm = isObject(nameObj) ? nameObj : {};
  refuseUnknown(nm, ['formatted', 'familyName', 'givenName', 'middleName', 'honorificPrefix', 'honorificSuffix'], 'name.');
  const formatted = text(field(nm, 'formatted'), 'name.formatted', 64) ?? '';
  const family = text(field(nm, 'familyName'), 'name.familyName', 32) ?? '';
  const given = text(field(nm, 'givenName'), 'name.givenName', 32) ?? '';
  const display = text(field(raw, 'displayName'), 'displayName', 64) ?? '';
  const composed = composeName(family, given);
  let name: string;
  let keepParts = true;
  if (previous) {
    // A patch: what changed decides (formatted is the account's name as it was before).
    const partsChanged = family !== (previous.family ?? '') || given !== (previous.given ?? '');
    if (formatted && formatted !== (previous.formatted ?? '')) {
      name = formatted;
      // The old parts belong to the old name.
      keepParts = partsChanged;
    } else if (partsChanged && composed) name = composed;
    else if (display && display !== (previous.display ?? '')) name = display;
    else name = formatted || composed || display || previous.name;
  } else {
    name = formatted || composed || display || username;
  }
  const nameProblem = TenantRules.personName(name);
  if (nameProblem) throw invalidValue(`name：${nameProblem}`);

  const email = chosen(field(raw, 'emails'), 'emails', 'work') ?? '';
  const emailProblem = TenantRules.email(email);
  if (emailProblem) throw invalidValue(`emails：${emailProblem}`);
  const phone = mobile(chosen(field(raw, 'phoneNumbers'), 'phoneNumbers', 'mobile') ?? '');
  if (!phone) throw invalidValue('phoneNumbers 须包含一个中国大陆手机号（平台的每个账号都需要手机号）');
  const phoneProblem = TenantRules.phone(phone);
  if (phoneProblem) throw invalidValue(`phoneNumbers：${phoneProblem}`);

  const groups = field(raw, 'groups');
  if (groups !== undefined && groups !== null && !Array.isArray(groups)) throw invalidValue('属性 groups 须为数组');

  const ext = field(raw, ENTERPRISE_USER_SCHEMA);
  if (ext !== undefined && ext !== null && !isObject(ext)) throw invalidValue(`属性 ${ENTERPRISE_USER_SCHEMA} 须为对象`);
  const extension = isObject(ext) ? ext : {};
  refuseUnknown(
    extension,
    ['employeeNumber', 'department', 'manager', 'costCenter', 'organization', 'division'],
    `${ENTERPRISE_USER_SCHEMA}:`,
  );
  const managerRaw = field(extension, 'manager');
  let managerId: number | null = null;
  if (managerRaw !== undefined && managerRaw !== null && managerRaw !== '') {
    const value = isObject(managerRaw) ? field(managerRaw, 'value') : managerRaw;
    if (value !== undefined && value !== null && value !== '') {
      if (typeof value !== 'string' || !/^[1-9]\d{0,8}$/.test(value)) throw invalidValue('manager.value 须为本企业用户的 id');
      managerId = Number(value);
    }
  }
  const externalId = text(field(raw, 'externalId'), 'externalId', 255) || null;
  return {
    username,
    name,
    familyName: (keepParts && family) || null,
    givenName: (keepParts && given) || null,
    email,
    phone,
    active: bool(field(raw, 'active'), 'active'),
    externalId,
    number: text(field(extension, 'employeeNumber'), 'employeeNumber', 32) ?? '',
    department: text(field(extension, 'department'), 'department', 128) || null,
    managerId,
  };
}

export interface GroupInput {
  name: string;
  externalId: string | null;
  memberIds: number[];
}

/** Reads a Group: its name and its members (users of the enterprise, by id). */
export function readGroup(raw: unknown): GroupInput {
  if (!isObject(raw)) throw new ScimError(400, '请求体须为 JSON 对象', 'invalidSyntax');
  checkSchemas(raw, GROUP_SCHEMA);
  refuseUnknown(raw, ['schemas', 'id', 'externalId', 'displayName', 'members', 'meta'], '');
  const name = text(field(raw, 'displayName'), 'displayName', 64);
  if (!name) throw invalidValue('缺少必填属性 displayName');
  const nameProblem = TenantRules.groupName(name);
  if (nameProblem) throw invalidValue(`displayName：${nameProblem}`);
  const members = field(raw, 'members') ?? [];
  if (!Array.isArray(members)) throw invalidValue('属性 members 须为数组');
  const memberIds = members.map((m, i) => {
    if (!isObject(m)) throw invalidValue(`属性 members[${i}] 须为对象`);
    refuseUnknown(m, ['value', '$ref', 'display', 'type'], 'members.');
    const type = field(m, 'type');
    if (type !== undefined && type !== null && String(type).toLowerCase() !== 'user')
      throw invalidValue('账号组的成员只能是用户（type 为 User）');
    const value = field(m, 'value');
    if (typeof value !== 'string' || !/^[1-9]\d{0,8}$/.test(value)) throw invalidValue(`members[${i}].value 须为本企业用户的 id`);
    return Number(value);
  });
  return { name, externalId: text(field(raw, 'externalId'), 'externalId', 255) || null, memberIds: [...new Set(memberIds)] };
}
