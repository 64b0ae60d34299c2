import { Type } from 'typebox';
import { Envelope } from '../../lib/envelope.js';
import { MAX_TEMPLATE_ITEMS, MAX_VALUE_LENGTH } from '@portal/shared';
import { CertificationStatusSchema } from '../certification/certification-schemas.js';

// TypeBox schemas of the identifier management API (shapes in `@portal/shared` identifiers.ts).

export const TemplateItemSchema = Type.Object({
  name: Type.String(),
  idType: Type.String(),
  idIndex: Type.Integer(),
  required: Type.Boolean(),
  state: Type.Union([Type.Literal(0), Type.Literal(1)]),
  metadata: Type.Object({ type: Type.Literal('string'), minLength: Type.Integer(), maxLength: Type.Integer() }),
});
export const TemplateItemInput = Type.Object({
  name: Type.String({ maxLength: 64 }),
  idType: Type.String({ maxLength: 64 }),
  idIndex: Type.Optional(Type.Integer()),
  required: Type.Boolean(),
  state: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1)])),
  metadata: Type.Object({
    type: Type.Literal('string'),
    minLength: Type.Integer({ minimum: 0 }),
    maxLength: Type.Integer({ minimum: 1 }),
  }),
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
export const ValuesInput = Type.Record(Type.String({ maxLength: 64 }), Type.String({ maxLength: MAX_VALUE_LENGTH * 2 }), {
  maxProperties: MAX_TEMPLATE_ITEMS * 2,
});

export const PrefixParams = Type.Object({ prefix: Type.String({ minLength: 1, maxLength: 64 }) });
export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });
export const Empty = Envelope(Type.Object({}));
