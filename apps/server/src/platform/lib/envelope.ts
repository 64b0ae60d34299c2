import { ResponseCode } from '@portal/shared';
import { type TSchema, Type } from 'typebox';

/** The `msg` of a success envelope unless a route says otherwise. */
export const OK_MESSAGE = '操作成功';

/** `{ code: 20200, msg, data: [...] }`: single objects sit at `data[0]`. */
export function ok<T>(data: T[] | T, msg = OK_MESSAGE) {
  return { code: ResponseCode.Success, msg, data: Array.isArray(data) ? data : [data] };
}

/** Response schema of a success envelope whose `data` holds items of `item`. */
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

/** A string field that takes exactly these values (a TypeScript string-literal union). */
export const literals = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));
