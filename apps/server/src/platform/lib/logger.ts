import type { FastifyServerOptions } from 'fastify';
import pino from 'pino';

/** Query parameters whose values never reach the log (CAS tickets, OAuth tokens, codes and secrets, passwords). */
const SECRET_PARAMS =
  /([?&](?:ticket|token|access_token|refresh_token|id_token_hint|logout_token|client_secret|code_verifier|password|code|authCode|state|smsCode|phone)=)[^&]*/gi;

export function redactUrlSecrets(url: string): string {
  return url.replace(SECRET_PARAMS, '$1***');
}

const destinations: ReturnType<typeof pino.destination>[] = [];

/** Writes out buffered log lines (call before the process exits). */
export function flushLogs(): void {
  for (const d of destinations) {
    try {
      d.flushSync();
    } catch {
      // nothing buffered, or the destination is already closed
    }
  }
}

/** pino options: JSON lines; secrets in headers and URLs are redacted. */
function asyncStdout() {
  const destination = pino.destination({ dest: 1, sync: false });
  destinations.push(destination);
  return destination;
}

export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    // Asynchronous writes: a request never waits for the disk or a pipe; flushLogs() before exit.
    stream: asyncStdout(),
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]', '*.password', '*.smsCode', '*.clientSecret'],
      censor: '***',
    },
    serializers: {
      req(request: { method: string; url: string; ip?: string; hostname?: string }) {
        return { method: request.method, url: redactUrlSecrets(request.url), host: request.hostname, remoteAddress: request.ip };
      },
    },
  };
}
