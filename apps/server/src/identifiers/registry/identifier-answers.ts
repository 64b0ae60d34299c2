import { Type } from 'typebox';
import { Envelope } from '../../platform/lib/envelope.js';

// The answers of the public resolution: spec section 7 "Identity lookup" and the Handle.net JSON API.

const StringData = Type.Object({ format: Type.Literal('string'), value: Type.String() });
const AdminData = Type.Object({
  format: Type.Literal('admin'),
  value: Type.Object({ handle: Type.String(), index: Type.Integer(), permissions: Type.String() }),
});
const HandleValueSchema = Type.Object({
  index: Type.Integer(),
  type: Type.String(),
  data: Type.Union([StringData, AdminData]),
  ttl: Type.Integer(),
  timestamp: Type.String(),
});
export const HandleResponseSchema = Type.Object({
  responseCode: Type.Integer({ description: '1 成功，2 服务器错误，100 标识不存在，102 标识格式不正确，200 没有符合条件的值' }),
  handle: Type.Optional(Type.String()),
  values: Type.Optional(Type.Array(HandleValueSchema)),
  message: Type.Optional(Type.String()),
});

const IdentityEntrySchema = Type.Object({
  identity: Type.Object({
    handle: Type.String(),
    value: Type.Array(Type.Object({ index: Type.Integer(), type: Type.String(), data: StringData })),
  }),
  template: Type.Object({
    name: Type.String(),
    version: Type.Integer(),
    items: Type.Array(Type.Object({ name: Type.String(), idType: Type.String(), idIndex: Type.Integer() })),
  }),
});
export const IdentityAnswerSchema = Envelope(IdentityEntrySchema);
