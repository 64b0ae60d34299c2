import { ResponseCode } from '@portal/shared';

/** The `msg` of a success envelope unless a route says otherwise. */
export const OK_MESSAGE = '操作成功';

/** `{ code: 20200, msg, data: [...] }`: single objects sit at `data[0]`. */
export function ok<T>(data: T[] | T, msg = OK_MESSAGE) {
  return { code: ResponseCode.Success, msg, data: Array.isArray(data) ? data : [data] };
}

// The envelope's schemas are declared once, with the other contracts (packages/shared, contracts/envelope.ts).
export { Envelope, ErrorEnvelope, Page, errorResponses, literals } from '@portal/shared';
