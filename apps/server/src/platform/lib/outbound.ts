import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net, { type LookupFunction } from 'node:net';
import os from 'node:os';
import ipaddr from 'ipaddr.js';

type Ip = ipaddr.IPv4 | ipaddr.IPv6;
/** A network an operator lets tenants' addresses reach (OUTBOUND_ALLOW_NETWORKS). */
export type OutboundNetwork = [Ip, number];

/** What an address is, when it is not an ordinary public one. */
export type Refusal = 'self' | 'loopback' | 'linkLocal' | 'unspecified' | 'multicast' | 'reserved' | 'private' | 'host';

const REFUSAL_TEXT: Record<Refusal, string> = {
  self: '门户自身',
  loopback: '回环地址',
  linkLocal: '链路本地地址',
  unspecified: '未指定地址',
  multicast: '组播或广播地址',
  reserved: '保留地址',
  private: '内网地址',
  host: '门户所在主机',
};

/** The sentence shown for a refused address, e.g. 不允许连接到该地址（回环地址）. */
export const outboundRefusalText = (refusal: Refusal) => `不允许连接到该地址（${REFUSAL_TEXT[refusal]}）`;

/** A connection the guard did not let happen; `message` is the Chinese sentence for the administrator. */
export class OutboundRefusedError extends Error {
  readonly code = 'EOUTBOUND_REFUSED';
}

/** `10.0.0.0/8`, `fd00::/8` or a single address; throws on anything else (a start-up configuration error). */
export function parseOutboundNetwork(entry: string): OutboundNetwork {
  const value = entry.trim();
  if (ipaddr.isValidCIDR(value)) return ipaddr.parseCIDR(value);
  if (net.isIP(value)) {
    const ip = ipaddr.parse(value);
    return [ip, ip.kind() === 'ipv4' ? 32 : 128];
  }
  throw new Error(`OUTBOUND_ALLOW_NETWORKS must list CIDRs or addresses, got "${entry}"`);
}

/** An IPv4-mapped IPv6 address (::ffff:127.0.0.1) is the IPv4 address it carries. */
function plain(address: string): Ip {
  const ip = ipaddr.parse(address);
  return ip instanceof ipaddr.IPv6 && ip.isIPv4MappedAddress() ? ip.toIPv4Address() : ip;
}

/** The class of an address by the IANA special-purpose registries (ipaddr.js ranges); undefined for public unicast. */
function classify(ip: Ip): Refusal | undefined {
  const range = ip.range();
  switch (range) {
    case 'unicast':
      return undefined;
    case 'loopback':
    case 'linkLocal':
    case 'unspecified':
    case 'multicast':
      return range;
    case 'broadcast':
      return 'multicast';
    case 'private':
    case 'uniqueLocal':
    case 'carrierGradeNat':
      return 'private';
    default:
      // Documentation, benchmarking, 6to4, Teredo, NAT64 and the like: translated or not routable, never a tenant's server.
      return 'reserved';
  }
}

const sameIp = (a: Ip, b: Ip) => a.kind() === b.kind() && a.toNormalizedString() === b.toNormalizedString();

export interface OutboundGuardOptions {
  /** Networks tenants' addresses may reach although they are loopback, private, link-local or reserved. */
  allowNetworks: readonly OutboundNetwork[];
  /** PUBLIC_URL, whose host is the portal under any name. */
  publicUrl: string | undefined;
  /** The ports the portal answers on (PORT, the one it listens on, PUBLIC_URL's). */
  ports: () => number[];
}

/**
 * Every connection the server opens to an address a tenant typed (接入自检, CAS single logout, LDAP /
 * AD sources) goes through here: the name is resolved once, every address it gave is checked, and the
 * connection is made to a checked address only, so a name that resolves elsewhere the second time
 * (DNS rebinding), integer, hex or octal IPv4 forms and IPv4-mapped IPv6 all end at the same check.
 * Loopback, link-local (cloud metadata), unspecified, multicast and reserved addresses, private
 * networks and the portal's own host are refused unless the operator allows the network; the portal
 * itself (a loopback or own address at its own port) is refused even then.
 */
export class OutboundGuard {
  constructor(private readonly options: OutboundGuardOptions) {}

  /** This machine's own addresses and PUBLIC_URL's host's: the portal under any name. */
  private async ownAddresses(): Promise<Ip[]> {
    const own = Object.values(os.networkInterfaces())
      .flat()
      .flatMap((entry) => (entry ? [plain(entry.address.replace(/%.*$/, ''))] : []));
    const host = this.options.publicUrl ? new URL(this.options.publicUrl).hostname.replace(/^\[|\]$/g, '') : undefined;
    if (host) {
      const found = net.isIP(host) ? [{ address: host }] : await dns.promises.lookup(host, { all: true }).catch(() => []);
      own.push(...found.map((a) => plain(a.address)));
    }
    return own;
  }

  private refusal(address: string, port: number, own: readonly Ip[]): Refusal | undefined {
    const ip = plain(address);
    const kind = classify(ip);
    const isOwn = own.some((o) => sameIp(o, ip));
    if ((kind === 'loopback' || kind === 'unspecified' || isOwn) && this.options.ports().includes(port)) return 'self';
    if (kind === 'unspecified' || kind === 'multicast') return kind;
    const allowed = this.options.allowNetworks.filter(([network, bits]) => network.kind() === ip.kind() && ip.match(network, bits));
    // Allowing an intranet (10.0.0.0/8 for its LDAP) must not open the portal's own machine on its other
    // ports (its database, SSH): only an entry naming that very address does. Loopback is the operator's
    // own choice through its range.
    if (isOwn && kind !== 'loopback' && !allowed.some(([, bits]) => bits === (ip.kind() === 'ipv4' ? 32 : 128))) return 'host';
    if (allowed.length) return undefined;
    return kind ?? (isOwn ? 'host' : undefined);
  }

  /**
   * The addresses `host` may be reached at on `port`, every one checked; throws OutboundRefusedError
   * when none may be, or the resolver's own error (ENOTFOUND…) when the name has no address.
   */
  async resolve(host: string, port: number): Promise<dns.LookupAddress[]> {
    const name = host.replace(/^\[|\]$/g, '');
    const family = net.isIP(name);
    const found = family ? [{ address: name, family }] : await dns.promises.lookup(name, { all: true });
    const own = await this.ownAddresses();
    const checked = found.map((a) => ({ ...a, refusal: this.refusal(a.address, port, own) }));
    const allowed = checked.filter((a) => !a.refusal).map(({ address, family: f }) => ({ address, family: f }));
    const first = checked.find((a) => a.refusal)?.refusal;
    if (!allowed.length && first) throw new OutboundRefusedError(outboundRefusalText(first));
    return allowed;
  }

  /**
   * Why an address typed into a form is refused, judged without asking DNS (a literal address or
   * `localhost`); undefined when it may be saved. The connection is checked again when it is made.
   */
  literalRefusal(host: string, port: number): string | undefined {
    const bare = host.replace(/^\[|\]$/g, '');
    let name: string;
    try {
      // The WHATWG URL parser writes integer, hex and octal IPv4 forms (2130706433, 0x7f.1) as dotted quads.
      name = new URL(`http://${net.isIPv6(bare) ? `[${bare}]` : bare}`).hostname.replace(/^\[|\]$/g, '');
    } catch {
      return undefined;
    }
    const address = name === 'localhost' || name.endsWith('.localhost') ? '127.0.0.1' : net.isIP(name) ? name : undefined;
    if (!address) return undefined;
    const own = Object.values(os.networkInterfaces())
      .flat()
      .flatMap((entry) => (entry ? [plain(entry.address.replace(/%.*$/, ''))] : []));
    const refusal = this.refusal(address, port, own);
    return refusal && outboundRefusalText(refusal);
  }
}

/** A `lookup` that answers the addresses already resolved and checked, whatever name the socket asks for. */
function fixedLookup(addresses: dns.LookupAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
    const list = wanted.length ? wanted : addresses;
    const answer = callback as (error: Error | null, address: string | dns.LookupAddress[], family?: number) => void;
    if (options.all) answer(null, list);
    else answer(null, list[0]?.address ?? '', list[0]?.family);
  };
}

export interface OutboundAnswer {
  status: number;
  /** The Location header of a redirect (never followed). */
  location: string | null;
}

type OutboundInit = { method: 'GET' | 'POST'; headers?: Record<string, string>; body?: string; signal: AbortSignal };

/** Connects through `guard` and sends the request; answers the response with its body unread. */
async function send(guard: OutboundGuard, url: URL, init: OutboundInit): Promise<http.IncomingMessage> {
  const secure = url.protocol === 'https:';
  const port = Number(url.port) || (secure ? 443 : 80);
  const abort = new Promise<never>((_, reject) => {
    if (init.signal.aborted) reject(init.signal.reason as Error);
    init.signal.addEventListener('abort', () => reject(init.signal.reason as Error), { once: true });
  });
  abort.catch(() => undefined);
  const addresses = await Promise.race([guard.resolve(url.hostname, port), abort]);
  return new Promise<http.IncomingMessage>((resolve, reject) => {
    const request = (secure ? https : http).request(
      url,
      { method: init.method, headers: init.headers ?? {}, lookup: fixedLookup(addresses), signal: init.signal, agent: false },
      resolve,
    );
    request.once('error', reject);
    request.end(init.body);
  });
}

/**
 * One HTTP(S) request to a tenant's address through `guard`: the body of the answer is never read,
 * a redirect is never followed, and `signal` ends it (DNS included). TLS checks the certificate
 * against the host name of the URL, not the address connected to.
 */
export async function outboundRequest(guard: OutboundGuard, url: URL, init: OutboundInit): Promise<OutboundAnswer> {
  const response = await send(guard, url, init);
  response.destroy();
  return { status: response.statusCode ?? 0, location: response.headers.location ?? null };
}

/** An answer whose body is larger than the caller takes; the connection was closed when it got there. */
export class OutboundTooLargeError extends Error {
  readonly code = 'EOUTBOUND_TOO_LARGE';
  constructor(readonly maxBytes: number) {
    super(`the answer is larger than ${maxBytes} bytes`);
  }
}

/** The answer's body as UTF-8, at most `maxBytes` by Content-Length or by what came (else the connection closes). */
async function readText(response: http.IncomingMessage, maxBytes: number): Promise<string> {
  if (Number(response.headers['content-length']) > maxBytes) {
    response.destroy();
    throw new OutboundTooLargeError(maxBytes);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      response.destroy();
      throw new OutboundTooLargeError(maxBytes);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A GET of a document at a tenant's address (an SP's metadata) through `guard`, as `outboundRequest`:
 * no redirect followed, `signal` ends it. The body of a 2xx answer is read as UTF-8 as it arrives, at
 * most `maxBytes` (a longer one, by Content-Length or by what came, is dropped with OutboundTooLargeError).
 */
export async function outboundGetText(
  guard: OutboundGuard,
  url: URL,
  init: { headers?: Record<string, string>; maxBytes: number; signal: AbortSignal },
): Promise<OutboundAnswer & { text: string }> {
  const response = await send(guard, url, { method: 'GET', ...(init.headers ? { headers: init.headers } : {}), signal: init.signal });
  const status = response.statusCode ?? 0;
  const location = response.headers.location ?? null;
  if (status < 200 || status > 299) {
    response.destroy();
    return { status, location, text: '' };
  }
  return { status, location, text: await readText(response, init.maxBytes) };
}

/** Node's error code of a failed fetch: undici puts the socket's error in `cause` (an AggregateError when several addresses were tried). */
export function errorCodeOf(err: unknown): string | undefined {
  const seen = new Set<unknown>();
  let current: unknown = err;
  while (typeof current === 'object' && current !== null && !seen.has(current)) {
    seen.add(current);
    const { code, errors, cause } = current as { code?: unknown; errors?: unknown; cause?: unknown };
    if (typeof code === 'string' && code !== 'UND_ERR_SOCKET') return code;
    current = Array.isArray(errors) && errors.length ? errors[0] : cause;
  }
  return undefined;
}

/**
 * A request to a tenant's address through `guard` whose answer is read whatever its status (an OAuth
 * token endpoint's error is a JSON body with 400), at most `maxBytes`; no redirect followed, `signal`
 * ends it. The answer's headers come back as the server sent them (lower-case names, joined).
 */
export async function outboundExchange(
  guard: OutboundGuard,
  url: URL,
  init: OutboundInit & { maxBytes: number },
): Promise<OutboundAnswer & { text: string; headers: Record<string, string> }> {
  const response = await send(guard, url, init);
  const status = response.statusCode ?? 0;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return { status, location: response.headers.location ?? null, headers, text: await readText(response, init.maxBytes) };
}
