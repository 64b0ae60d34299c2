import { Type } from 'typebox';

/** Bodies many routes share (the empty answer is identifiers.ts's EmptyAnswerSchema). */

/** `/:id` of a row with a numeric id (the identifiers' routes also cap it at 32 bits: IdParamsSchema). */
export const RowIdParamsSchema = Type.Object({ id: Type.Integer({ minimum: 1 }) });

/** The answer of a create: the new row's id. */
export const CreatedIdSchema = Type.Object({ id: Type.Integer() });
