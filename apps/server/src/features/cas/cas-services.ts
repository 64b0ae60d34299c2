import fp from 'fastify-plugin';
import { parseRedirectUrl } from '@portal/shared';

/**
 * The embedded CAS server's service registry (CAS 3.0 §2.1.1: services must be registered; compare
 * scheme, host, port and path prefix exactly). This portal is registered by default; CAS_SERVICES
 * adds others. A service that is not registered gets no ticket, no logout redirect and no
 * single-logout message. The address is parsed by the one redirect check (`parseRedirectUrl`), as a
 * browser would read it, before its prefix is compared.
 */
export class ServiceRegistry {
  private readonly prefixes: URL[];

  constructor(extra: string[]) {
    this.prefixes = extra.map((p) => new URL(p));
  }

  /** The parsed address of `service` if it is registered; `portalBase` is this portal's own address. */
  registered(service: string | undefined, portalBase: string): URL | undefined {
    const url = parseRedirectUrl(service);
    if (!url) return undefined;
    return [new URL(`${portalBase}/`), ...this.prefixes].some((prefix) => matches(url, prefix)) ? url : undefined;
  }

  /** Origins allowed to call the token endpoint with credentials (CORS). */
  isRegisteredOrigin(origin: string, portalBase: string): boolean {
    const portal = new URL(portalBase).origin;
    return origin === portal || this.prefixes.some((p) => p.origin === origin);
  }
}

function matches(url: URL, prefix: URL): boolean {
  if (url.protocol !== prefix.protocol || url.hostname !== prefix.hostname || url.port !== prefix.port) return false;
  const base = prefix.pathname.endsWith('/') ? prefix.pathname : prefix.pathname + '/';
  return url.pathname === prefix.pathname || url.pathname.startsWith(base);
}

/** The one registry of the server, from configuration (CAS_SERVICES). */
export default fp(
  async (app) => {
    app.decorate('casServices', new ServiceRegistry(app.config.auth.casServices));
  },
  { name: 'cas-services' },
);

declare module 'fastify' {
  interface FastifyInstance {
    casServices: ServiceRegistry;
  }
}
