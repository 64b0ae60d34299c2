import { Type } from 'typebox';
import { Envelope } from '../../platform/lib/envelope.js';
import {
  ITEM_VALUE_TYPES,
  MAX_ENUM_OPTIONS,
  MAX_HANDLE_LENGTH,
  MAX_TEMPLATE_ITEMS,
  MAX_VALUE_LENGTH,
  CertificationStatusSchema,
} from '@portal/shared';

// TypeBox schemas of the identifier management API (shapes in `@portal/shared` identifiers.ts).

const ValueType = Type.Union(ITEM_VALUE_TYPES.map((type) => Type.Literal(type)));

/**
 * An item's metadata by `type` (shapes in `TemplateItemMetadata`): one object whose settings are
 * optional, so a wrong setting is refused by `normaliseItems` with a Chinese message naming the item.
 */
const MetadataSchema = Type.Object({
  type: ValueType,
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
  metadata: MetadataSchema,
  analytics: Type.Optional(Type.Boolean()),
});
export const TemplateItemInput = Type.Object({
  name: Type.String({ maxLength: 64 }),
  idType: Type.String({ maxLength: 64 }),
  idIndex: Type.Optional(Type.Integer()),
  required: Type.Boolean(),
  state: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1)])),
  metadata: Type.Object({
    type: ValueType,
    minLength: Type.Optional(Type.Integer({ minimum: 0 })),
    maxLength: Type.Optional(Type.Integer({ minimum: 1 })),
    min: Type.Optional(Type.Number()),
    max: Type.Optional(Type.Number()),
    // Limits with room to spare: `normaliseItems` names the item and the rule.
    options: Type.Optional(Type.Array(Type.String({ maxLength: 256 }), { maxItems: MAX_ENUM_OPTIONS * 2 })),
  }),
  analytics: Type.Optional(Type.Boolean()),
});
export const TemplateItemsInput = Type.Array(TemplateItemInput, { maxItems: MAX_TEMPLATE_ITEMS });

export const PrefixSchema = Type.Object({
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
export const TemplateSchema = Type.Object({
  id: Type.Integer(),
  prefix: Type.String(),
  name: Type.String(),
  version: Type.Integer(),
  items: Type.Array(TemplateItemSchema),
  recordCount: Type.Integer(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
export const TemplateVersionSchema = Type.Object({
  templateId: Type.Integer(),
  version: Type.Integer(),
  name: Type.String(),
  items: Type.Array(TemplateItemSchema),
  createdAt: Type.String(),
  createdBy: Type.String(),
});
export const RecordSchema = Type.Object({
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
export const ImportResultSchema = Type.Object({
  total: Type.Integer(),
  imported: Type.Integer(),
  failed: Type.Integer(),
  errors: Type.Array(Type.Object({ line: Type.Integer(), message: Type.String() })),
});
export const ImportQuery = Type.Object({
  templateId: Type.Integer({ minimum: 1 }),
  mode: Type.Union([Type.Literal('create'), Type.Literal('update')], { default: 'create', description: 'create 新增，update 更新' }),
  toLatest: Type.Boolean({ default: false, description: '更新模式：同时把标识迁移到模板的最新版本' }),
});
export const ExportQuery = Type.Object({
  templateId: Type.Integer({ minimum: 1 }),
  prefix: Type.Optional(Type.String({ maxLength: 64 })),
  searchKey: Type.Optional(Type.String({ maxLength: MAX_HANDLE_LENGTH })),
});
export const MigrationBody = Type.Object({
  templateId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
  fromVersion: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })),
  searchKey: Type.Optional(Type.String({ maxLength: MAX_HANDLE_LENGTH })),
});
export const MigrationPreviewSchema = Type.Object({
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
export const MigrationResultSchema = Type.Object({ migrated: Type.Integer(), toVersion: Type.Integer() });
export const ValuesInput = Type.Record(Type.String({ maxLength: 64 }), Type.String({ maxLength: MAX_VALUE_LENGTH * 2 }), {
  maxProperties: MAX_TEMPLATE_ITEMS * 2,
});

export const PrefixParams = Type.Object({ prefix: Type.String({ minLength: 1, maxLength: 64 }) });
export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });
export const Empty = Envelope(Type.Object({}));
