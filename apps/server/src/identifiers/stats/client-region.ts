import { BlockList, isIPv4, isIPv6 } from 'node:net';
import { createRequire } from 'node:module';
import { CHINA_PROVINCES, REGION_INTRANET, REGION_UNKNOWN } from '@portal/shared';
import type ip2region from 'ip2region';
import { LRUCache } from 'lru-cache';

/** Loopback, private, link-local, shared (CGNAT) and unspecified addresses: a client on the operator's own network. */
const intranet = new BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const)
  intranet.addSubnet(address, prefix, 'ipv4');
for (const [address, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const)
  intranet.addSubnet(address, prefix, 'ipv6');

/** `::ffff:1.2.3.4` (an IPv4 client on a dual-stack socket) as `1.2.3.4`. */
function unmapped(ip: string): string {
  const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  return v4 ? v4[1]! : ip;
}

type Searcher = InstanceType<(typeof ip2region)['default']>;
let searcher: Searcher | undefined;

/**
 * ip2region's offline databases (IPv4, and IPv6 from 纯真, about 11 MB), read into memory once per
 * process; the counting plugin loads them at start, so a broken install fails then. The package is
 * CommonJS with an ES-style default export: required, so Node and the test runner see the same thing.
 */
export function ipDatabase(): Searcher {
  if (!searcher) {
    const { default: IP2Region } = createRequire(import.meta.url)('ip2region') as typeof ip2region;
    searcher = new IP2Region();
  }
  return searcher;
}

/** Regions of recent client addresses: a client's lookups come in runs, and a search costs tens of µs. */
const recent = new LRUCache<string, string>({ max: 10_000 });

/**
 * The region 标识统计 counts a lookup under: the province of the client's address in the
 * short form of CHINA_PROVINCES (the database says 广东省 but 北京, 广西), 内网 for an address of the
 * operator's own network, 未知 for one the database places nowhere in China. Only the most recent
 * addresses are kept in memory, never stored.
 */
export function regionOf(ip: string): string {
  let region = recent.get(ip);
  if (region === undefined) {
    region = lookUpRegion(ip);
    recent.set(ip, region);
  }
  return region;
}

function lookUpRegion(ip: string): string {
  const address = unmapped(ip);
  const family = isIPv4(address) ? 'ipv4' : isIPv6(address) ? 'ipv6' : undefined;
  if (!family) return REGION_UNKNOWN;
  if (intranet.check(address, family)) return REGION_INTRANET;
  let province: string | undefined;
  try {
    province = ipDatabase().search(address)?.province;
  } catch {
    return REGION_UNKNOWN;
  }
  if (!province) return REGION_UNKNOWN;
  return CHINA_PROVINCES.find((name) => province.startsWith(name)) ?? REGION_UNKNOWN;
}
