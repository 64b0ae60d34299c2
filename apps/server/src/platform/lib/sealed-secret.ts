import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Secrets the portal must use again later (an LDAP bind password, a chat platform's app secret) are
 * kept sealed with AES-256-GCM (NIST SP 800-38D: 96-bit random IV, 128-bit tag) under a key shared
 * through system_secret, so a copy of the sources' rows, an export or a log of them does not reveal
 * them (a dump of the whole database, key included, does: back it up as a secret). `purpose` is bound as
 * additional data: a value sealed for one use does not open as another.
 */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('SecretBox needs a 256-bit key');
  }

  seal(plain: string, purpose: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(purpose));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
  }

  /** The plain text, or undefined when the value was not sealed by this key for this purpose. */
  open(sealed: string, purpose: string): string | undefined {
    const [version, payload] = sealed.split('.');
    if (version !== VERSION || !payload) return undefined;
    const raw = Buffer.from(payload, 'base64');
    if (raw.length < IV_BYTES + TAG_BYTES) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(purpose));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      return undefined;
    }
  }
}
