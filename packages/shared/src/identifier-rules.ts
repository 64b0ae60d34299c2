import { HandleIndex, type TemplateItem } from './identifiers.js';

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

/** Why a (non-empty, trimmed) value of `item` is refused, or undefined. */
export function valueProblem(item: Pick<TemplateItem, 'name' | 'metadata'>, value: string): string | undefined {
  const length = textLength(value);
  const { minLength, maxLength } = item.metadata;
  if (hasControlCharacter(value)) return `“${item.name}”不能包含控制字符`;
  if (length < Math.max(minLength, 1) || length > maxLength) {
    return minLength > 1 ? `“${item.name}”长度应为 ${minLength}–${maxLength} 个字符` : `“${item.name}”最长 ${maxLength} 个字符`;
  }
  return undefined;
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
