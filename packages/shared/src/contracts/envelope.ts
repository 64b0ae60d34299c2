import { type TLiteral, type TSchema, type TSchemaOptions, type TUnion, Type } from 'typebox';
import { ResponseCode } from '../response-codes.js';

/** Response schema of a success envelope whose `data` holds items of `item` (spec section 3). */
export function Envelope<T extends TSchema>(item: T) {
  return Type.Object({
    code: Type.Literal(ResponseCode.Success),
    msg: Type.String(),
    data: Type.Array(item),
  });
}

/** Paged lists answer `data[0] = { rows, total }`. */
export function Page<T extends TSchema>(row: T) {
  return Type.Object({ rows: Type.Array(row), total: Type.Integer({ minimum: 0 }) });
}

/** Response schema of `{ code: 1 | 2030x, msg }`. */
export const ErrorEnvelope = Type.Object({ code: Type.Integer(), msg: Type.String() });

/** The error envelopes every route may answer, for OpenAPI and fast serialisation. */
export const errorResponses = {
  '4xx': ErrorEnvelope,
  '5xx': ErrorEnvelope,
} as const;

/**
 * A string field that takes exactly these values: one `const` per value under `anyOf`. Its static type
 * is their union (a union built from a list is otherwise typed as `never`).
 */
export const literals = <T extends string | number>(values: readonly T[], options?: TSchemaOptions) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    options,
  ) as unknown as TUnion<[TLiteral<T>]>;

/**
 * A request type whose fields `K` have a `default` in the schema: the server fills them in, so a caller
 * may leave them out (the static type of a schema keeps them required).
 */
export type Defaulted<T, K extends keyof T> = Omit<T, K> & Partial<Pick<T, K>>;
