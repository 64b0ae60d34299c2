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

/** Metadata of a template item's value (IDIS: only strings). */
export interface TemplateItemMetadata {
  type: 'string';
  minLength: number;
  maxLength: number;
}

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

export interface IdentifierImportResult {
  /** Data rows read (the header row not counted). */
  total: number;
  imported: number;
  failed: number;
  /** The first 1 000 bad rows: CSV line number (the header is line 1) and the reason. */
  errors: { line: number; message: string }[];
}

/** Most bad rows an import reports (the count in `failed` is always complete). */
export const MAX_IMPORT_ERRORS = 1000;

/** Column titles of the CSV key column, besides which every column is a template item (name or idType). */
export const CSV_HANDLE_COLUMNS = ['标识', 'handle'] as const;
export const CSV_SUFFIX_COLUMNS = ['标识后缀', 'suffix'] as const;
