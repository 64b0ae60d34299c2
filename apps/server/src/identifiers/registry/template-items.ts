import {
  HandleIndex,
  assignItemIndexes,
  ID_TYPE_PATTERN,
  type ItemValueType,
  MAX_ITEM_NAME,
  MAX_TEMPLATE_ITEMS,
  type TemplateItem,
  type TemplateItemInput,
  type TemplateItemMetadata,
  hasControlCharacter,
  isReservedIdType,
  metadataProblem,
  requiredValueMessage,
  textLength,
  valueProblem,
} from '@portal/shared';
import { BadRequestError } from '../../platform/lib/errors.js';

const MAX_INDEX = 2_147_483_647;

/** A stored item value: Handle index, type (the item's idType) and the text. */
export type ItemValue = [index: number, type: string, value: string];

/** Item metadata as the console sends it: the settings of every type optional, the type's own checked here. */
export interface MetadataInput {
  type: ItemValueType;
  minLength?: number | undefined;
  maxLength?: number | undefined;
  min?: number | undefined;
  max?: number | undefined;
  options?: readonly string[] | undefined;
}

export type ItemInput = Omit<TemplateItemInput, 'metadata'> & { metadata: MetadataInput };

/** The metadata of `input`'s type with that type's settings only (options trimmed). */
function typedMetadata(input: MetadataInput): TemplateItemMetadata {
  switch (input.type) {
    case 'date':
      return { type: 'date' };
    case 'number':
      return {
        type: 'number',
        ...(input.min !== undefined ? { min: input.min } : {}),
        ...(input.max !== undefined ? { max: input.max } : {}),
      };
    case 'enum':
      return { type: 'enum', options: (input.options ?? []).map((option) => option.trim()) };
    default:
      // Key order as stored since the first version, so an unchanged item compares equal.
      return { type: 'string', minLength: input.minLength ?? Number.NaN, maxLength: input.maxLength ?? Number.NaN };
  }
}

/**
 * Checks a template's items and completes them: trimmed names, a stable `idIndex` (the one the same
 * idType had in an earlier version, else the next free index from 2000, protocols: IDIS), state 1,
 * metadata of the item's value type and 计入统计 kept only when ticked.
 */
export function normaliseItems(input: readonly ItemInput[], earlier: readonly TemplateItem[] = []): TemplateItem[] {
  if (input.length === 0) throw new BadRequestError('模板至少需要一个数据项');
  if (input.length > MAX_TEMPLATE_ITEMS) throw new BadRequestError(`模板最多 ${MAX_TEMPLATE_ITEMS} 个数据项`);
  const names = new Set<string>();
  const types = new Set<string>();
  const taken = new Set<number>();
  const items = input.map((raw, i) => {
    const name = raw.name.trim();
    const idType = raw.idType.trim();
    if (!name) throw new BadRequestError(`第 ${i + 1} 个数据项：请输入名称`);
    if (textLength(name) > MAX_ITEM_NAME || hasControlCharacter(name))
      throw new BadRequestError(`第 ${i + 1} 个数据项：名称最长 ${MAX_ITEM_NAME} 个字符，且不能包含控制字符`);
    if (names.has(name)) throw new BadRequestError(`数据项名称“${name}”重复`);
    names.add(name);
    if (!ID_TYPE_PATTERN.test(idType))
      throw new BadRequestError(`数据项“${name}”的类型标识只能包含字母、数字和下划线，以字母开头，最长 64 个字符`);
    if (isReservedIdType(idType)) throw new BadRequestError(`类型标识“${idType}”为 Handle 系统保留，请换一个`);
    if (types.has(idType.toLowerCase())) throw new BadRequestError(`类型标识“${idType}”重复`);
    types.add(idType.toLowerCase());
    if (raw.idIndex !== undefined) {
      if (!Number.isInteger(raw.idIndex) || raw.idIndex < HandleIndex.FirstItem || raw.idIndex > MAX_INDEX)
        throw new BadRequestError(`数据项“${name}”的索引须为不小于 ${HandleIndex.FirstItem} 的整数`);
      if (taken.has(raw.idIndex)) throw new BadRequestError(`索引 ${raw.idIndex} 重复`);
      taken.add(raw.idIndex);
    }
    const metadata = typedMetadata(raw.metadata);
    const problem = metadataProblem(metadata);
    if (problem) throw new BadRequestError(`数据项“${name}”的${problem}`);
    return {
      name,
      idType,
      idIndex: raw.idIndex,
      required: raw.required,
      state: raw.state ?? 1,
      metadata,
      ...(raw.analytics === true ? { analytics: true } : {}),
    };
  });
  // Indexes of earlier versions stay with their idType, so a value keeps its Handle index across versions.
  const indexes = assignItemIndexes(items, earlier);
  return items.map((item, i) => ({ ...item, idIndex: indexes[i]! }));
}

export type ValuesCheck = { ok: true; values: ItemValue[] } | { ok: false; message: string };

/**
 * Checks a record's values (idType → text) against a template version: every type must be an item
 * in use, required items present, each value as its item's metadata says (`valueProblem`: length, date,
 * number, option). Empty texts count as absent.
 * Answers the values as Handle values in template order.
 */
export function checkValues(items: readonly TemplateItem[], values: Readonly<Record<string, string>>): ValuesCheck {
  const byType = new Map(items.map((item) => [item.idType, item]));
  for (const type of Object.keys(values)) {
    const item = byType.get(type);
    if (!item) return { ok: false, message: `模板中没有类型为“${type}”的数据项` };
    if (item.state !== 1 && values[type]?.trim()) return { ok: false, message: `数据项“${item.name}”已停用，不能再填写` };
  }
  const out: ItemValue[] = [];
  for (const item of items) {
    if (item.state !== 1) continue;
    // Own properties only: an idType such as "constructor" must not read Object.prototype.
    const value = Object.hasOwn(values, item.idType) ? (values[item.idType] ?? '').trim() : '';
    if (!value) {
      if (item.required) return { ok: false, message: requiredValueMessage(item) };
      continue;
    }
    const problem = valueProblem(item, value);
    if (problem) return { ok: false, message: problem };
    out.push([item.idIndex, item.idType, value]);
  }
  return { ok: true, values: out };
}

/** A value a record loses when it moves to another version: the item no longer in use there. */
export interface LostValue {
  idType: string;
  name: string;
  value: string;
}

/**
 * A record's stored values carried from its version's items to another version's (批量迁移):
 * values of items not in use there are lost; the rest are checked as a write of that version.
 */
export function carryValues(
  stored: readonly ItemValue[],
  from: readonly TemplateItem[],
  to: readonly TemplateItem[],
): { check: ValuesCheck; lost: LostValue[] } {
  const active = new Set(to.filter((item) => item.state === 1).map((item) => item.idType));
  const kept: Record<string, string> = {};
  const lost: LostValue[] = [];
  for (const [, idType, value] of stored) {
    if (active.has(idType)) kept[idType] = value;
    else {
      const name = to.find((item) => item.idType === idType)?.name ?? from.find((item) => item.idType === idType)?.name ?? idType;
      lost.push({ idType, name, value });
    }
  }
  return { check: checkValues(to, kept), lost };
}
