import net from 'node:net';
import tls from 'node:tls';
import { type LdapAddress, type LdapSourceConfig, parseLdapUrl } from '@portal/shared';
import { Client, type ClientOptions, ResultCodeError } from 'ldapts';
import { type OutboundGuard, OutboundRefusedError, errorCodeOf } from '../../../platform/lib/outbound.js';
import { DirectoryError } from '../directory.js';

/** RFC 4511 §4.1.9 result codes by the names LDAP tools print (`Invalid Credentials (49)`). */
const RESULT_NAMES: Record<number, string> = {
  1: 'Operations Error',
  2: 'Protocol Error',
  3: 'Time Limit Exceeded',
  4: 'Size Limit Exceeded',
  7: 'Auth Method Not Supported',
  8: 'Stronger Auth Required',
  10: 'Referral',
  11: 'Admin Limit Exceeded',
  12: 'Unavailable Critical Extension',
  13: 'Confidentiality Required',
  14: 'SASL Bind In Progress',
  16: 'No Such Attribute',
  17: 'Undefined Attribute Type',
  18: 'Inappropriate Matching',
  19: 'Constraint Violation',
  20: 'Attribute Or Value Exists',
  21: 'Invalid Attribute Syntax',
  32: 'No Such Object',
  33: 'Alias Problem',
  34: 'Invalid DN Syntax',
  36: 'Alias Dereferencing Problem',
  48: 'Inappropriate Authentication',
  49: 'Invalid Credentials',
  50: 'Insufficient Access Rights',
  51: 'Busy',
  52: 'Unavailable',
  53: 'Unwilling To Perform',
  54: 'Loop Detect',
  64: 'Naming Violation',
  65: 'Object Class Violation',
  66: 'Not Allowed On Non-Leaf',
  67: 'Not Allowed On RDN',
  68: 'Entry Already Exists',
  69: 'Object Class Mods Prohibited',
  71: 'Affects Multiple DSAs',
  80: 'Other',
};

/** The LDAP result code of a refusal the server sent, or undefined for a network or TLS failure. */
export const resultCodeOf = (error: unknown) => (error instanceof ResultCodeError ? error.code : undefined);

/**
 * The directory's own words for a failure: the result code's name and number with the server's
 * diagnostic message (`Invalid Credentials (49)`, `No Such Object (32): …`), or the socket's error
 * text. For the server's log only: the console shows failureText's Chinese instead.
 */
export function sourceText(error: unknown): string {
  if (error instanceof ResultCodeError) {
    // ldapts appends " Code: 0x31" to the server's diagnostic message.
    const diagnostic = error.message.replace(/\s*Code: 0x[0-9a-f]+$/i, '').trim();
    const name = `${RESULT_NAMES[error.code] ?? 'LDAP Error'} (${error.code})`;
    return diagnostic ? `${name}: ${diagnostic}` : name;
  }
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\s+/g, ' ').trim() || 'unknown error';
}

/** What the portal was doing when the server refused: the same result code means different things. */
export type LdapStage = 'bind' | 'userBind' | 'search';

/** RFC 4511 §4.1.9 result codes, said in Chinese for the console (the server's own text goes to the log). */
function resultReason(code: number, stage: LdapStage): string {
  switch (code) {
    case 49:
      return stage === 'bind' ? '绑定账号或密码错误' : '用户名或密码错误';
    case 32:
      return stage === 'search' ? '基准 DN 不存在' : '绑定账号不存在';
    case 34:
      return 'DN 格式不正确，服务器无法识别';
    case 48:
      return '服务器不接受该认证方式';
    case 50:
      return '账号没有权限执行该操作';
    case 53:
      return '服务器拒绝执行（账号可能已停用，或服务器要求加密连接）';
    case 8:
    case 13:
      return '服务器要求加密连接，请使用 ldaps:// 或开启 StartTLS';
    case 7:
      return '服务器不支持简单绑定';
    case 51:
      return '服务器繁忙，请稍后再试';
    case 52:
      return '服务器暂不可用，请稍后再试';
    case 3:
      return '服务器处理超时';
    case 4:
    case 11:
      return '结果超过了服务器允许的数量，请缩小基准 DN 或过滤条件';
    case 12:
      return '服务器不支持所需的扩展操作';
    case 2:
      return '服务器不支持该操作（协议错误）';
    case 17:
    case 18:
      return '过滤条件中的属性服务器无法识别';
    case 10:
      return '服务器返回转介（referral），请填写条目所在的服务器';
    default:
      return `服务器返回错误（LDAP 结果码 ${code}）`;
  }
}

/** Why the server's certificate was not accepted (Node's X.509 verification codes), in Chinese. */
function certificateReason(code: string, host: string): string | undefined {
  if (code === 'DEPTH_ZERO_SELF_SIGNED_CERT' || code === 'SELF_SIGNED_CERT_IN_CHAIN') return '服务器证书是自签名证书，不受信任';
  if (code === 'CERT_HAS_EXPIRED') return '服务器证书已过期';
  if (code === 'CERT_NOT_YET_VALID') return '服务器证书尚未生效';
  if (code === 'CERT_REVOKED') return '服务器证书已被吊销';
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return `服务器证书与地址中的主机名 ${host} 不符`;
  if (/^UNABLE_TO_(GET_ISSUER_CERT|VERIFY_LEAF_SIGNATURE)|^CERT_UNTRUSTED$|^INVALID_CA$|^CERT_CHAIN_TOO_LONG$/.test(code)) {
    return '无法验证服务器证书的签发机构（证书链不完整或签发机构不受信任）';
  }
  if (code.includes('CERT')) return '服务器证书无效';
  return undefined;
}

const hostPort = ({ host, port }: LdapAddress) => `${net.isIPv6(host) ? `[${host}]` : host}:${port}`;

/**
 * A failure to reach the server, said as what happened: 无法连接到 10.0.0.8:389（超时）, 证书校验失败：…,
 * TLS 握手失败：… (`tls`: the failure came while TLS was being set up).
 */
function connectFailure(error: unknown, address: LdapAddress, tls: boolean): string {
  const at = hostPort(address);
  if (error instanceof OutboundRefusedError) return `无法连接到 ${at}：${error.message}`;
  const code = errorCodeOf(error);
  const certificate = code && certificateReason(code, address.host);
  if (certificate) return `证书校验失败：${certificate}`;
  if (tls && (code === 'ECONNRESET' || code === 'EPIPE' || code?.startsWith('ERR_SSL_') || code?.startsWith('ERR_TLS_'))) {
    return `TLS 握手失败：${at} 没有以 TLS 应答，请确认该端口提供 ldaps://，或改用 ldap://`;
  }
  switch (code) {
    case 'ETIMEDOUT':
      return `无法连接到 ${at}（超时）`;
    case 'ECONNREFUSED':
      return `无法连接到 ${at}（连接被拒绝，该端口没有服务在监听）`;
    case 'ENOTFOUND':
    case 'EAI_NONAME':
      return `无法连接到 ${at}（域名无法解析）`;
    case 'EAI_AGAIN':
      return `无法连接到 ${at}（域名解析暂时失败）`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `无法连接到 ${at}（网络不可达）`;
    case 'ECONNRESET':
    case 'EPIPE':
      return `无法连接到 ${at}（连接被对方断开）`;
    default:
      return `无法连接到 ${at}`;
  }
}

/**
 * What went wrong in an operation on an open connection, in Chinese: the result code the server sent
 * (by `stage`), or the connection lost or timed out. No library or server text: that is for the log.
 */
export function failureText(error: unknown, stage: LdapStage): string {
  if (error instanceof ResultCodeError) return resultReason(error.code, stage);
  const text = error instanceof Error ? error.message : '';
  if (/timed out|timeout/i.test(text)) return '服务器没有在限定时间内响应（超时）';
  const code = errorCodeOf(error);
  if (code === 'ECONNRESET' || code === 'EPIPE' || /closed/i.test(text)) return '连接被服务器断开';
  return '与服务器通信失败';
}

/** Resolves once `socket` is connected (`event`) within `timeoutMs`; rejects with the socket's own error. */
function connected(socket: net.Socket, event: 'connect' | 'secureConnect', timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.destroy();
      reject(Object.assign(new Error('connect timed out'), { code: 'ETIMEDOUT' }));
    }, timeoutMs);
    const failed = (error: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    socket.once('error', failed);
    socket.once(event, () => {
      clearTimeout(timer);
      socket.off('error', failed);
      // Until the client takes the socket over (it replaces the error listeners), an error only closes it.
      socket.on('error', () => socket.destroy());
      resolve();
    });
  });
}

/** The checked address to connect to, or a rejection (ETIMEDOUT) when resolving takes longer than `timeoutMs`. */
async function resolved(guard: OutboundGuard, address: LdapAddress, timeoutMs: number): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error('lookup timed out'), { code: 'ETIMEDOUT' })), timeoutMs);
  });
  try {
    const [first] = await Promise.race([guard.resolve(address.host, address.port), late]);
    if (!first) throw Object.assign(new Error('no address'), { code: 'ENOTFOUND' });
    return first.address;
  } finally {
    clearTimeout(timer);
  }
}

/** A client bound to nothing yet, on an open connection; `close()` unbinds and ends the connection. */
export interface LdapConnection {
  client: Client;
  close(): Promise<void>;
}

export interface LdapConnectOptions {
  timeoutMs: number;
  /** The source's address is a tenant's word: where it resolves is checked before connecting. */
  guard: OutboundGuard;
  /** Where the library's and the server's own words go (never to the console). */
  log?: { warn(details: object, message: string): void };
}

/**
 * A connection to the source's server (TCP or TLS, then StartTLS when configured), opened apart from
 * the first operation so that a server out of reach reads apart from a refused bind. The host is
 * resolved and checked once and the socket opened to that very address; TLS still checks the
 * certificate against the host name. Throws DirectoryError saying in Chinese what happened.
 */
export async function connectLdap(config: LdapSourceConfig, options: LdapConnectOptions): Promise<LdapConnection> {
  const { timeoutMs, guard, log } = options;
  const address = parseLdapUrl(config.url);
  if (!address) throw new DirectoryError(`LDAP 地址无效：${config.url}`);
  const { host, port } = address;
  const serverName = net.isIP(host) ? {} : { servername: host };
  let socket: net.Socket;
  // ldapts takes an existing socket from createConnection / createSecureConnection (its ClientOptions).
  let transport: Pick<ClientOptions, 'createConnection' | 'createSecureConnection'>;
  try {
    const ip = await resolved(guard, address, timeoutMs);
    if (address.secure) {
      const secure = tls.connect({ host: ip, port, ...serverName });
      socket = secure;
      transport = { createSecureConnection: () => secure };
      await connected(secure, 'secureConnect', timeoutMs);
    } else {
      const plain = net.connect({ host: ip, port });
      socket = plain;
      transport = { createConnection: () => plain };
      await connected(plain, 'connect', timeoutMs);
    }
  } catch (error) {
    log?.warn({ url: config.url, err: sourceText(error) }, 'LDAP connection failed');
    throw new DirectoryError(connectFailure(error, address, address.secure));
  }
  const client = new Client({
    url: `${address.secure ? 'ldaps' : 'ldap'}://${hostPort(address)}`,
    timeout: timeoutMs,
    connectTimeout: timeoutMs,
    ...transport,
  });
  const close = async () => {
    try {
      await client.unbind();
    } catch {
      // Nothing to answer: the connection ends below whatever the server said.
    } finally {
      socket.destroy();
    }
  };
  if (config.startTls) {
    try {
      // RFC 4513 §3.1.3: the server's certificate is checked against the host name of the address.
      await client.startTLS({ host, ...serverName });
    } catch (error) {
      await close();
      log?.warn({ url: config.url, err: sourceText(error) }, 'LDAP StartTLS failed');
      if (error instanceof ResultCodeError) {
        throw new DirectoryError(
          error.code === 2 ? 'StartTLS 失败：服务器不支持 StartTLS' : `StartTLS 失败：${resultReason(error.code, 'bind')}`,
        );
      }
      const code = errorCodeOf(error);
      const certificate = code && certificateReason(code, host);
      throw new DirectoryError(certificate ? `证书校验失败：${certificate}` : `StartTLS 失败：${failureText(error, 'bind')}`);
    }
  }
  return { client, close };
}
