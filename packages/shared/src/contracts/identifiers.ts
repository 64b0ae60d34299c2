import { Type } from 'typebox';
import { MAX_ENUM_OPTIONS, MAX_TEMPLATE_ITEMS, MAX_VALUE_LENGTH } from '../identifier-rules.js';
import { QR_SOURCE_PARAM, QR_SOURCE_VALUE } from '../identifier-stats.js';
import { ITEM_VALUE_TYPES, MAX_HANDLE_LENGTH } from '../identifiers.js';
import { CertificationStatusSchema } from './certification.js';
import { Envelope, literals } from './envelope.js';

// The identifier management API (`/web-api/identity/v1/…`): the source of the types in identifiers.ts.

export const ItemValueTypeSchema = literals(ITEM_VALUE_TYPES);

/**
 * An item's metadata by `type` (shapes in `TemplateItemMetadata`): one object whose settings are
 * optional, so a wrong setting is refused by `normaliseItems` with a Chinese message naming the item.
 */
export const TemplateItemMetadataSchema = Type.Object({
  type: ItemValueTypeSchema,
  minLength: Type.Optional(Type.Integer()),
  maxLength: Type.Optional(Type.Integer()),
  min: Type.Optional(Type.Number()),
  max: Type.Optional(Type.Number()),
  options: Type.Optional(Type.Array(Type.String())),
});

export const TemplateItemSchema = Type.Object({
  name: Type.String(),
  idType: Type.String(),
  idIndex: Type.Integer(),
  required: Type.Boolean(),
  state: Type.Union([Type.Literal(0), Type.Literal(1)]),
  metadata: TemplateItemMetadataSchema,
  analytics: Type.Optional(Type.Boolean()),
});
export const TemplateItemInputSchema = Type.Object({
  name: Type.String({ maxLength: 64 }),
  idType: Type.String({ maxLength: 64 }),
  idIndex: Type.Optional(Type.Integer()),
  required: Type.Boolean(),
  state: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1)])),
  metadata: Type.Object({
    type: ItemValueTypeSchema,
    minLength: Type.Optional(Type.Integer({ minimum: 0 })),
    maxLength: Type.Optional(Type.Integer({ minimum: 1 })),
    min: Type.Optional(Type.Number()),
    max: Type.Optional(Type.Number()),
    // Limits with room to spare: `normaliseItems` names the item and the rule.
    options: Type.Optional(Type.Array(Type.String({ maxLength: 256 }), { maxItems: MAX_ENUM_OPTIONS * 2 })),
  }),
  analytics: Type.Optional(Type.Boolean()),
});
export const TemplateItemsInputSchema = Type.Array(TemplateItemInputSchema, { maxItems: MAX_TEMPLATE_ITEMS });

export const IdentifierPrefixSchema = Type.Object({
  id: Type.Integer(),
  prefix: Type.String(),
  name: Type.String(),
  enterpriseId: Type.Integer(),
  enterpriseName: Type.String(),
  templateCount: Type.Integer(),
  recordCount: Type.Integer(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
export const EnterpriseOptionSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  certificationStatus: CertificationStatusSchema,
});
export const IdentifierTemplateSchema = Type.Object({
  id: Type.Integer(),
  prefix: Type.String(),
  name: Type.String(),
  version: Type.Integer(),
  items: Type.Array(TemplateItemSchema),
  recordCount: Type.Integer(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
export const IdentifierTemplateVersionSchema = Type.Object({
  templateId: Type.Integer(),
  version: Type.Integer(),
  name: Type.String(),
  items: Type.Array(TemplateItemSchema),
  createdAt: Type.String(),
  createdBy: Type.String(),
});
export const IdentifierRecordSchema = Type.Object({
  id: Type.Integer(),
  handle: Type.String(),
  prefix: Type.String(),
  suffix: Type.String(),
  templateId: Type.Integer(),
  templateName: Type.String(),
  templateVersion: Type.Integer(),
  values: Type.Record(Type.String(), Type.String()),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
export const IdentifierImportResultSchema = Type.Object({
  total: Type.Integer(),
  imported: Type.Integer(),
  failed: Type.Integer(),
  errors: Type.Array(Type.Object({ line: Type.Integer(), message: Type.String() })),
});
export const IdentifierImportQuerySchema = Type.Object({
  templateId: Type.Integer({ minimum: 1 }),
  mode: Type.Union([Type.Literal('create'), Type.Literal('update')], { default: 'create', description: 'create 新增，update 更新' }),
  toLatest: Type.Boolean({ default: false, description: '更新模式：同时把标识迁移到模板的最新版本' }),
});
export const IdentifierExportQuerySchema = Type.Object({
  templateId: Type.Integer({ minimum: 1 }),
  prefix: Type.Optional(Type.String({ maxLength: 64 })),
  searchKey: Type.Optional(Type.String({ maxLength: MAX_HANDLE_LENGTH })),
});
export const RecordMigrationRequestSchema = Type.Object({
  templateId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
  fromVersion: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })),
  searchKey: Type.Optional(Type.String({ maxLength: MAX_HANDLE_LENGTH })),
});
export const RecordMigrationPreviewSchema = Type.Object({
  templateId: Type.Integer(),
  templateName: Type.String(),
  toVersion: Type.Integer(),
  total: Type.Integer(),
  versions: Type.Array(Type.Object({ version: Type.Integer(), records: Type.Integer() })),
  lostItems: Type.Array(Type.Object({ idType: Type.String(), name: Type.String(), records: Type.Integer() })),
  losing: Type.Integer(),
  samples: Type.Array(
    Type.Object({
      handle: Type.String(),
      version: Type.Integer(),
      lost: Type.Array(Type.Object({ name: Type.String(), value: Type.String() })),
    }),
  ),
  blocked: Type.Integer(),
  problems: Type.Array(Type.Object({ handle: Type.String(), version: Type.Integer(), message: Type.String() })),
});
export const RecordMigrationResultSchema = Type.Object({ migrated: Type.Integer(), toVersion: Type.Integer() });
export const IdentifierValuesInputSchema = Type.Record(Type.String({ maxLength: 64 }), Type.String({ maxLength: MAX_VALUE_LENGTH * 2 }), {
  maxProperties: MAX_TEMPLATE_ITEMS * 2,
});

export const IdentifierPrefixParamsSchema = Type.Object({ prefix: Type.String({ minLength: 1, maxLength: 64 }) });
export const IdParamsSchema = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });
export const EmptyAnswerSchema = Envelope(Type.Object({}));

/** `GET /web-api/identity/v1/prefix/list` query. */
export const IdentifierPrefixListQuerySchema = Type.Object({ enterpriseId: Type.Optional(Type.Integer({ minimum: 1 })) });
export const IdentifierPrefixInputSchema = Type.Object({
  prefix: Type.String({ maxLength: 64 }),
  name: Type.String({ maxLength: 100 }),
  enterpriseId: Type.Integer({ minimum: 1 }),
});
export const IdentifierPrefixUpdateSchema = Type.Object({
  name: Type.String({ maxLength: 100 }),
  enterpriseId: Type.Integer({ minimum: 1 }),
});

/** `GET /web-api/identity/v1/template/list` query. */
export const IdentifierTemplateListQuerySchema = Type.Object({ prefix: Type.Optional(Type.String({ maxLength: 64 })) });
export const IdentifierTemplateInputSchema = Type.Object({
  prefix: Type.String({ maxLength: 64 }),
  name: Type.String({ maxLength: 64 }),
  items: TemplateItemsInputSchema,
});
export const IdentifierTemplateUpdateSchema = Type.Object({ name: Type.String({ maxLength: 64 }), items: TemplateItemsInputSchema });

export const IdentifierRecordQuerySchema = Type.Object({
  offset: Type.Integer({ minimum: 0, default: 0 }),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  prefix: Type.Optional(Type.String({ maxLength: 64 })),
  templateId: Type.Optional(Type.Integer({ minimum: 1 })),
  searchKey: Type.Optional(Type.String({ maxLength: MAX_HANDLE_LENGTH })),
});
export const IdentifierRecordInputSchema = Type.Object({
  prefix: Type.String({ maxLength: 64 }),
  suffix: Type.String({ maxLength: MAX_HANDLE_LENGTH }),
  templateId: Type.Integer({ minimum: 1 }),
  values: IdentifierValuesInputSchema,
});
export const IdentifierRecordUpdateSchema = Type.Object({
  templateId: Type.Optional(Type.Integer({ minimum: 1 })),
  values: IdentifierValuesInputSchema,
});

// ----- public resolution (spec section 7 "Identity lookup" and the Handle.net JSON API)

export const HandleStringDataSchema = Type.Object({ format: Type.Literal('string'), value: Type.String() });
export const HandleAdminDataSchema = Type.Object({
  format: Type.Literal('admin'),
  value: Type.Object({ handle: Type.String(), index: Type.Integer(), permissions: Type.String() }),
});
export const HandleValueSchema = Type.Object({
  index: Type.Integer(),
  type: Type.String(),
  data: Type.Union([HandleStringDataSchema, HandleAdminDataSchema]),
  ttl: Type.Integer(),
  timestamp: Type.String(),
});
export const HandleApiResponseSchema = Type.Object({
  responseCode: Type.Integer({ description: '1 成功，2 服务器错误，100 标识不存在，102 标识格式不正确，200 没有符合条件的值' }),
  handle: Type.Optional(Type.String()),
  values: Type.Optional(Type.Array(HandleValueSchema)),
  message: Type.Optional(Type.String()),
});
export const IdentityQueryEntrySchema = Type.Object({
  identity: Type.Object({
    handle: Type.String(),
    value: Type.Array(Type.Object({ index: Type.Integer(), type: Type.String(), data: HandleStringDataSchema })),
  }),
  template: Type.Object({
    name: Type.String(),
    version: Type.Integer(),
    items: Type.Array(Type.Object({ name: Type.String(), idType: Type.String(), idIndex: Type.Integer() })),
  }),
});
/** `GET /web-api/portal/v1/identity/query`'s answer: the record and its template, or an empty list. */
export const IdentityQueryAnswerSchema = Envelope(IdentityQueryEntrySchema);
/** `GET /web-api/portal/v1/identity/query` query. */
export const IdentityQueryQuerySchema = Type.Object({
  handle: Type.String({ maxLength: 1024, description: '标识，如 88.118.8/EX-2024-000123' }),
  [QR_SOURCE_PARAM]: Type.Optional(
    Type.String({ maxLength: 16, description: `${QR_SOURCE_VALUE}：扫描标识标签二维码打开的查询（标识统计计为扫码）` }),
  ),
});
/** `GET /api/handles/{handle}` (Handle.net JSON API): the handle, its slash as is or written %2F. */
export const HandleApiParamsSchema = Type.Object({ '*': Type.String({ description: '标识，斜杠原样或写作 %2F' }) });
/** `GET /api/handles/{handle}` query: `type` and `index` may repeat and select by "or". */
export const HandleApiQuerySchema = Type.Object({
  type: Type.Optional(Type.Array(Type.String({ maxLength: 128 }), { maxItems: 50 })),
  index: Type.Optional(Type.Array(Type.Integer({ minimum: 0, maximum: 2_147_483_647 }), { maxItems: 50 })),
});
