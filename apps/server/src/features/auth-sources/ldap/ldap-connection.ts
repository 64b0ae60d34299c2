import net from 'node:net';
import tls from 'node:tls';
import { type LdapAddress, type LdapSourceConfig, parseLdapUrl } from '@portal/shared';
import { Client, type ClientOptions, ResultCodeError } from 'ldapts';
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
 * diagnostic message (`Invalid Credentials (49)`, `No Such Object (32): …`), or the socket's error text.
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

/** Resolves once `socket` is connected (`event`) within `timeoutMs`; rejects with the socket's own error. */
function connected(socket: net.Socket, event: 'connect' | 'secureConnect', address: LdapAddress, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`connect ETIMEDOUT ${address.host}:${address.port} (${timeoutMs} ms)`));
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

/** A client bound to nothing yet, on an open connection; `close()` unbinds and ends the connection. */
export interface LdapConnection {
  client: Client;
  close(): Promise<void>;
}

/**
 * A connection to the source's server (TCP or TLS, then StartTLS when configured), opened apart from
 * the first operation so that a server out of reach reads apart from a refused bind. Throws
 * DirectoryError with the socket's or the server's own text.
 */
export async function connectLdap(config: LdapSourceConfig, timeoutMs: number): Promise<LdapConnection> {
  const address = parseLdapUrl(config.url);
  if (!address) throw new DirectoryError(`LDAP 地址无效：${config.url}`);
  const { host, port } = address;
  const serverName = net.isIP(host) ? {} : { servername: host };
  let socket: net.Socket;
  // ldapts takes an existing socket from createConnection / createSecureConnection (its ClientOptions).
  let transport: Pick<ClientOptions, 'createConnection' | 'createSecureConnection'>;
  try {
    if (address.secure) {
      const secure = tls.connect({ host, port, ...serverName });
      socket = secure;
      transport = { createSecureConnection: () => secure };
      await connected(secure, 'secureConnect', address, timeoutMs);
    } else {
      const plain = net.connect({ host, port });
      socket = plain;
      transport = { createConnection: () => plain };
      await connected(plain, 'connect', address, timeoutMs);
    }
  } catch (error) {
    throw new DirectoryError(`无法连接 LDAP 服务器：${sourceText(error)}`);
  }
  const client = new Client({
    url: `${address.secure ? 'ldaps' : 'ldap'}://${net.isIPv6(host) ? `[${host}]` : host}:${port}`,
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
      throw new DirectoryError(`StartTLS 失败：${sourceText(error)}`);
    }
  }
  return { client, close };
}
