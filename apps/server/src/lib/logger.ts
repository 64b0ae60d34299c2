import type { FastifyServerOptions } from 'fastify';

/** Query parameters whose values never reach the log (CAS tickets, tokens, codes, passwords). */
const SECRET_PARAMS = /([?&](?:ticket|token|access_token|password|code|smsCode|phone)=)[^&]*/gi;

export function redactUrlSecrets(url: string): string {
  return url.replace(SECRET_PARAMS, '$1***');
}

/** pino options: JSON lines; secrets in headers and URLs are redacted. */
export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]', '*.password', '*.smsCode'],
      censor: '***',
    },
    serializers: {
      req(request: { method: string; url: string; ip?: string; hostname?: string }) {
        return { method: request.method, url: redactUrlSecrets(request.url), host: request.hostname, remoteAddress: request.ip };
      },
    },
  };
}
