import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { OutboundGuard, parseOutboundNetwork } from '../outbound.js';

const guard = (allow: string[] = [], options: { ports?: number[]; publicUrl?: string } = {}) =>
  new OutboundGuard({ allowNetworks: allow.map(parseOutboundNetwork), publicUrl: options.publicUrl, ports: () => options.ports ?? [] });

/** The refusal of connecting to `address` on `port`, or 'allowed'. */
async function verdict(g: OutboundGuard, address: string, port = 443): Promise<string> {
  try {
    await g.resolve(address, port);
    return 'allowed';
  } catch (error) {
    return (error as Error).message;
  }
}

describe('OutboundGuard', () => {
  it('refuses every special-purpose address, in any notation, and lets public ones through', async () => {
    const strict = guard();
    const cases: [string, string][] = [
      ['127.0.0.1', '回环地址'],
      ['127.8.9.10', '回环地址'],
      ['::1', '回环地址'],
      ['::ffff:127.0.0.1', '回环地址'],
      ['[::ffff:7f00:1]', '回环地址'],
      ['169.254.169.254', '链路本地地址'],
      ['::ffff:169.254.169.254', '链路本地地址'],
      ['fe80::1', '链路本地地址'],
      ['0.0.0.0', '未指定地址'],
      ['::', '未指定地址'],
      ['10.255.255.1', '内网地址'],
      ['172.16.0.1', '内网地址'],
      ['192.168.1.20', '内网地址'],
      ['100.64.0.1', '内网地址'],
      ['fd00::8', '内网地址'],
      ['224.0.0.1', '组播或广播地址'],
      ['255.255.255.255', '组播或广播地址'],
      ['ff02::1', '组播或广播地址'],
      ['192.0.2.1', '保留地址'],
      ['240.0.0.1', '保留地址'],
      ['64:ff9b::7f00:1', '保留地址'],
    ];
    for (const [address, reason] of cases) expect(await verdict(strict, address), address).toBe(`不允许连接到该地址（${reason}）`);
    expect(await verdict(strict, '8.8.8.8')).toBe('allowed');
    expect(await verdict(strict, '2001:4860:4860::8888')).toBe('allowed');
  });

  it('lets the operator open networks, never the portal itself', async () => {
    const intranet = guard(['10.0.0.0/8', '127.0.0.0/8', '::1'], { ports: [8070] });
    expect(await verdict(intranet, '10.20.30.40', 389)).toBe('allowed');
    expect(await verdict(intranet, '::ffff:10.20.30.40', 389)).toBe('allowed');
    expect(await verdict(intranet, '172.16.0.1', 389)).toBe('不允许连接到该地址（内网地址）');
    expect(await verdict(intranet, '127.0.0.1', 5432)).toBe('allowed');
    expect(await verdict(intranet, '127.0.0.1', 8070)).toBe('不允许连接到该地址（门户自身）');
    expect(await verdict(intranet, '::1', 8070)).toBe('不允许连接到该地址（门户自身）');
    expect(await verdict(intranet, 'localhost', 8070)).toBe('不允许连接到该地址（门户自身）');
    expect(await verdict(guard(['0.0.0.0/0']), '0.0.0.0', 80)).toBe('不允许连接到该地址（未指定地址）');
    // PUBLIC_URL's host is the portal at any port.
    expect(await verdict(guard([], { publicUrl: 'https://8.8.4.4' }), '8.8.4.4', 22)).toBe('不允许连接到该地址（门户所在主机）');
    // An allowed intranet does not open the portal's own address in it; naming that one address does.
    expect(await verdict(guard(['10.0.0.0/8'], { publicUrl: 'https://10.1.2.3' }), '10.1.2.3', 5432)).toBe(
      '不允许连接到该地址（门户所在主机）',
    );
    expect(await verdict(guard(['10.0.0.0/8'], { publicUrl: 'https://10.1.2.3' }), '10.1.2.4', 389)).toBe('allowed');
    expect(await verdict(guard(['10.1.2.3'], { publicUrl: 'https://10.1.2.3' }), '10.1.2.3', 389)).toBe('allowed');
  });

  it('judges a typed address without DNS: literal forms and localhost; names wait for the connection', () => {
    const strict = guard([], { ports: [8070] });
    expect(strict.literalRefusal('2130706433', 389)).toBe('不允许连接到该地址（回环地址）');
    expect(strict.literalRefusal('0x7f.1', 389)).toBe('不允许连接到该地址（回环地址）');
    expect(strict.literalRefusal('LOCALHOST', 389)).toBe('不允许连接到该地址（回环地址）');
    expect(strict.literalRefusal('[fe80::1]', 389)).toBe('不允许连接到该地址（链路本地地址）');
    expect(strict.literalRefusal('ldap.example.cn', 389)).toBeUndefined();
    expect(strict.literalRefusal('8.8.8.8', 389)).toBeUndefined();
    expect(guard(['127.0.0.0/8']).literalRefusal('localhost', 5432)).toBeUndefined();
  });

  it('reads OUTBOUND_ALLOW_NETWORKS as CIDRs or addresses and refuses anything else at start', () => {
    const networks = loadConfig({ OUTBOUND_ALLOW_NETWORKS: ' 10.0.0.0/8, fd00::/8 ,192.168.3.4' }).outboundAllowNetworks;
    expect(networks.map(([ip, bits]) => `${ip.toString()}/${bits}`)).toEqual(['10.0.0.0/8', 'fd00::/8', '192.168.3.4/32']);
    expect(loadConfig({}).outboundAllowNetworks).toEqual([]);
    expect(() => loadConfig({ OUTBOUND_ALLOW_NETWORKS: 'intranet' })).toThrow(
      'OUTBOUND_ALLOW_NETWORKS must list CIDRs or addresses, got "intranet"',
    );
  });
});
