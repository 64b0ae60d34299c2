import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import pino, { type Bindings, type ChildLoggerOptions, type LogFn } from 'pino';

/** Query parameters whose values never reach the log (CAS tickets, tokens, codes, passwords). */
const SECRET_PARAMS = /([?&](?:ticket|token|access_token|password|code|smsCode|phone)=)[^&]*/gi;

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
    // Asynchronous writes: a request never waits for a write(2) of its log line; lines written while
    // one is in flight go out together. Measured: 4 000 → 9 000 req/s for /healthz at 50 connections.
    stream: asyncStdout(),
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

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/** A log method that writes through the (lazily built) child. */
function forward(level: Level): LogFn {
  return function (this: LazyChildLogger, ...args: unknown[]) {
    const child = this.logger;
    Reflect.apply(child[level], child, args);
  };
}

/**
 * A request's logger, made into a pino child (bound to its reqId) on its first line. Fastify gives
 * every request a child logger, and pino builds it at once: about a microsecond, 4 % of a cached
 * answer's time, though most requests log nothing (ACCESS_LOG=errors). Used as Fastify's
 * `childLoggerFactory`; the methods live on the prototype, so a request that logs nothing costs one
 * small object.
 */
export class LazyChildLogger implements FastifyBaseLogger {
  #child: FastifyBaseLogger | undefined;
  declare fatal: LogFn;
  declare error: LogFn;
  declare warn: LogFn;
  declare info: LogFn;
  declare debug: LogFn;
  declare trace: LogFn;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  /** The pino child (built now if it is not yet). */
  get logger(): FastifyBaseLogger {
    return (this.#child ??= this.parent.child(this.bindings, this.options));
  }

  get level(): string {
    return this.#child?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }
}
for (const level of ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const) {
  LazyChildLogger.prototype[level] = forward(level);
}

/** Fastify's `childLoggerFactory`: each request's logger is a `LazyChildLogger`. */
export function lazyChildLoggerFactory(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return new LazyChildLogger(logger, bindings, options);
}
