import { createHmac } from 'node:crypto';

/** RFC 4648 base32 (an authenticator key's alphabet), decoded here rather than by the server's library. */
export function base32Decode(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of text.replace(/=+$/, '').toUpperCase()) bits += alphabet.indexOf(char).toString(2).padStart(5, '0');
  const bytes: number[] = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}

/** RFC 6238 TOTP (HMAC-SHA1, 30-second steps, RFC 4226 dynamic truncation), independent of the server's otplib. */
export function totp(key: Buffer, atMs: number, digits = 6): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(atMs / 1000 / 30)));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = (mac[mac.length - 1] ?? 0) & 0x0f;
  const byte = (i: number) => mac[offset + i] ?? 0;
  const binary = ((byte(0) & 0x7f) << 24) | (byte(1) << 16) | (byte(2) << 8) | byte(3);
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** The authenticator key an enrolment page shows (its 密钥 line). */
export const enrolmentKey = (html: string) => base32Decode((/密钥：<code>([A-Z2-7 ]+)<\/code>/.exec(html)?.[1] ?? '').replace(/ /g, ''));
