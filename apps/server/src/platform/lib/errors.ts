import { HandleResponseCode, ResponseCode } from '@portal/shared';

/**
 * An error whose message is safe to show to the user (Chinese). The HTTP status tells the class;
 * the envelope code is 1 unless a token code (20300/20301/20302) applies.
 */
export class AppError extends Error {
  constructor(
    message: string,
    readonly statusCode: number = 400,
    readonly code: number = ResponseCode.Error,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequestError extends AppError {
  constructor(message: string) {
    super(message, 400);
  }
}

/** Malformed request input (plugins/input-guard.ts), with the part of the request it was found in. */
export class InputError extends BadRequestError {
  constructor(
    readonly part: 'params' | 'query' | 'body',
    message: string,
  ) {
    super(message);
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = '请先登录') {
    super(message, 401);
  }
}

export class ForbiddenError extends AppError {
  constructor(message = '当前账号无权限') {
    super(message, 403);
  }
}

export class NotFoundError extends AppError {
  constructor(message = '数据不存在') {
    super(message, 404);
  }
}

export class ConflictError extends AppError {
  constructor(message: string) {
    super(message, 409);
  }
}

export class TooManyRequestsError extends AppError {
  constructor(message: string) {
    super(message, 429);
  }
}

/** A protected call without a usable token (spec section 8: the client refreshes and replays). */
export class TokenError extends AppError {
  constructor(kind: 'missing' | 'expired' | 'invalid') {
    const code =
      kind === 'missing' ? ResponseCode.TokenMissing : kind === 'expired' ? ResponseCode.TokenExpired : ResponseCode.TokenInvalid;
    const message = kind === 'missing' ? '缺少访问令牌' : kind === 'expired' ? '访问令牌已过期' : '访问令牌无效';
    super(message, 401, code);
  }
}

/**
 * The body of an error answered outside a route's own handler (framework errors, refused hosts,
 * malformed requests): the envelope, or a Handle answer under the Handle API (Handle.net JSON API).
 */
export function errorBody(url: string | undefined, msg: string): { code: number; msg: string } | { responseCode: number; message: string } {
  return url?.startsWith('/api/handles/') ? { responseCode: HandleResponseCode.Error, message: msg } : { code: ResponseCode.Error, msg };
}
