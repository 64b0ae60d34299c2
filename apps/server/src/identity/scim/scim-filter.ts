import { type Filter, parse } from 'scim2-parse-filter';
import { invalidFilter } from './scim-errors.js';
import { ENTERPRISE_USER_SCHEMA, GROUP_SCHEMA, USER_SCHEMA } from './scim-schemas.js';

/**
 * SCIM filters (RFC 7644 §3.4.2.2): parsed by scim2-parse-filter, then every attribute checked
 * against what the resource type has and evaluated here, since the parser's own tester compares
 * strings case-sensitively and dates as text (RFC 7643 §2.2: caseExact false unless said; dateTime).
 */

type Kind = 'string' | 'exact' | 'boolean' | 'dateTime' | 'complex';

/** The filterable attributes of a resource type by lower-case path. */
export type AttributeKinds = ReadonlyMap<string, Kind>;

const ENTERPRISE = ENTERPRISE_USER_SCHEMA.toLowerCase();

const common: [string, Kind][] = [
  ['id', 'exact'],
  ['externalid', 'exact'],
  ['meta', 'complex'],
  ['meta.created', 'dateTime'],
  ['meta.lastmodified', 'dateTime'],
  ['meta.resourcetype', 'string'],
  ['meta.version', 'exact'],
];

export const USER_ATTRIBUTES: AttributeKinds = new Map<string, Kind>([
  ...common,
  ['username', 'string'],
  ['displayname', 'string'],
  ['active', 'boolean'],
  ['name', 'complex'],
  ['name.formatted', 'string'],
  ['name.familyname', 'string'],
  ['name.givenname', 'string'],
  ['emails', 'complex'],
  ['emails.value', 'string'],
  ['emails.type', 'string'],
  ['emails.primary', 'boolean'],
  ['phonenumbers', 'complex'],
  ['phonenumbers.value', 'string'],
  ['phonenumbers.type', 'string'],
  ['phonenumbers.primary', 'boolean'],
  ['groups', 'complex'],
  ['groups.value', 'exact'],
  ['groups.display', 'string'],
  [`${ENTERPRISE}:employeenumber`, 'string'],
  [`${ENTERPRISE}:department`, 'string'],
  [`${ENTERPRISE}:manager`, 'complex'],
  [`${ENTERPRISE}:manager.value`, 'exact'],
  [`${ENTERPRISE}:manager.displayname`, 'string'],
]);

export const GROUP_ATTRIBUTES: AttributeKinds = new Map<string, Kind>([
  ...common,
  ['displayname', 'string'],
  ['members', 'complex'],
  ['members.value', 'exact'],
  ['members.display', 'string'],
  ['members.type', 'string'],
]);

/** A path in lower case, without its core schema's URN (which any attribute may carry, RFC 7644 §3.10). */
export function canonicalPath(path: string, core: string): string {
  const lower = path.toLowerCase();
  const prefix = `${core.toLowerCase()}:`;
  return lower.startsWith(prefix) ? lower.slice(prefix.length) : lower;
}

const coreOf = (kinds: AttributeKinds) => (kinds === GROUP_ATTRIBUTES ? GROUP_SCHEMA : USER_SCHEMA);

/** Values at a lower-case path of a resource as it is answered (keys compared case-insensitively), multi-valued ones flattened. */
export function valuesAt(resource: unknown, path: string): unknown[] {
  const enterprise = path.startsWith(`${ENTERPRISE}:`);
  const steps = enterprise ? [ENTERPRISE, ...path.slice(ENTERPRISE.length + 1).split('.')] : path.split('.');
  let current: unknown[] = [resource];
  for (const step of steps) {
    const next: unknown[] = [];
    for (const value of current) {
      if (typeof value !== 'object' || value === null) continue;
      const key = Object.keys(value).find((k) => k.toLowerCase() === step);
      if (key === undefined) continue;
      const found = (value as Record<string, unknown>)[key];
      if (Array.isArray(found)) next.push(...(found as unknown[]));
      else if (found !== undefined && found !== null) next.push(found);
    }
    current = next;
  }
  return current;
}

export interface CheckedFilter {
  test(resource: unknown): boolean;
  /**
   * Values the filter requires of an attribute whatever else it says (an `eq` at its top or in a top-level
   * `and`), by lower-case path: what the repository may narrow the read by before the test decides.
   */
  required: ReadonlyMap<string, string>;
  /** The filter as a condition the repository can put in SQL, when every part of it translates (Users only). */
  condition?: UserCondition | undefined;
}

/** The account columns a User filter may compare in SQL. */
export type UserColumn = 'username' | 'name' | 'email' | 'externalId' | 'active' | 'updatedAt' | 'createdAt';

/**
 * A User filter the database evaluates exactly as the evaluator here would: strings compared in lower
 * case (eq, sw, co, ew), externalId exactly (eq), active, and the meta times as ISO instants.
 */
export type UserCondition =
  | { op: 'and' | 'or'; parts: UserCondition[] }
  | { column: UserColumn; cmp: 'eq' | 'sw' | 'co' | 'ew' | 'gt' | 'ge' | 'lt' | 'le'; value: string | boolean };

const STRING_COLUMNS: Record<string, UserColumn> = {
  username: 'username',
  displayname: 'name',
  'name.formatted': 'name',
  'emails.value': 'email',
};

/**
 * The SQL form of a checked User filter, or undefined when a part does not translate (not, ne, pr,
 * value filters, other attributes). Strings are translated only when SQL's lower() folds them as
 * JavaScript does (no cased letter outside ASCII), so both answer the same.
 */
function userCondition(filter: Filter): UserCondition | undefined {
  switch (filter.op) {
    case 'and':
    case 'or': {
      const parts = filter.filters.map(userCondition);
      return parts.every((p): p is UserCondition => p !== undefined) ? { op: filter.op, parts } : undefined;
    }
    case 'not':
    case '[]':
    case 'pr':
      return undefined;
    default: {
      const path = valuePath(canonicalPath(filter.attrPath, USER_SCHEMA), USER_ATTRIBUTES);
      const { op, compValue } = filter;
      if (path === 'active' && op === 'eq' && typeof compValue === 'boolean') return { column: 'active', cmp: 'eq', value: compValue };
      if (path === 'externalid' && op === 'eq' && typeof compValue === 'string')
        return { column: 'externalId', cmp: 'eq', value: compValue };
      if ((path === 'meta.lastmodified' || path === 'meta.created') && typeof compValue === 'string') {
        if (op !== 'eq' && op !== 'gt' && op !== 'ge' && op !== 'lt' && op !== 'le') return undefined;
        const at = Date.parse(compValue);
        if (Number.isNaN(at)) return undefined;
        return { column: path === 'meta.created' ? 'createdAt' : 'updatedAt', cmp: op, value: new Date(at).toISOString() };
      }
      const column = STRING_COLUMNS[path];
      if (column && typeof compValue === 'string' && (op === 'eq' || op === 'sw' || op === 'co' || op === 'ew')) {
        // eslint-disable-next-line no-control-regex
        const foldsLikeSql = [...compValue.replace(/[\x00-\x7f]/g, '')].every((ch) => ch.toLowerCase() === ch.toUpperCase());
        return foldsLikeSql ? { column, cmp: op, value: compValue.toLowerCase() } : undefined;
      }
      return undefined;
    }
  }
}

function requiredValues(filter: Filter, core: string): Map<string, string> {
  const found = new Map<string, string>();
  const visit = (f: Filter) => {
    if (f.op === 'and') f.filters.forEach(visit);
    else if (f.op === 'eq' && typeof f.compValue === 'string') found.set(canonicalPath(f.attrPath, core), f.compValue);
  };
  visit(filter);
  return found;
}

function kindOf(kinds: AttributeKinds, path: string): Kind {
  const kind = kinds.get(path);
  if (!kind) throw invalidFilter(`不支持按属性 ${path} 过滤`);
  return kind;
}

function compare(kind: Kind, op: string, actual: unknown, expected: boolean | null | number | string, path: string): boolean {
  if (expected === null) return op === 'eq' ? actual === undefined : op === 'ne' ? actual !== undefined : false;
  if (kind === 'complex') throw invalidFilter(`属性 ${path} 是复合属性，请指定其子属性`);
  if (kind === 'boolean') {
    if (op !== 'eq' && op !== 'ne') throw invalidFilter(`布尔属性 ${path} 只能用 eq 或 ne 比较`);
    if (typeof expected !== 'boolean') throw invalidFilter(`属性 ${path} 须与 true 或 false 比较`);
    return op === 'eq' ? actual === expected : actual !== expected;
  }
  if (kind === 'dateTime') {
    const want = typeof expected === 'string' ? Date.parse(expected) : NaN;
    if (Number.isNaN(want)) throw invalidFilter(`属性 ${path} 须与日期时间（如 2026-01-01T00:00:00Z）比较`);
    const have = typeof actual === 'string' ? Date.parse(actual) : NaN;
    if (Number.isNaN(have)) return op === 'ne';
    switch (op) {
      case 'eq':
        return have === want;
      case 'ne':
        return have !== want;
      case 'gt':
        return have > want;
      case 'ge':
        return have >= want;
      case 'lt':
        return have < want;
      case 'le':
        return have <= want;
      default:
        throw invalidFilter(`日期时间属性 ${path} 不支持 ${op} 比较`);
    }
  }
  const fold = (v: string) => (kind === 'exact' ? v : v.toLowerCase());
  const have =
    typeof actual === 'string' ? fold(actual) : typeof actual === 'number' || typeof actual === 'boolean' ? String(actual) : undefined;
  const want = fold(String(expected));
  if (have === undefined) return op === 'ne';
  switch (op) {
    case 'eq':
      return have === want;
    case 'ne':
      return have !== want;
    case 'co':
      return have.includes(want);
    case 'sw':
      return have.startsWith(want);
    case 'ew':
      return have.endsWith(want);
    case 'gt':
      return have > want;
    case 'ge':
      return have >= want;
    case 'lt':
      return have < want;
    case 'le':
      return have <= want;
    default:
      throw invalidFilter(`不支持的比较运算 ${op}`);
  }
}

/**
 * A multi-valued attribute compared as a whole compares its `value` (RFC 7644 §3.4.2.2's example
 * `emails co "example.com"`, and members or groups by id); other paths as they are.
 */
function valuePath(path: string, kinds: AttributeKinds): string {
  return kinds.get(path) === 'complex' && kinds.has(`${path}.value`) ? `${path}.value` : path;
}

/** Builds the test of a parsed filter, checking every attribute first (so an unknown one fails even when no resource exists). */
function build(filter: Filter, kinds: AttributeKinds, prefix: string): (resource: unknown) => boolean {
  const core = coreOf(kinds);
  const full = (attrPath: string) => `${prefix}${canonicalPath(attrPath, core)}`;
  switch (filter.op) {
    case 'and':
    case 'or': {
      const parts = filter.filters.map((f) => build(f, kinds, prefix));
      return filter.op === 'and' ? (r) => parts.every((p) => p(r)) : (r) => parts.some((p) => p(r));
    }
    case 'not': {
      const inner = build(filter.filter, kinds, prefix);
      return (r) => !inner(r);
    }
    case '[]': {
      const path = full(filter.attrPath);
      if (kindOf(kinds, path) !== 'complex') throw invalidFilter(`属性 ${path} 不是复合属性，不能使用 [ ] 过滤`);
      const inner = build(filter.valFilter, kinds, `${path}.`);
      const relative = path.slice(prefix.length);
      return (r) => valuesAt(r, relative).some((element) => inner(element));
    }
    case 'pr': {
      const path = full(filter.attrPath);
      kindOf(kinds, path);
      const relative = path.slice(prefix.length);
      return (r) => valuesAt(r, relative).some((v) => v !== '' && !(Array.isArray(v) && v.length === 0));
    }
    default: {
      const path = valuePath(full(filter.attrPath), kinds);
      const kind = kindOf(kinds, path);
      const relative = path.slice(prefix.length);
      const { op, compValue } = filter;
      // Checked once against nothing, so a wrong comparison is refused even when no resource exists.
      compare(kind, op, undefined, compValue, path);
      return (r) => {
        const values = valuesAt(r, relative);
        if (op === 'ne') return values.length === 0 || values.every((v) => compare(kind, op, v, compValue, path));
        return values.some((v) => compare(kind, op, v, compValue, path));
      };
    }
  }
}

/** The filter of a list: 400 invalidFilter for syntax, unknown attributes and impossible comparisons. */
export function checkedFilter(text: string, kinds: AttributeKinds): CheckedFilter {
  if (text.length > 2000) throw invalidFilter('过滤条件过长');
  let parsed: Filter;
  try {
    parsed = parse(text);
  } catch {
    throw invalidFilter('过滤条件格式不正确，示例：userName eq "zhangsan"');
  }
  return {
    test: build(parsed, kinds, ''),
    required: requiredValues(parsed, coreOf(kinds)),
    condition: kinds === USER_ATTRIBUTES ? userCondition(parsed) : undefined,
  };
}

/** A path of sortBy or a PATCH operation's attribute, canonical, when the resource type has it. */
export function knownPath(path: string, kinds: AttributeKinds): string | undefined {
  const canonical = canonicalPath(path, coreOf(kinds));
  return kinds.has(canonical) ? canonical : undefined;
}
