import { type Algorithm, hash, verify } from '@node-rs/argon2';

// OWASP password storage cheat sheet: argon2id, m=19 MiB, t=2, p=1 (the library's defaults).
const OPTIONS = { algorithm: 2 as Algorithm.Argon2id } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

/** A hash of nothing, verified for unknown accounts so a login takes as long whether or not it exists. */
let dummyHash: Promise<string> | undefined;

export async function verifyPassword(passwordHash: string | undefined, password: string): Promise<boolean> {
  if (!passwordHash) {
    dummyHash ??= hashPassword('portal-dummy-password');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
