import { type ScimResource as PatchTarget, type ScimPatchOperation, scimPatch } from 'scim-patch';
import { parse } from 'scim2-parse-filter';
import { ScimError, invalidPath, invalidValue } from './scim-errors.js';
import { type AttributeKinds, GROUP_ATTRIBUTES, canonicalPath, checkedFilter, knownPath } from './scim-filter.js';
import type { ScimResource } from './scim-resources.js';
import { USER_IGNORED } from './scim-resources.js';
import { ENTERPRISE_USER_SCHEMA, GROUP_SCHEMA, PATCH_SCHEMA, USER_SCHEMA } from './scim-schemas.js';

/** Operations one PATCH may carry. */
const MAX_OPERATIONS = 100;
const ENTERPRISE = ENTERPRISE_USER_SCHEMA.toLowerCase();

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const syntax = (detail: string) => new ScimError(400, detail, 'invalidSyntax');

/** Paths a client may not change (RFC 7643 §3.1, §4.1.2: groups of a User are read-only). */
function readOnly(path: string, kinds: AttributeKinds): boolean {
  const top = path.split(/[.[]/)[0] ?? '';
  return top === 'id' || top === 'meta' || (kinds !== GROUP_ATTRIBUTES && top === 'groups');
}

/** One of the core User schema's attributes the portal does not keep. */
function ignoredAttribute(attribute: string, kinds: AttributeKinds): boolean {
  return kinds !== GROUP_ATTRIBUTES && USER_IGNORED.some((a) => a.toLowerCase() === attribute.toLowerCase());
}

/** A filter's string literal (RFC 7644 §3.4.2.2: JSON string). */
const literal = (value: string) => JSON.stringify(value);

/** A PATCH path checked against the resource type (RFC 7644 §3.5.2: invalidPath), in the form scim-patch reads. */
function checkedPath(raw: string, kinds: AttributeKinds): string {
  if (raw.length > 500) throw invalidPath('path 过长');
  const core = kinds === GROUP_ATTRIBUTES ? GROUP_SCHEMA : USER_SCHEMA;
  const path = raw.toLowerCase().startsWith(`${core.toLowerCase()}:`) ? raw.slice(core.length + 1) : raw;
  const bracket = /^([^[\]]+)\[(.+)\](?:\.([A-Za-z$][\w$]*))?$/.exec(path);
  let canonical: string;
  if (bracket) {
    const [, attribute = '', inner = '', sub] = bracket;
    if (ignoredAttribute(attribute, kinds)) {
      // An attribute the portal does not keep (Entra ID sends addresses[type eq "work"].formatted): accepted, then dropped.
      try {
        parse(inner);
      } catch {
        throw invalidPath(`path ${raw} 格式不正确`);
      }
      return path;
    }
    try {
      checkedFilter(`${attribute}[${inner}]`, kinds);
    } catch (err) {
      throw invalidPath(`path ${raw} 不正确：${(err as Error).message}`);
    }
    canonical = canonicalPath(attribute, core) + (sub ? `.${sub.toLowerCase()}` : '');
    if (sub && !knownPath(canonical, kinds)) throw invalidPath(`不支持的属性路径 ${raw}`);
  } else {
    if (/[[\]]/.test(path)) throw invalidPath(`path ${raw} 格式不正确`);
    const known = knownPath(path, kinds);
    const ignored = ignoredAttribute(path.split('.')[0] ?? '', kinds);
    const extension = path.toLowerCase() === ENTERPRISE;
    if (!known && !ignored && !extension) throw invalidPath(`不支持的属性路径 ${raw}`);
    canonical = known ?? path.toLowerCase();
  }
  if (readOnly(canonical, kinds)) throw new ScimError(400, `属性 ${raw} 为只读，不能修改`, 'mutability');
  return path;
}

/** The enterprise extension named as a whole (as a path or a key of a value) becomes one operation per attribute, which scim-patch handles. */
function expanded(op: 'add' | 'replace', path: string | undefined, value: unknown): ScimPatchOperation[] {
  if (path !== undefined && path.toLowerCase() === ENTERPRISE) {
    if (!isObject(value)) throw invalidValue(`${ENTERPRISE_USER_SCHEMA} 的值须为对象`);
    return Object.entries(value).map(([k, v]) => ({ op, path: `${ENTERPRISE_USER_SCHEMA}:${k}`, value: v as unknown }));
  }
  if (path !== undefined) return [{ op, path, value }];
  if (!isObject(value)) throw invalidValue('未指定 path 的 add 或 replace 操作，其 value 须为对象');
  const rest: Json = {};
  const out: ScimPatchOperation[] = [];
  for (const [k, v] of Object.entries(value)) {
    if (k.toLowerCase() === ENTERPRISE) out.push(...expanded(op, ENTERPRISE_USER_SCHEMA, v));
    else rest[k] = v;
  }
  return Object.keys(rest).length ? [{ op, value: rest }, ...out] : out;
}

/** scim-patch's refusals in SCIM's terms, in Chinese (its own text is English). */
function refusal(err: unknown): ScimError {
  const name = (err as Error).constructor.name;
  switch (name) {
    case 'NoPathInScimPatchOp':
      return new ScimError(400, 'remove 操作须指定 path', 'noTarget');
    case 'NoTarget':
    case 'FilterOnEmptyArray':
    case 'FilterArrayTargetNotFound':
      return new ScimError(400, 'path 指向的值不存在', 'noTarget');
    case 'InvalidScimPatchOp':
    case 'InvalidRemoveOpPath':
      return invalidPath('path 不正确');
    case 'RemoveValueNestedArrayNotSupported':
    case 'RemoveValueNotArray':
      return invalidValue('remove 操作的 value 不正确');
    default:
      return syntax('PATCH 请求格式不正确');
  }
}

/**
 * A PatchOp (RFC 7644 §3.5.2) applied to the resource as answered, by scim-patch, after every
 * operation and path was checked here: the result is then read and written like a PUT, so a patch
 * can produce nothing a replace could not.
 */
export function patched(resource: ScimResource, body: unknown, kinds: AttributeKinds): Json {
  if (!isObject(body)) throw syntax('请求体须为 JSON 对象');
  const schemas = Object.entries(body).find(([k]) => k.toLowerCase() === 'schemas')?.[1];
  if (!Array.isArray(schemas) || !schemas.includes(PATCH_SCHEMA)) throw syntax(`PATCH 请求的 schemas 须为 ${PATCH_SCHEMA}`);
  const operations = Object.entries(body).find(([k]) => k.toLowerCase() === 'operations')?.[1];
  if (!Array.isArray(operations) || operations.length === 0) throw syntax('PATCH 请求须包含至少一个 Operations');
  if (operations.length > MAX_OPERATIONS) throw syntax(`一次 PATCH 最多 ${MAX_OPERATIONS} 个操作`);
  const ops: ScimPatchOperation[] = [];
  for (const raw of operations) {
    if (!isObject(raw)) throw syntax('Operations 的每一项须为对象');
    const get = (key: string) => Object.entries(raw).find(([k]) => k.toLowerCase() === key)?.[1];
    const op = get('op');
    const path = get('path');
    const value = get('value');
    if (typeof op !== 'string' || !/^(add|remove|replace)$/i.test(op)) throw syntax('op 须为 add、remove 或 replace');
    if (path !== undefined && typeof path !== 'string') throw invalidPath('path 须为字符串');
    const kind = op.toLowerCase() as 'add' | 'remove' | 'replace';
    const checked = path === undefined ? undefined : checkedPath(path, kinds);
    if (kind === 'remove') {
      if (checked === undefined) throw new ScimError(400, 'remove 操作须指定 path', 'noTarget');
      // Entra ID removes members by value ({ path: "members", value: [{ value: "…" }] }): one remove by filter each,
      // since the elements as answered carry more than the value (display, $ref), so whole-element equality finds none.
      if (Array.isArray(value) && !checked.includes('[') && value.every((v) => isObject(v) && typeof v.value === 'string')) {
        for (const v of value as { value: string }[]) ops.push({ op: 'remove', path: `${checked}[value eq ${literal(v.value)}]` });
        continue;
      }
      ops.push({ op: 'remove', path: checked, ...(value === undefined ? {} : { value: value as unknown }) });
      continue;
    }
    if (value === undefined) throw invalidValue(`${kind} 操作须包含 value`);
    if (checked === undefined && isObject(value)) {
      // Keys of a value without a path are attribute names (possibly dotted or with the extension's URN).
      for (const key of Object.keys(value)) if (key.toLowerCase() !== ENTERPRISE) checkedPath(key, kinds);
    }
    ops.push(...expanded(kind, checked, value));
  }
  try {
    return scimPatch(structuredClone(resource) as unknown as PatchTarget, ops, { treatMissingAsAdd: true }) as unknown as Json;
  } catch (err) {
    if (err instanceof ScimError) throw err;
    throw refusal(err);
  }
}

const MEMBER_ID = /^[1-9]\d{0,8}$/;
const MEMBER_KEYS = new Set(['value', '$ref', 'display', 'type']);
const MEMBERS_PATH = new Set(['members', `${GROUP_SCHEMA.toLowerCase()}:members`]);
const MEMBER_FILTER = /^members\[\s*value\s+eq\s+"([1-9]\d{0,8})"\s*\]$/i;

/** The ids of a members value, or undefined when it is not a plain list of users by id (the full patch then judges it). */
function memberIds(value: unknown): number[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const ids: number[] = [];
  for (const m of value) {
    if (!isObject(m) || !Object.keys(m).every((k) => MEMBER_KEYS.has(k.toLowerCase()))) return undefined;
    const entry = Object.fromEntries(Object.entries(m).map(([k, v]) => [k.toLowerCase(), v]));
    if (entry.type !== undefined && entry.type !== null && String(entry.type).toLowerCase() !== 'user') return undefined;
    if (typeof entry.value !== 'string' || !MEMBER_ID.test(entry.value)) return undefined;
    ids.push(Number(entry.value));
  }
  return ids;
}

/**
 * A Group PatchOp that only adds and removes members by id (Entra ID's and Okta's form: `add` with path
 * `members`, `remove` with `members[value eq "…"]` or with path `members` and the values), as deltas; undefined
 * for any other patch. Removing a user who is no member changes nothing, as adding one who is does.
 */
export function memberDelta(body: unknown): { add: number[]; remove: number[] } | undefined {
  if (!isObject(body)) return undefined;
  const schemas = Object.entries(body).find(([k]) => k.toLowerCase() === 'schemas')?.[1];
  if (!Array.isArray(schemas) || !schemas.includes(PATCH_SCHEMA)) return undefined;
  const operations = Object.entries(body).find(([k]) => k.toLowerCase() === 'operations')?.[1];
  if (!Array.isArray(operations) || operations.length === 0 || operations.length > MAX_OPERATIONS) return undefined;
  const last = new Map<number, boolean>();
  for (const raw of operations) {
    if (!isObject(raw)) return undefined;
    const get = (key: string) => Object.entries(raw).find(([k]) => k.toLowerCase() === key)?.[1];
    const op = get('op');
    const path = get('path');
    const value = get('value');
    if (typeof op !== 'string' || (path !== undefined && typeof path !== 'string')) return undefined;
    const kind = op.toLowerCase();
    const onMembers = typeof path === 'string' && MEMBERS_PATH.has(path.toLowerCase());
    let ids: number[] | undefined;
    if (kind === 'add' && onMembers) ids = memberIds(value);
    else if (kind === 'add' && path === undefined && isObject(value) && Object.keys(value).every((k) => k.toLowerCase() === 'members')) {
      ids = memberIds(Object.values(value)[0]);
    } else if (kind === 'remove' && onMembers && value !== undefined) ids = memberIds(value);
    else if (kind === 'remove' && typeof path === 'string' && value === undefined) {
      const found = MEMBER_FILTER.exec(path.trim());
      ids = found ? [Number(found[1])] : undefined;
    }
    if (!ids) return undefined;
    // Operations apply in order: the last one for a user decides.
    for (const id of ids) last.set(id, kind === 'add');
  }
  const entries = [...last];
  return { add: entries.filter(([, joins]) => joins).map(([id]) => id), remove: entries.filter(([, joins]) => !joins).map(([id]) => id) };
}
