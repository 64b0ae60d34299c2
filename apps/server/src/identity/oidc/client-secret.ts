import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const PREFIX = 'sha256:';

/** A new client secret: 256 random bits, shown once (at creation and on 重置密钥), never stored. */
export function newClientSecret(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * What is stored of a client secret. A secret is 256 random bits, not a password a person chose: a
 * plain SHA-256 cannot be reversed or guessed (RFC 6819 §5.1.4.1.3), and unlike a password hash it
 * costs nothing per client_credentials grant.
 */
export function hashClientSecret(secret: string): string {
  return PREFIX + createHash('sha256').update(secret, 'utf8').digest('base64url');
}

/** Whether `presented` is the secret `stored` was made from (constant time). */
export function clientSecretMatches(stored: string, presented: unknown): boolean {
  if (typeof presented !== 'string' || !stored.startsWith(PREFIX)) return false;
  const expected = Buffer.from(stored);
  const actual = Buffer.from(hashClientSecret(presented));
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** The claim of a client_credentials token that carries secretGeneration (the token's `extra`). */
export const SECRET_GENERATION_CLAIM = 'portal_secret_generation';

/**
 * What a machine client's tokens record of the secret they were issued under (a digest of its stored
 * hash): after 重置密钥 the stored hash differs, and the tokens of the old secret stop working.
 */
export function secretGeneration(stored: string): string {
  return createHash('sha256').update(stored, 'utf8').digest('base64url').slice(0, 16);
}
