import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';
import { databaseStore } from '../limits/database-store.js';
import { RateLimitRepository } from '../limits/rate-limit-repository.js';

/** Origins of configured hosts, so the CSP allows exactly the services the portal talks to. */
function originsOf(urls: (string | undefined)[]): string[] {
  const origins = new Set<string>();
  for (const url of urls) {
    if (!url) continue;
    try {
      origins.add(new URL(url).origin);
    } catch {
      // a relative value (mainVisitPrefix) is not a host
    }
  }
  return [...origins];
}

/**
 * Runs helmet's middleware once against a recorder and returns the headers it sets: they do not
 * depend on the request, so they are computed at start and sent as they are.
 */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers = new Map<string, string>();
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers.set(name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value));
    },
    removeHeader(name: string) {
      headers.delete(name.toLowerCase());
    },
  };
  let failure: unknown;
  helmet(options)({} as never, recorder as never, (err?: unknown) => {
    failure = err;
  });
  if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
  return Object.fromEntries(headers);
}

/**
 * Answers of the API (JSON, CSV, files) are never rendered as documents: they get the short header set
 * the OWASP REST Security Cheat Sheet recommends (nothing may load, nothing may frame them) instead of
 * the page policy.
 */
export const API_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-site',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

/** Path prefixes whose answers are data, not pages (the CAS pages and the login callback are pages). */
const API_PATHS = [
  '/open-api/',
  '/web-api/',
  '/api/',
  '/healthz',
  '/readyz',
  '/metrics',
  '/web/portal/menu/',
  '/web/portal/oauth/',
  '/web/portal/account/',
  '/web/portal/app/',
];

export function isApiAnswer(url: string): boolean {
  for (const prefix of API_PATHS) if (url.startsWith(prefix)) return true;
  return false;
}

/** A web origin as `URL.origin` writes it (scheme, host, port): nothing else may enter a policy. */
const WEB_ORIGIN = /^https?:\/\/[a-z0-9.[\]:-]+$/i;

/**
 * `policy` whose form-action also allows `origin`. Chromium applies form-action to the redirects that
 * follow a form post too, so a page whose form ends in a 303 to another site must name that site.
 */
function withFormAction(policy: string, origin: string): string {
  if (!WEB_ORIGIN.test(origin)) return policy;
  return policy
    .split(';')
    .map((directive) => {
      const [name, ...sources] = directive.trim().split(/\s+/);
      return name === 'form-action' && !sources.includes(origin) ? `${directive} ${origin}` : directive;
    })
    .join(';');
}

/**
 * Security headers. Pages get a Content-Security-Policy that runs only the app's own scripts ('self',
 * no inline scripts, no eval; styles allow inline because antd injects its CSS-in-JS at run time); API
 * answers get `API_HEADERS`.
 */
async function security(app: FastifyInstance) {
  const { runtime } = app.config;
  const hosts = originsOf([app.config.publicUrl, ...Object.values(runtime)]);
  const headers = helmetHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...hosts],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...hosts],
        frameSrc: ["'self'", ...hosts],
        formAction: ["'self'", ...hosts],
        frameAncestors: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
      },
    },
    // Images and files may be shown by the configured hosts' pages.
    crossOriginResourcePolicy: { policy: 'same-site' },
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(isApiAnswer(request.url) ? API_HEADERS : headers);
    done();
  });
  const pagePolicy = headers['content-security-policy'] ?? '';
  app.decorateReply('allowFormAction', function (this: FastifyReply, origin: string) {
    // Only the page policy is widened, and once: a page leads to a single service.
    if (this.getHeader('content-security-policy') === pagePolicy)
      this.header('content-security-policy', withFormAction(pagePolicy, origin));
    return this;
  });
  // For a page sent where no onRequest hook ran (an address that could not be decoded).
  app.decorate('pageSecurityHeaders', headers);
  // Every limit is counted in the database, so several instances allow what one does (docs/architecture.md, "Limits").
  const limits = new RateLimitRepository(app.database.db);
  app.decorate('rateLimitRepository', limits);
  await app.register(rateLimit, { global: false, store: databaseStore(limits) });
}

export default fp(security, { name: 'security' });

declare module 'fastify' {
  interface FastifyInstance {
    /** The headers every page answer carries (Content-Security-Policy and the rest). */
    pageSecurityHeaders: Record<string, string>;
    /** The counters of every rate limit (`rate_limit_hit`). */
    rateLimitRepository: RateLimitRepository;
  }
  interface FastifyReply {
    /**
     * Lets this page's forms lead to `origin` as well as to this site (CSP form-action): for a
     * central-login page, the origin of the service the CAS registry validated, and nothing else.
     */
    allowFormAction(origin: string): FastifyReply;
  }
}
