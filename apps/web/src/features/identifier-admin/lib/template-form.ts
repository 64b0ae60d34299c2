import {
  ID_TYPE_PATTERN,
  type IdentifierTemplate,
  type ItemValueType,
  MAX_ITEM_NAME,
  MAX_TEMPLATE_ITEMS,
  MAX_VALUE_LENGTH,
  type TemplateItem,
  type TemplateItemInput,
  type TemplateItemMetadata,
  assignItemIndexes,
  enumOptionsProblem,
  hasControlCharacter,
  isReservedIdType,
  metadataProblem,
  textLength,
} from '@portal/shared';

/** Longest template name (the server's limit). */
export const MAX_TEMPLATE_NAME = 64;

/** One row of the items editor. */
export interface ItemRow {
  name: string;
  idType: string;
  required: boolean;
  /** state 1 (in use) or 0 (retired). */
  active: boolean;
  /** The kind of value; the settings of the other kinds are kept while the row is edited. */
  valueType: ItemValueType;
  /** 文本: lengths. */
  minLength: number;
  maxLength: number;
  /** 数字: optional bounds (an emptied number box holds null). */
  min?: number | null;
  max?: number | null;
  /** 枚举: the options. */
  options?: string[];
  /** 计入统计: 标识统计 counts this item's values. */
  analytics: boolean;
  /** Kept for an item the template already has; a new item gets one when saved. */
  idIndex?: number;
}

export interface TemplateFormValues {
  name: string;
  items: ItemRow[];
}

export const NEW_ITEM_ROW: ItemRow = {
  name: '',
  idType: '',
  required: false,
  active: true,
  valueType: 'string',
  minLength: 0,
  maxLength: 64,
  options: [],
  analytics: false,
};

export const EMPTY_TEMPLATE_FORM: TemplateFormValues = { name: '', items: [{ ...NEW_ITEM_ROW, required: true }] };

/** A row's settings from an item's metadata (the other kinds' settings start at their defaults). */
function metadataRow(metadata: TemplateItemMetadata): Pick<ItemRow, 'valueType' | 'minLength' | 'maxLength' | 'min' | 'max' | 'options'> {
  const row = { valueType: metadata.type, minLength: NEW_ITEM_ROW.minLength, maxLength: NEW_ITEM_ROW.maxLength, options: [] as string[] };
  switch (metadata.type) {
    case 'string':
      return { ...row, minLength: metadata.minLength, maxLength: metadata.maxLength };
    case 'number':
      return { ...row, min: metadata.min ?? null, max: metadata.max ?? null };
    case 'enum':
      return { ...row, options: [...metadata.options] };
    default:
      return row;
  }
}

export function toTemplateForm(template: Pick<IdentifierTemplate, 'name' | 'items'>): TemplateFormValues {
  return {
    name: template.name,
    items: template.items.map((item) => ({
      name: item.name,
      idType: item.idType,
      required: item.required,
      active: item.state === 1,
      ...metadataRow(item.metadata),
      analytics: item.analytics === true,
      idIndex: item.idIndex,
    })),
  };
}

/** The metadata a row stands for: its kind's settings only. */
export function rowMetadata(row: Partial<ItemRow>): TemplateItemMetadata {
  switch (row.valueType) {
    case 'date':
      return { type: 'date' };
    case 'number':
      return {
        type: 'number',
        ...(typeof row.min === 'number' ? { min: row.min } : {}),
        ...(typeof row.max === 'number' ? { max: row.max } : {}),
      };
    case 'enum':
      return { type: 'enum', options: (row.options ?? []).map((option) => option.trim()) };
    default:
      return { type: 'string', minLength: row.minLength ?? Number.NaN, maxLength: row.maxLength ?? Number.NaN };
  }
}

/** The items as the server takes them: trimmed, the existing ones with their index, new ones without (the server assigns it). */
export function toTemplateItems(rows: readonly ItemRow[]): TemplateItemInput[] {
  return rows.map((row) => ({
    name: row.name.trim(),
    idType: row.idType.trim(),
    ...(row.idIndex !== undefined ? { idIndex: row.idIndex } : {}),
    required: row.required,
    state: row.active ? 1 : 0,
    metadata: rowMetadata(row),
    ...(row.analytics ? { analytics: true } : {}),
  }));
}

/** The Handle index each row has or will get when saved, as the server assigns it (from 2000, stable per idType). */
export function previewIndexes(rows: readonly Partial<ItemRow>[], earlier: readonly TemplateItem[]): number[] {
  return assignItemIndexes(
    rows.map((row) => ({ idType: (row.idType ?? '').trim(), idIndex: row.idIndex })),
    earlier,
  );
}

export const TemplateFormMessage = {
  nameRequired: '请输入模板名称',
  nameTooLong: `模板名称不能超过 ${MAX_TEMPLATE_NAME} 个字符`,
  noItems: '模板至少需要一个数据项',
  tooManyItems: `模板最多 ${MAX_TEMPLATE_ITEMS} 个数据项`,
  itemNameRequired: '请输入数据项名称',
  itemNameTooLong: `名称最长 ${MAX_ITEM_NAME} 个字符，且不能包含控制字符`,
  idTypeRequired: '请输入类型标识',
  idTypeFormat: '类型标识只能包含字母、数字和下划线，以字母开头，最长 64 个字符',
  lengthRange: `长度限制须在 0–${MAX_VALUE_LENGTH} 之间`,
  minOverMax: '最小长度不能大于最大长度',
} as const;

/** Why an item's name is refused (alone and among `rows`), or undefined. */
export function itemNameProblem(rows: readonly Partial<ItemRow>[], index: number): string | undefined {
  const name = (rows[index]?.name ?? '').trim();
  if (!name) return TemplateFormMessage.itemNameRequired;
  if (textLength(name) > MAX_ITEM_NAME || hasControlCharacter(name)) return TemplateFormMessage.itemNameTooLong;
  if (rows.some((row, i) => i < index && (row.name ?? '').trim() === name)) return `数据项名称“${name}”重复`;
  return undefined;
}

/** Why an item's idType is refused (alone and among `rows`, ignoring case like the server), or undefined. */
export function idTypeProblem(rows: readonly Partial<ItemRow>[], index: number): string | undefined {
  const idType = (rows[index]?.idType ?? '').trim();
  if (!idType) return TemplateFormMessage.idTypeRequired;
  if (!ID_TYPE_PATTERN.test(idType)) return TemplateFormMessage.idTypeFormat;
  if (isReservedIdType(idType)) return `类型标识“${idType}”为 Handle 系统保留，请换一个`;
  const lower = idType.toLowerCase();
  if (rows.some((row, i) => i < index && (row.idType ?? '').trim().toLowerCase() === lower)) return `类型标识“${idType}”重复`;
  return undefined;
}

/** Why a length limit is refused, or undefined. */
export function lengthProblem(row: Partial<ItemRow> | undefined, which: 'minLength' | 'maxLength'): string | undefined {
  if (row?.valueType !== undefined && row.valueType !== 'string') return undefined;
  const value = row?.[which];
  if (typeof value !== 'number' || !Number.isInteger(value)) return TemplateFormMessage.lengthRange;
  if (value < (which === 'minLength' ? 0 : 1) || value > MAX_VALUE_LENGTH) return TemplateFormMessage.lengthRange;
  if (which === 'maxLength' && typeof row?.minLength === 'number' && row.minLength > value) return TemplateFormMessage.minOverMax;
  return undefined;
}

/** Why a number item's bounds are refused (shown at the upper bound), or undefined. */
export function boundsProblem(row: Partial<ItemRow> | undefined): string | undefined {
  return row?.valueType === 'number' ? metadataProblem(rowMetadata(row)) : undefined;
}

/** Why an enumeration item's options are refused, or undefined. */
export function optionsProblem(row: Partial<ItemRow> | undefined): string | undefined {
  return row?.valueType === 'enum' ? enumOptionsProblem((row.options ?? []).map((option) => option.trim())) : undefined;
}
