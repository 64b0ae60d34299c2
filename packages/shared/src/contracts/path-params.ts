import { Type } from 'typebox';

/** `/:id` of a row with a numeric id (the identifiers' routes also cap it at 32 bits: IdParamsSchema). */
export const RowIdParamsSchema = Type.Object({ id: Type.Integer({ minimum: 1 }) });
