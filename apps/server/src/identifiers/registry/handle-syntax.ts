import { MAX_HANDLE_LENGTH, hasControlCharacter } from '@portal/shared';

export interface ParsedHandle {
  handle: string;
  prefix: string;
  suffix: string;
}

export type HandleParse = ({ ok: true } & ParsedHandle) | { ok: false; message: string };

export const EXAMPLE_HANDLE = '88.118.8/EX-2024-000123';

/** A Handle prefix: dot-separated labels (88.118.8, 20.500.12345, 0.NA). */
const PREFIX = /^[0-9A-Za-z]+(\.[0-9A-Za-z]+)*$/;

/**
 * Checks an identifier `<prefix>/<suffix>` (protocols: Handle System) and splits it at the first
 * slash. Every refusal is one Chinese sentence the portal shows as it is.
 */
export function parseHandle(input: string): HandleParse {
  if (input === '') return { ok: false, message: '请输入标识' };
  if (input.length > MAX_HANDLE_LENGTH) return { ok: false, message: `标识过长：最多 ${MAX_HANDLE_LENGTH} 个字符` };
  if (hasControlCharacter(input)) return { ok: false, message: '标识不能包含控制字符' };
  const slash = input.indexOf('/');
  if (slash < 0) return { ok: false, message: `标识格式不正确：应为“前缀/后缀”，如 ${EXAMPLE_HANDLE}` };
  const prefix = input.slice(0, slash);
  const suffix = input.slice(slash + 1);
  if (!prefix) return { ok: false, message: '标识前缀不能为空' };
  if (!suffix) return { ok: false, message: '标识后缀不能为空' };
  if (!PREFIX.test(prefix)) return { ok: false, message: '标识前缀格式不正确：应为以点分隔的数字或字母，如 88.118.8' };
  // "." and ".." segments would change the path of the upstream resolver's URL.
  if (suffix.split('/').some((segment) => segment === '.' || segment === '..')) {
    return { ok: false, message: '标识后缀格式不正确：不能含有“.”或“..”路径段' };
  }
  return { ok: true, handle: input, prefix, suffix };
}

/**
 * The prefix a handle that did not parse names, when one can be read (`88.118.8/` or a suffix with
 * control characters): the failed lookup then counts for that prefix's owner; else ''.
 */
export function readablePrefix(input: string): string {
  const slash = input.indexOf('/');
  const prefix = slash > 0 ? input.slice(0, slash) : '';
  return PREFIX.test(prefix) ? prefix : '';
}
