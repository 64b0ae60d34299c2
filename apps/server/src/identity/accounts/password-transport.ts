import { constants as cryptoConstants, generateKeyPairSync, privateDecrypt } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { BadRequestError } from '../../platform/lib/errors.js';

interface TransportKeys {
  /** SPKI DER, base64: what the browser imports for RSA-OAEP SHA-256. */
  publicKey: string;
  /** PKCS#8 PEM; never leaves the server. */
  privateKey: string;
}

/**
 * Spec section 5, "Passwords are encoded before sending": every password the browser sends (修改密码,
 * 新增账号, 重置密码) is RSA-OAEP SHA-256 under one server-wide key pair, generated once for all
 * instances; the browser side is apps/web's encrypt-password.
 */
export class PasswordTransport {
  constructor(private readonly app: FastifyInstance) {}

  private async keys(): Promise<TransportKeys> {
    const value = await this.app.systemRepository.sharedSecret('password-transport-rsa', () => {
      const { publicKey, privateKey } = generateKeyPairSync('rsa', {
        modulusLength: 2048,
        publicKeyEncoding: { type: 'spki', format: 'der' },
        privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      });
      return JSON.stringify({ publicKey: publicKey.toString('base64'), privateKey });
    });
    return JSON.parse(value) as TransportKeys;
  }

  async publicKey(): Promise<string> {
    return (await this.keys()).publicKey;
  }

  /** The password a browser encoded (base64 ciphertext); a value that is not one is a bad request. */
  async decrypt(encoded: string): Promise<string> {
    const { privateKey } = await this.keys();
    try {
      return privateDecrypt(
        { key: privateKey, padding: cryptoConstants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
        Buffer.from(encoded, 'base64'),
      ).toString('utf8');
    } catch {
      throw new BadRequestError('密码数据无法解密，请刷新页面后重试');
    }
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    passwordTransportService: PasswordTransport;
  }
}

export default fp(
  async (app) => {
    app.decorate('passwordTransportService', new PasswordTransport(app));
  },
  { name: 'password-transport', dependencies: ['system-repository'] },
);
