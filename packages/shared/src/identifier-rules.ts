import { HandleIndex, type TemplateItem, type TemplateItemMetadata } from './identifiers.js';

/**
 * The rules of identifier management that the console checks before sending and the server checks
 * again: the same functions and messages on both sides.
 */

/** Most items a template may have. */
export const MAX_TEMPLATE_ITEMS = 50;
/** Longest item name (characters). */
export const MAX_ITEM_NAME = 32;
/** Longest value of one item (a Handle value may be larger; a label's text is not). */
export const MAX_VALUE_LENGTH = 2000;
/** An item's idType: the Handle value type, an English key. */
export const ID_TYPE_PATTERN = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

/** C0 and C1 control characters and DEL: never part of an identifier or a value. */
export function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return true;
  }
  return false;
}

/** Characters (code points), as a person counts them. */
export function textLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** Types the Handle System gives a meaning of its own (HS_ADMIN, HS_SITE…) and the template's own value. */
export function isReservedIdType(idType: string): boolean {
  const upper = idType.toUpperCase();
  return upper.startsWith('HS_') || upper === 'TEMPLATE';
}

/**
 * The Handle index of each item: its own when given, else the one the same idType had in an earlier
 * version (a value keeps its index across versions), else the next free one after every index in use,
 * from 2000 (protocols: IDIS).
 */
export function assignItemIndexes(
  items: readonly { idType: string; idIndex?: number | undefined }[],
  earlier: readonly { idType: string; idIndex: number }[] = [],
): number[] {
  const taken = new Set(items.flatMap((item) => (item.idIndex === undefined ? [] : [item.idIndex])));
  const earlierIndex = new Map(earlier.map((item) => [item.idType.toLowerCase(), item.idIndex]));
  let next = Math.max(HandleIndex.FirstItem - 1, ...earlier.map((item) => item.idIndex), ...taken);
  return items.map((item) => {
    if (item.idIndex !== undefined) return item.idIndex;
    const kept = earlierIndex.get(item.idType.toLowerCase());
    if (kept !== undefined && !taken.has(kept)) {
      taken.add(kept);
      return kept;
    }
    do next++;
    while (taken.has(next));
    taken.add(next);
    return next;
  });
}

/** The message for a required item left empty. */
export const requiredValueMessage = (item: Pick<TemplateItem, 'name'>) => `“${item.name}”为必填项`;

/** Most options of an enumeration item, and the longest option (characters). */
export const MAX_ENUM_OPTIONS = 100;
export const MAX_ENUM_OPTION_LENGTH = 32;
/** Longest text of a number value. */
export const MAX_NUMBER_LENGTH = 32;

/** A decimal as people write it: an optional minus, digits, an optional fraction (no exponent, no grouping). */
const DECIMAL = /^-?\d+(\.\d+)?$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `text` is a calendar date written `YYYY-MM-DD` (proleptic Gregorian, years 0001–9999). */
export function isCalendarDate(text: string): boolean {
  const m = ISO_DATE.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
  return day <= days;
}

/** Whether `text` is a decimal number this node accepts as a value. */
export const isDecimal = (text: string) => text.length <= MAX_NUMBER_LENGTH && DECIMAL.test(text);

/** `0–100`, `不小于 0`, `不大于 100`, or '' without bounds: the range of a number item. */
export function numberRangeText(metadata: { min?: number | undefined; max?: number | undefined }): string {
  const { min, max } = metadata;
  if (min !== undefined && max !== undefined) return `${min}–${max}`;
  if (min !== undefined) return `不小于 ${min}`;
  if (max !== undefined) return `不大于 ${max}`;
  return '';
}

/** How many options a refusal names before "等 N 项". */
const OPTIONS_NAMED = 8;

/** Why a (non-empty, trimmed) value of `item` is refused, or undefined: the one rule of every write path. */
export function valueProblem(item: Pick<TemplateItem, 'name' | 'metadata'>, value: string): string | undefined {
  const name = `“${item.name}”`;
  if (hasControlCharacter(value)) return `${name}不能包含控制字符`;
  const metadata = item.metadata;
  switch (metadata.type) {
    case 'date':
      return isCalendarDate(value) ? undefined : `${name}应为有效日期，格式 YYYY-MM-DD，如 2025-04-01`;
    case 'number': {
      if (!isDecimal(value)) return `${name}应为数字，如 12 或 3.5`;
      const n = Number(value);
      const { min, max } = metadata;
      if ((min !== undefined && n < min) || (max !== undefined && n > max)) {
        return min !== undefined && max !== undefined
          ? `${name}应在 ${min}–${max} 之间`
          : min !== undefined
            ? `${name}不能小于 ${min}`
            : `${name}不能大于 ${max}`;
      }
      return undefined;
    }
    case 'enum': {
      if (metadata.options.includes(value)) return undefined;
      const named = metadata.options.slice(0, OPTIONS_NAMED).join('、');
      const more = metadata.options.length > OPTIONS_NAMED ? ` 等 ${metadata.options.length} 项` : '';
      return `${name}应为可选值之一：${named}${more}`;
    }
    default: {
      const length = textLength(value);
      const { minLength, maxLength } = metadata;
      if (length < Math.max(minLength, 1) || length > maxLength) {
        return minLength > 1 ? `${name}长度应为 ${minLength}–${maxLength} 个字符` : `${name}最长 ${maxLength} 个字符`;
      }
      return undefined;
    }
  }
}

/** Why an enumeration's options are refused, or undefined (the template form names the option). */
export function enumOptionsProblem(options: readonly string[]): string | undefined {
  if (options.length === 0) return '可选值至少需要一个';
  if (options.length > MAX_ENUM_OPTIONS) return `可选值最多 ${MAX_ENUM_OPTIONS} 个`;
  const seen = new Set<string>();
  for (const option of options) {
    if (!option.trim()) return '可选值不能为空';
    if (option !== option.trim()) return `可选值“${option.trim()}”前后不能有空格`;
    if (textLength(option) > MAX_ENUM_OPTION_LENGTH || hasControlCharacter(option))
      return `可选值最长 ${MAX_ENUM_OPTION_LENGTH} 个字符，且不能包含控制字符`;
    if (seen.has(option)) return `可选值“${option}”重复`;
    seen.add(option);
  }
  return undefined;
}

/**
 * Why an item's metadata is refused, or undefined: the phrase after `数据项“名称”的` (server) or
 * beside the field (template form).
 */
export function metadataProblem(metadata: TemplateItemMetadata): string | undefined {
  switch (metadata.type) {
    case 'string': {
      const { minLength, maxLength } = metadata;
      if (!Number.isInteger(minLength) || minLength < 0 || !Number.isInteger(maxLength) || maxLength < 1 || maxLength > MAX_VALUE_LENGTH)
        return `长度限制须在 0–${MAX_VALUE_LENGTH} 之间`;
      if (minLength > maxLength) return '最小长度不能大于最大长度';
      return undefined;
    }
    case 'number': {
      const { min, max } = metadata;
      if ((min !== undefined && !Number.isFinite(min)) || (max !== undefined && !Number.isFinite(max))) return '最小值和最大值须为数字';
      if (min !== undefined && max !== undefined && min > max) return '最小值不能大于最大值';
      return undefined;
    }
    case 'enum':
      return enumOptionsProblem(metadata.options);
    case 'date':
      return undefined;
    default:
      return '值类型不正确';
  }
}

/** Prefixes this node registers: numeric labels as IDIS assigns them (88.118.8). */
export const REGISTERED_PREFIX = /^\d{1,10}(\.\d{1,10}){1,7}$/;
export const REGISTERED_PREFIX_MESSAGE = '标识前缀格式不正确：应为以点分隔的数字，如 88.118.8';

export const MAX_SUFFIX_LENGTH = 128;
/** Suffixes of records created here: characters that need no escaping in a URL or a CSV file. */
const NEW_SUFFIX = /^[A-Za-z0-9][A-Za-z0-9._:()/-]*$/;
export const NEW_SUFFIX_MESSAGE = `标识后缀只能包含字母、数字和 - _ . : / ( )，以字母或数字开头，最长 ${MAX_SUFFIX_LENGTH} 个字符`;

/** A new record's suffix, or the reason it is refused. */
export function checkNewSuffix(suffix: string): string | undefined {
  if (!suffix) return '标识后缀不能为空';
  if (suffix.length > MAX_SUFFIX_LENGTH || !NEW_SUFFIX.test(suffix) || suffix.includes('//')) return NEW_SUFFIX_MESSAGE;
  if (suffix.split('/').some((segment) => segment === '.' || segment === '..' || segment === ''))
    return '标识后缀格式不正确：不能含有“.”或“..”路径段';
  return undefined;
}
