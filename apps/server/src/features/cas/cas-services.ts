/**
 * The embedded CAS server's service registry (CAS 3.0 §2.1.1: services must be registered; compare
 * scheme, host, port and path prefix exactly). This portal is registered by default; CAS_SERVICES
 * adds others. A service that is not registered gets no ticket and no logout redirect.
 */
export class ServiceRegistry {
  private readonly prefixes: URL[];

  constructor(extra: string[]) {
    this.prefixes = extra.map((p) => new URL(p));
  }

  /** Whether `service` may receive tickets; `portalBase` is this portal's own address. */
  isRegistered(service: string | undefined, portalBase: string): service is string {
    if (!service) return false;
    let url: URL;
    try {
      url = new URL(service);
    } catch {
      return false;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    if (url.username || url.password) return false;
    return [new URL(portalBase + '/'), ...this.prefixes].some((prefix) => matches(url, prefix));
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
