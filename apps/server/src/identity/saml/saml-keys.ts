import forge from 'node-forge';
import type { SecretBox } from '../../platform/lib/sealed-secret.js';
import type { SamlRepository } from './saml-repository.js';

/** The system secret (system_secret) whose key seals the identity provider's private keys. */
export const SAML_KEY_SECRET = 'saml-signing-key';
const KEY_PURPOSE = 'saml-signing-key';

/**
 * How long a new generation is published before it signs: service providers commonly refresh the IdP
 * metadata daily (its usual cacheDuration), so by then they trust the new certificate as well.
 */
export const SAML_KEY_ACTIVATION_MS = 24 * 3600_000;
/** How long a replaced certificate stays in the metadata after the new one signs (late refreshers). */
export const SAML_RETIRED_KEY_MS = 7 * 24 * 3600_000;
/** A certificate's validity: SAML uses the key, not the dates (SAML Metadata Interop §2.5), so a long one. */
const CERTIFICATE_YEARS = 10;

/** A self-signed RSA-2048 certificate (SHA-256) and its private key, both PEM. */
function generate(subject: string): { certificate: string; privateKey: string } {
  const pair = forge.pki.rsa.generateKeyPair({ bits: 2048 });
  const cert = forge.pki.createCertificate();
  cert.publicKey = pair.publicKey;
  cert.serialNumber = `01${forge.util.bytesToHex(forge.random.getBytesSync(15))}`;
  cert.validity.notBefore = new Date();
  cert.validity.notAfter = new Date(Date.now() + CERTIFICATE_YEARS * 365 * 86_400_000);
  const name = [{ name: 'commonName', value: subject }];
  cert.setSubject(name);
  cert.setIssuer(name);
  cert.sign(pair.privateKey, forge.md.sha256.create());
  return { certificate: forge.pki.certificateToPem(cert), privateKey: forge.pki.privateKeyToPem(pair.privateKey) };
}

/** The key that signs now and every certificate the metadata publishes (the signing one first). */
export interface SamlKeySet {
  signing: { certificate: string; privateKey: string };
  published: string[];
}

/**
 * The identity provider's signing keys, kept in the database so every instance signs with and publishes
 * the same ones: the first start generates one, `npm run saml:rotate-keys` adds a generation that is
 * published at once and signs `SAML_KEY_ACTIVATION_MS` later; the one it replaces keeps signing until
 * then and stays published `SAML_RETIRED_KEY_MS` longer (both in the metadata during the roll-over).
 */
export class SamlKeys {
  constructor(
    private readonly repository: SamlRepository,
    private readonly box: SecretBox,
    private readonly subject: string,
  ) {}

  private async add(generation: number, now: Date): Promise<void> {
    const key = generate(this.subject);
    await this.repository.addKey(
      { generation, certificate: key.certificate, sealedPrivateKey: this.box.seal(key.privateKey, KEY_PURPOSE) },
      now.toISOString(),
    );
  }

  /** Generates the first key when there is none (first start). */
  async ensure(now = new Date()): Promise<void> {
    if ((await this.repository.latestGeneration()) > 0) return;
    await this.add(1, now);
  }

  /** Adds a generation; answers when it starts signing. */
  async rotate(now = new Date()): Promise<{ generation: number; signsFrom: Date }> {
    const generation = (await this.repository.latestGeneration()) + 1;
    await this.add(generation, now);
    const signsFrom = new Date(now.getTime() + SAML_KEY_ACTIVATION_MS);
    await this.repository.retireBefore(generation, new Date(signsFrom.getTime() + SAML_RETIRED_KEY_MS).toISOString());
    return { generation, signsFrom };
  }

  /**
   * The published keys: the newest one published for the activation time signs (the first key at once:
   * nothing was published before it); a key this instance cannot unseal (another system key) never signs.
   */
  async keySet(now = new Date()): Promise<SamlKeySet> {
    const stored = await this.repository.publishedKeys(now.toISOString());
    const oldest = Math.min(...stored.map((k) => k.generation));
    for (const key of stored) {
      const ready = key.generation === oldest || Date.parse(key.createdAt) + SAML_KEY_ACTIVATION_MS <= now.getTime();
      const privateKey = ready ? this.box.open(key.sealedPrivateKey, KEY_PURPOSE) : undefined;
      if (privateKey === undefined) continue;
      const others = stored.filter((k) => k !== key).map((k) => k.certificate);
      return { signing: { certificate: key.certificate, privateKey }, published: [key.certificate, ...others] };
    }
    throw new Error('the SAML identity provider has no signing key it can use');
  }
}
