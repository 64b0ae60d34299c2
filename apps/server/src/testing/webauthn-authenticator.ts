import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';

/** The few CBOR items (RFC 8949) a "none" attestation and an EC2 COSE key need: unsigned/negative integers, byte and text strings, maps. */
type Cbor = number | string | Buffer | Map<Cbor, Cbor>;

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
  if (length < 0x10000) return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(length, 1);
  return b;
}

function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (Buffer.isBuffer(value)) return Buffer.concat([head(2, value.length), value]);
  return Buffer.concat([head(5, value.size), ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v)])]);
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();
const b64url = (data: Buffer) => data.toString('base64url');

/** UP (user present), UV (user verified), AT (attested credential data), WebAuthn §6.1. */
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

export interface SoftwarePasskey {
  credentialId: Buffer;
  privateKey: KeyObject;
  /** The user handle the relying party gave at registration. */
  userHandle: string;
  rpId: string;
  counter: number;
}

interface CreationOptions {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
}
interface RequestOptions {
  challenge: string;
  rpId?: string;
  allowCredentials?: { id: string }[];
}

/**
 * A software authenticator for tests, written from WebAuthn Level 3 (§6.1 authenticator data, §6.5
 * attestation, §8.7 "none"), independent of the server's library: an ES256 key pair per credential,
 * a "none" attestation at registration and an ECDSA signature over authenticatorData ‖ SHA-256(clientDataJSON)
 * at sign-in, with user verification unless told otherwise. `origin` is the page's origin the browser would report.
 */
export class SoftwareAuthenticator {
  constructor(readonly origin: string) {}

  private clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin = this.origin): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  private authData(rpId: string, flags: number, counter: number, attested?: Buffer): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
  }

  /** navigator.credentials.create(): a new discoverable credential, and the answer as @simplewebauthn/browser sends it. */
  create(
    options: CreationOptions,
    opts: { userVerified?: boolean; origin?: string } = {},
  ): { passkey: SoftwarePasskey; response: Record<string, unknown> } {
    const rpId = options.rp.id ?? new URL(this.origin).hostname;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const coseKey = cbor(
      new Map<Cbor, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x ?? '', 'base64url')],
        [-3, Buffer.from(jwk.y ?? '', 'base64url')],
      ]),
    );
    const credentialId = randomBytes(32);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credentialId.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, credentialId, coseKey]);
    const flags = UP | AT | (opts.userVerified === false ? 0 : UV);
    const authData = this.authData(rpId, flags, 0, attested);
    const attestationObject = cbor(
      new Map<Cbor, Cbor>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    const clientDataJSON = this.clientData('webauthn.create', options.challenge, opts.origin);
    const id = b64url(credentialId);
    return {
      passkey: { credentialId, privateKey, userHandle: options.user.id, rpId, counter: 0 },
      response: {
        id,
        rawId: id,
        type: 'public-key',
        response: { clientDataJSON: b64url(clientDataJSON), attestationObject: b64url(attestationObject), transports: ['internal'] },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      },
    };
  }

  /** navigator.credentials.get(): a signed assertion of `passkey` for the options' challenge; its counter moves on. */
  get(passkey: SoftwarePasskey, options: RequestOptions, opts: { userVerified?: boolean; origin?: string } = {}): Record<string, unknown> {
    passkey.counter += 1;
    const flags = UP | (opts.userVerified === false ? 0 : UV);
    const authData = this.authData(options.rpId ?? passkey.rpId, flags, passkey.counter);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, opts.origin);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), passkey.privateKey);
    const id = b64url(passkey.credentialId);
    return {
      id,
      rawId: id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: passkey.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}
