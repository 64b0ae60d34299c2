import type { Static } from 'typebox';
import type {
  HandleAdminDataSchema,
  HandleApiResponseSchema,
  HandleValueSchema,
  IdentityQueryEntrySchema,
  IdentifierImportQuerySchema,
  IdentifierRecordQuerySchema,
  IdentifierTemplateInputSchema,
  IdentifierTemplateSchema,
  IdentifierTemplateUpdateSchema,
  TemplateItemInputSchema,
  TemplateItemSchema,
  EnterpriseOptionSchema,
  IdentifierImportResultSchema,
  IdentifierPrefixInputSchema,
  IdentifierPrefixSchema,
  IdentifierPrefixUpdateSchema,
  IdentifierRecordInputSchema,
  IdentifierRecordSchema,
  IdentifierRecordUpdateSchema,
  IdentifierTemplateVersionSchema,
  RecordMigrationPreviewSchema,
  RecordMigrationRequestSchema,
  RecordMigrationResultSchema,
} from './contracts/identifiers.js';
import type { Defaulted } from './contracts/envelope.js';
/**
 * Industrial identifiers (Handle System / IDIS secondary node): the shapes of the public lookup, the
 * Handle-compatible API and the console's management API, shared by server and web.
 */

/** Handle.net JSON API response codes (HTTP status in the comment). */
export const HandleResponseCode = {
  /** Success (200). */
  Success: 1,
  /** Server error, also an upstream resolver that failed (500). */
  Error: 2,
  /** Handle not found (404). */
  HandleNotFound: 100,
  /** Invalid handle (400). */
  InvalidHandle: 102,
  /** The handle exists but no value matches the `type`/`index` filters (200). */
  ValuesNotFound: 200,
} as const;

/** Handle indexes of an identifier record (IDIS on Handle). */
export const HandleIndex = {
  /** HS_ADMIN: who administers the handle. */
  Admin: 100,
  /** TEMPLATE: the metadata template and version the record was written with. */
  Template: 1001,
  /** Template items' values start here. */
  FirstItem: 2000,
} as const;

/** Longest identifier this node accepts (prefix + "/" + suffix). */
export const MAX_HANDLE_LENGTH = 255;

export type HandleAdminValue = Static<typeof HandleAdminDataSchema>['value'];

export type HandleValueData = HandleValue['data'];

/** One value of a Handle record as the Handle.net JSON API shows it. */
export type HandleValue = Static<typeof HandleValueSchema>;

/** `GET /api/handles/{handle}`. */
export type HandleApiResponse = Static<typeof HandleApiResponseSchema>;

/** The kinds of value an item takes: every value is stored and published as Handle text. */
export const ITEM_VALUE_TYPES = ['string', 'date', 'number', 'enum'] as const;
export type ItemValueType = (typeof ITEM_VALUE_TYPES)[number];
export const ITEM_VALUE_TYPE_LABELS: Record<ItemValueType, string> = { string: '文本', date: '日期', number: '数字', enum: '枚举' };

/**
 * Metadata of a template item's value, by `type`: text of a length (IDIS: the only type before
 * typed values, so stored templates keep working), a calendar date `YYYY-MM-DD`, a decimal number within
 * optional bounds, or one of a list of options.
 */
export type TemplateItemMetadata =
  | { type: 'string'; minLength: number; maxLength: number }
  | { type: 'date' }
  | { type: 'number'; min?: number; max?: number }
  | { type: 'enum'; options: string[] };

/** One item of a metadata template. */
/**
 * The schemas give an item's metadata as one object whose settings are optional (a wrong setting is
 * refused by the item rules with a Chinese message naming the item); items as stored and answered are
 * normalised, one branch per value type, which is what these types say.
 */
type WithItems<T, I> = Omit<T, 'items'> & { items: I[] };
export type TemplateItem = Omit<Static<typeof TemplateItemSchema>, 'metadata'> & { metadata: TemplateItemMetadata };

/** `GET /web-api/portal/v1/identity/query?handle=`: `data[0]` (spec section 3, "Identity record from lookup"). */
export type IdentityQueryEntry = Static<typeof IdentityQueryEntrySchema>;

// ----- management API (`/web-api/identity/v1/…`) -----

export type IdentifierPrefix = Static<typeof IdentifierPrefixSchema>;

/** `GET /web-api/identity/v1/enterprise/list` (operators): the enterprises a prefix can be assigned to. */
export type EnterpriseOption = Static<typeof EnterpriseOptionSchema>;

export type IdentifierPrefixInput = Static<typeof IdentifierPrefixInputSchema>;

export type IdentifierPrefixUpdate = Static<typeof IdentifierPrefixUpdateSchema>;

/** Items as the console sends them: `idIndex` and `state` may be left out. */
export type TemplateItemInput = Omit<Static<typeof TemplateItemInputSchema>, 'metadata'> & { metadata: TemplateItemMetadata };

export type IdentifierTemplateInput = WithItems<Static<typeof IdentifierTemplateInputSchema>, TemplateItemInput>;

export type IdentifierTemplateUpdate = WithItems<Static<typeof IdentifierTemplateUpdateSchema>, TemplateItemInput>;

/** A template at its latest version. */
export type IdentifierTemplate = WithItems<Static<typeof IdentifierTemplateSchema>, TemplateItem>;

export type IdentifierTemplateVersion = WithItems<Static<typeof IdentifierTemplateVersionSchema>, TemplateItem>;

export type IdentifierRecord = Static<typeof IdentifierRecordSchema>;

/** The list's filters, which the export honours too (`GET /web-api/identity/v1/record/export`, with a template). */
export interface IdentifierRecordFilters {
  prefix?: string;
  templateId?: number;
  searchKey?: string;
}

export type IdentifierRecordQuery = Static<typeof IdentifierRecordQuerySchema>;

export type IdentifierRecordInput = Static<typeof IdentifierRecordInputSchema>;

export type IdentifierRecordUpdate = Static<typeof IdentifierRecordUpdateSchema>;

/** 新增 adds records; 更新 replaces the values of existing ones. */
export const IMPORT_MODES = ['create', 'update'] as const;
export type IdentifierImportMode = (typeof IMPORT_MODES)[number];

/** `POST /web-api/identity/v1/record/import` query. */
export type IdentifierImportQuery = Defaulted<Static<typeof IdentifierImportQuerySchema>, 'mode' | 'toLatest'>;

export type IdentifierImportResult = Static<typeof IdentifierImportResultSchema>;

/** The records a 批量迁移 moves: those of the template at an older version than its latest. */
export type RecordMigrationRequest = Static<typeof RecordMigrationRequestSchema>;

/** What a 批量迁移 would do (`POST /web-api/identity/v1/record/migrate/preview`). */
export type RecordMigrationPreview = Static<typeof RecordMigrationPreviewSchema>;

/** `POST /web-api/identity/v1/record/migrate`. */
export type RecordMigrationResult = Static<typeof RecordMigrationResultSchema>;

/** Most records a migration preview lists as samples, and as problems. */
export const MIGRATION_PREVIEW_ROWS = 50;

/** Most bad rows an import reports (the count in `failed` is always complete). */
export const MAX_IMPORT_ERRORS = 1000;

/** Column titles of the CSV key column, besides which every column is a template item (name or idType). */
export const CSV_HANDLE_COLUMNS = ['标识', 'handle'] as const;
export const CSV_SUFFIX_COLUMNS = ['标识后缀', 'suffix'] as const;
