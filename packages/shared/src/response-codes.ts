/** Response codes of the portal's envelope (spec section 8). */
export const ResponseCode = {
  /** Business success. */
  Success: 20200,
  /** Business error: the client shows `msg` (or `Error`) for 3 s and rejects. */
  Error: 1,
  /** No token was sent with a protected call. */
  TokenMissing: 20300,
  /** The token has expired. */
  TokenExpired: 20301,
  /** The token is not valid. */
  TokenInvalid: 20302,
  /**
   * A sensitive change (phone, email, two-factor) needs a recent proof of identity (HTTP 403, msg
   * 请先验证身份): the client asks for the password or a code at `POST /web/portal/account/reauth`,
   * then replays the call.
   */
  ReauthRequired: 20403,
} as const;

export type ResponseCodeValue = (typeof ResponseCode)[keyof typeof ResponseCode];

/** Codes that make the client fetch one new token and replay the queued requests. */
export const TOKEN_REFRESH_CODES: readonly number[] = [ResponseCode.TokenMissing, ResponseCode.TokenExpired, ResponseCode.TokenInvalid];

/** Success envelope: `data` is always a list; single objects sit at `data[0]`. */
export interface ApiSuccess<T> {
  code: typeof ResponseCode.Success;
  msg: string;
  data: T[];
}

export interface ApiFailure {
  code: number;
  msg: string;
}

/** Paged lists answer `data[0] = { rows, total }`. */
export interface PageResult<T> {
  rows: T[];
  total: number;
}
