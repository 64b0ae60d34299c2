import net from 'node:net';
import { CONSOLE_IP_RULES_MAX, type ConsoleIpRules, ConsoleIpRulesMessage, Role } from '@portal/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import ipaddr from 'ipaddr.js';
import { auditBy, auditEntryOf, recordAudit } from '../../platform/audit/audit-log.js';
import { inEnterpriseTransaction } from '../../platform/db/transaction.js';
import type { Actor } from '../../platform/lib/actor.js';
import { BadRequestError, ForbiddenError, NotFoundError } from '../../platform/lib/errors.js';

type Ip = ipaddr.IPv4 | ipaddr.IPv6;
type Network = [Ip, number];

/** How long an instance answers from an enterprise's list it read; a save clears this instance's copies at once. */
const LIST_TTL_MS = 30_000;

const width = (ip: Ip) => (ip.kind() === 'ipv4' ? 32 : 128);

/**
 * An entry as typed (an address or a CIDR) as its network, or undefined when it is neither. Addresses are
 * read strictly (`net.isIP`: dotted quads, RFC 4291 text; no zone), not in ipaddr.js's lenient forms such as
 * `10.1` or hex; `192.168.1.10/24` is the network `192.168.1.0/24`; an IPv4-mapped network is its IPv4 one.
 */
export function parseNetwork(entry: string): Network | undefined {
  const [address = '', bitsText, ...rest] = entry.trim().split('/');
  if (rest.length || address.includes('%') || !net.isIP(address)) return undefined;
  if (bitsText !== undefined && !/^\d{1,3}$/.test(bitsText)) return undefined;
  const ip = ipaddr.parse(address);
  const bits = bitsText === undefined ? width(ip) : Number(bitsText);
  if (bits > width(ip)) return undefined;
  const cidr = `${address}/${bits}`;
  const network = ip instanceof ipaddr.IPv6 ? ipaddr.IPv6.networkAddressFromCIDR(cidr) : ipaddr.IPv4.networkAddressFromCIDR(cidr);
  if (network instanceof ipaddr.IPv6 && network.isIPv4MappedAddress() && bits >= 96) return [network.toIPv4Address(), bits - 96];
  return [network, bits];
}

/** A network as stored and shown: a single address without its prefix length, else `address/bits` (RFC 5952 for IPv6). */
/** A client's address as people write it: an IPv4 client of a server listening on `::` is `::ffff:a.b.c.d` to Node. */
const shown = (address: string) => (ipaddr.isValid(address) ? ipaddr.process(address).toString() : address);

const formatNetwork = ([ip, bits]: Network) => (bits === width(ip) ? ip.toString() : `${ip.toString()}/${bits}`);

/** Whether `address` (a request's, an IPv4-mapped one read as IPv4) lies in one of `networks`. */
function inside(networks: readonly Network[], address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const ip = ipaddr.process(address);
  return networks.some(([network, bits]) => network.kind() === ip.kind() && ip.match(network, bits));
}

/**
 * 安全设置's 控制台访问, a console IP allow-list as cloud consoles offer: an enterprise may list the networks
 * its accounts use the console from; the console's API guard (`authenticate`) asks `check` on every call.
 * Platform operators administer every enterprise and are held by none's list.
 */
function createConsoleAccessService(app: FastifyInstance) {
  const { db } = app.database;
  const repository = app.consoleIpRuleRepository;
  // Every console call reads its enterprise's list: kept parsed in memory, per enterprise, briefly.
  const lists = app.caches.create<{ networks: Network[] }>('console-access', {
    max: 10_000,
    ttl: LIST_TTL_MS,
    load: async (key) => ({
      networks: (await repository.ofEnterprise(Number(key))).map(parseNetwork).filter((n): n is Network => n !== undefined),
    }),
  });

  /** 403 when the caller's enterprise lists networks and the caller's address lies in none; operators pass. */
  async function check(caller: Pick<Actor, 'enterpriseId' | 'authorities' | 'ip'>): Promise<void> {
    if (caller.enterpriseId === null || caller.authorities.includes(Role.PlatformOperator)) return;
    const networks = (await lists.get(String(caller.enterpriseId)))?.networks ?? [];
    if (networks.length && !inside(networks, caller.ip)) {
      throw new ForbiddenError(`当前 IP 地址（${shown(caller.ip)}）不在企业允许访问控制台的范围内`);
    }
  }

  async function rulesOf(enterpriseId: number, actor: Actor): Promise<ConsoleIpRules> {
    return { rules: await repository.ofEnterprise(enterpriseId), currentIp: shown(actor.ip) };
  }

  /**
   * Saves the list typed in the form (one entry a line; blank lines skipped but counted, so a refusal names the
   * form's line): each entry checked, duplicates dropped, at most CONSOLE_IP_RULES_MAX. A list that leaves out
   * the caller's own address is refused, so an administrator cannot lock themself out.
   */
  async function save(enterpriseId: number, lines: readonly string[], actor: Actor): Promise<string[]> {
    const networks = new Map<string, Network>();
    for (const [index, line] of lines.entries()) {
      const entry = line.trim();
      if (!entry) continue;
      const network = parseNetwork(entry);
      if (!network) throw new BadRequestError(`第 ${index + 1} 行「${entry}」不是有效的 IP 地址或 CIDR 网段`);
      networks.set(formatNetwork(network), network);
    }
    if (networks.size > CONSOLE_IP_RULES_MAX) throw new BadRequestError(ConsoleIpRulesMessage.tooMany);
    if (networks.size && !inside([...networks.values()], actor.ip)) {
      throw new BadRequestError(`当前 IP 地址（${shown(actor.ip)}）不在列表内，保存后将无法访问控制台，请先加入该地址`);
    }
    const rules = [...networks.keys()];
    await inEnterpriseTransaction(db, enterpriseId, async (trx) => {
      await repository.replace(trx, enterpriseId, rules);
      await auditBy(trx, actor, 'security.ip-rules', '控制台访问', 'success', rules.length ? rules.join('，') : '不限制');
    });
    app.caches.clear('console-access');
    return rules;
  }

  async function existing(enterpriseId: number): Promise<void> {
    if (!(await repository.enterpriseExists(enterpriseId))) throw new NotFoundError('企业不存在');
  }

  /** 租户管理: an enterprise's list as an operator sees it. */
  async function rulesOfTenant(enterpriseId: number): Promise<string[]> {
    await existing(enterpriseId);
    return repository.ofEnterprise(enterpriseId);
  }

  /**
   * 租户管理's 清除限制: the way back for an enterprise whose administrators all left its listed networks. The
   * enterprise's own 操作日志 records it, so its administrators see who lifted their restriction.
   */
  async function clearForTenant(enterpriseId: number, actor: Actor): Promise<void> {
    await existing(enterpriseId);
    await inEnterpriseTransaction(db, enterpriseId, async (trx) => {
      await repository.replace(trx, enterpriseId, []);
      const entry = auditEntryOf(actor, 'security.ip-rules', '控制台访问', 'success', '平台运营清除限制：不限制');
      await recordAudit(trx, actor.log, { ...entry, enterpriseId });
    });
    app.caches.clear('console-access');
  }

  return { check, rulesOf, save, rulesOfTenant, clearForTenant };
}

export type ConsoleAccessService = ReturnType<typeof createConsoleAccessService>;

declare module 'fastify' {
  interface FastifyInstance {
    consoleAccessService: ConsoleAccessService;
  }
}

export default fp(
  async (app) => {
    app.decorate('consoleAccessService', createConsoleAccessService(app));
  },
  { name: 'console-access', dependencies: ['console-ip-rule-repository'] },
);
