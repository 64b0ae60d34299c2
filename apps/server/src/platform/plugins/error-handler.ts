import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ResponseCode } from '@portal/shared';
import { AppError, errorBody } from '../lib/errors.js';

interface ValidationIssue {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
}

const CONTEXT_NAMES: Record<string, string> = {
  body: '请求体',
  querystring: '查询参数',
  params: '路径参数',
  headers: '请求头',
};

/** Turns the first schema violation into one clear Chinese sentence. */
export function describeValidation(issues: readonly ValidationIssue[], context: string | undefined): string {
  const issue = issues[0];
  const where = CONTEXT_NAMES[context ?? ''] ?? '参数';
  if (!issue) return `${where}不正确`;
  const field = issue.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const name = field ? `${where} ${field} ` : `${where}`;
  switch (issue.keyword) {
    case 'required':
      return `缺少必填${where} ${String(issue.params.missingProperty)}`;
    case 'additionalProperties':
      return `不支持的${where} ${String(issue.params.additionalProperty)}`;
    case 'type':
      return `${name}类型不正确`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `${name}超出允许范围`;
    case 'minLength':
    case 'maxLength':
    case 'minItems':
    case 'maxItems':
      return `${name}长度不正确`;
    case 'pattern':
    case 'format':
      return `${name}格式不正确`;
    case 'enum':
    case 'const':
    case 'anyOf':
    case 'oneOf':
      return `${name}取值不正确`;
    default:
      return `${name}不正确`;
  }
}

const FRAMEWORK_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: '请求体不是有效的 JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: '请求体不能为空',
  FST_ERR_CTP_BODY_TOO_LARGE: '请求体过大',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: '不支持的请求内容类型',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: '请求体长度与声明不一致',
  FST_ERR_BAD_URL: '请求地址格式不正确',
  FST_ERR_ASYNC_CONSTRAINT: '请求地址格式不正确',
};

function send(reply: FastifyReply, status: number, code: number, msg: string) {
  return reply.status(status).type('application/json; charset=utf-8').send({ code, msg });
}

/** Node's parser errors: 431 for headers over the limit, 400 for anything else malformed. */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const body = JSON.stringify(errorBody(undefined, tooLarge ? '请求头过大' : '请求格式不正确'));
  const status = tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request';
  socket.end(
    `HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** The one error handler (fastify/demo style): user errors get their Chinese message, 5xx hides details. */
async function errorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) {
      if (error.statusCode >= 500) request.log.error({ err: error }, 'application error');
      return send(reply, error.statusCode, error.code, error.message);
    }
    if (error.validation) {
      return send(reply, 400, ResponseCode.Error, describeValidation(error.validation, error.validationContext));
    }
    const status = error.statusCode ?? 500;
    if (status === 429) return send(reply, 429, ResponseCode.Error, '请求过于频繁，请稍后再试');
    if (status >= 400 && status < 500) {
      const msg = (error.code && FRAMEWORK_MESSAGES[error.code]) ?? '请求不正确';
      return send(reply, status, ResponseCode.Error, msg);
    }
    request.log.error({ err: error }, 'unexpected error');
    return send(reply, 500, ResponseCode.Error, '服务器内部错误，请稍后重试');
  });
}

export default fp(errorHandler, { name: 'error-handler' });
