import type { CertificationStatus } from './enterprise.js';
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

export interface HandleAdminValue {
  handle: string;
  index: number;
  permissions: string;
}

export type HandleValueData = { format: 'string'; value: string } | { format: 'admin'; value: HandleAdminValue };

/** One value of a Handle record as the Handle.net JSON API shows it. */
export interface HandleValue {
  index: number;
  type: string;
  data: HandleValueData;
  /** Seconds a resolver may cache the value. */
  ttl: number;
  /** ISO-8601 UTC, whole seconds. */
  timestamp: string;
}

/** `GET /api/handles/{handle}`. */
export interface HandleApiResponse {
  responseCode: number;
  handle?: string;
  values?: HandleValue[];
  /** Present on errors: a Chinese explanation. */
  message?: string;
}

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
export interface TemplateItem {
  /** Chinese label shown on /mark and used as the CSV column title. */
  name: string;
  /** The Handle value type (English key). */
  idType: string;
  /** The Handle index of the value, 2000 or more. */
  idIndex: number;
  required: boolean;
  /** 1 in use, 0 retired (not shown, not required, not accepted in new values). */
  state: 0 | 1;
  metadata: TemplateItemMetadata;
  /** 计入统计: 标识统计 counts this item's values among found lookups (e.g. 产品型号). */
  analytics?: boolean;
}

/** `GET /web-api/portal/v1/identity/query?handle=`: `data[0]` (spec section 3, "Identity record from lookup"). */
export interface IdentityQueryEntry {
  identity: {
    handle: string;
    value: { index: number; type: string; data: { format: 'string'; value: string } }[];
  };
  template: {
    name: string;
    version: number;
    items: { name: string; idType: string; idIndex: number }[];
  };
}

// ----- management API (`/web-api/identity/v1/…`) -----

export interface IdentifierPrefix {
  id: number;
  prefix: string;
  name: string;
  enterpriseId: number;
  enterpriseName: string;
  templateCount: number;
  recordCount: number;
  createdAt: string;
  updatedAt: string;
}

/** `GET /web-api/identity/v1/enterprise/list` (operators): the enterprises a prefix can be assigned to. */
export interface EnterpriseOption {
  id: number;
  name: string;
  certificationStatus: CertificationStatus;
}

export interface IdentifierPrefixInput {
  prefix: string;
  name: string;
  enterpriseId: number;
}

export interface IdentifierPrefixUpdate {
  name: string;
  enterpriseId: number;
}

/** Items as the console sends them: `idIndex` and `state` may be left out. */
export interface TemplateItemInput {
  name: string;
  idType: string;
  idIndex?: number;
  required: boolean;
  state?: 0 | 1;
  metadata: TemplateItemMetadata;
  analytics?: boolean;
}

export interface IdentifierTemplateInput {
  prefix: string;
  name: string;
  items: TemplateItemInput[];
}

export interface IdentifierTemplateUpdate {
  name: string;
  items: TemplateItemInput[];
}

/** A template at its latest version. */
export interface IdentifierTemplate {
  id: number;
  prefix: string;
  name: string;
  version: number;
  items: TemplateItem[];
  recordCount: number;
  createdAt: string;
  updatedAt: string;
}

export interface IdentifierTemplateVersion {
  templateId: number;
  version: number;
  name: string;
  items: TemplateItem[];
  createdAt: string;
  createdBy: string;
}

export interface IdentifierRecord {
  id: number;
  handle: string;
  prefix: string;
  suffix: string;
  templateId: number;
  templateName: string;
  /** The template version the values were written with. */
  templateVersion: number;
  /** idType → value. */
  values: Record<string, string>;
  createdAt: string;
  updatedAt: string;
}

/** The list's filters, which the export honours too (`GET /web-api/identity/v1/record/export`, with a template). */
export interface IdentifierRecordFilters {
  prefix?: string;
  templateId?: number;
  searchKey?: string;
}

export interface IdentifierRecordQuery {
  offset: number;
  limit: number;
  prefix?: string;
  templateId?: number;
  /** Matches the start of the handle, or of the suffix under any visible prefix. */
  searchKey?: string;
}

export interface IdentifierRecordInput {
  prefix: string;
  suffix: string;
  templateId: number;
  values: Record<string, string>;
}

export interface IdentifierRecordUpdate {
  /** Another template of the same prefix; the record's own when left out. */
  templateId?: number;
  values: Record<string, string>;
}

/** 新增 adds records; 更新 replaces the values of existing ones. */
export const IMPORT_MODES = ['create', 'update'] as const;
export type IdentifierImportMode = (typeof IMPORT_MODES)[number];

/** `POST /web-api/identity/v1/record/import` query. */
export interface IdentifierImportQuery {
  templateId: number;
  /** 新增 when left out. */
  mode?: IdentifierImportMode;
  /** 更新 only: the records also move to the template's latest version. */
  toLatest?: boolean;
}

export interface IdentifierImportResult {
  /** Data rows read (the header row not counted). */
  total: number;
  /** Records written (added or updated): 0 when any row is bad, as an import is all or nothing. */
  imported: number;
  failed: number;
  /** The first 1 000 bad rows: line number (the header is line 1; an XLSX file's row number) and the reason. */
  errors: { line: number; message: string }[];
}

/** The records a 批量迁移 moves: those of the template at an older version than its latest. */
export interface RecordMigrationRequest {
  templateId: number;
  /** Only records at this (older) version. */
  fromVersion?: number;
  /** Only records whose handle or suffix starts with this, as the record list searches. */
  searchKey?: string;
}

/** What a 批量迁移 would do (`POST /web-api/identity/v1/record/migrate/preview`). */
export interface RecordMigrationPreview {
  templateId: number;
  templateName: string;
  /** The version the records move to: the template's latest. */
  toVersion: number;
  /** Records that move. */
  total: number;
  /** How many of them are at each older version. */
  versions: { version: number; records: number }[];
  /** Items whose values are dropped (retired or removed in the new version) and how many records lose one. */
  lostItems: { idType: string; name: string; records: number }[];
  /** Records that lose at least one value. */
  losing: number;
  /** The first records that lose values, with what they lose. */
  samples: { handle: string; version: number; lost: { name: string; value: string }[] }[];
  /** Records whose values break the new version's rules: while there is one, nothing moves. */
  blocked: number;
  /** The first of them, with the reason. */
  problems: { handle: string; version: number; message: string }[];
}

/** `POST /web-api/identity/v1/record/migrate`. */
export interface RecordMigrationResult {
  migrated: number;
  toVersion: number;
}

/** Most records a migration preview lists as samples, and as problems. */
export const MIGRATION_PREVIEW_ROWS = 50;

/** Most bad rows an import reports (the count in `failed` is always complete). */
export const MAX_IMPORT_ERRORS = 1000;

/** Column titles of the CSV key column, besides which every column is a template item (name or idType). */
export const CSV_HANDLE_COLUMNS = ['标识', 'handle'] as const;
export const CSV_SUFFIX_COLUMNS = ['标识后缀', 'suffix'] as const;
