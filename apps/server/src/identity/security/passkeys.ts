import { createHmac, randomBytes } from 'node:crypto';
import { PASSKEY_LIMIT, type Passkey, PasskeyMessage, passkeyNameProblem, type WebAuthnResponse } from '@portal/shared';
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { auditBy } from '../../platform/audit/audit-log.js';
import { inEnterpriseTransaction, inTransaction } from '../../platform/db/transaction.js';
import type { Actor } from '../../platform/lib/actor.js';
import { BadRequestError, NotFoundError } from '../../platform/lib/errors.js';
import type { ChallengePurpose, StoredPasskey } from './passkey-repository.js';

/** How long a ceremony may take, from its options to the authenticator's answer (WebAuthn's recommended range). */
const CEREMONY_MS = 5 * 60_000;
const RP_NAME = 'Engineering e+ 统一身份认证';

/** The relying party of a ceremony: the portal's origin (PUBLIC_URL, else the address the browser used) and its host as the RP ID. */
export interface RelyingParty {
  origin: string;
  rpID: string;
}

/** Why a passkey sign-in was refused (the login page names none of them apart: the log does). */
export type PasskeyRefusal = 'expired' | 'unknown' | 'invalid' | 'elsewhere';
export type PasskeyCheck =
  { ok: true; accountId: number; passkey: StoredPasskey } | { ok: false; reason: PasskeyRefusal; accountId?: number };

/** The challenge a browser signed (CollectedClientData.challenge), read before anything is verified; undefined when unreadable. */
function challengeOf(response: WebAuthnResponse): string | undefined {
  try {
    const data = JSON.parse(Buffer.from(response.response.clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof data.challenge === 'string' && data.challenge.length <= 64 ? data.challenge : undefined;
  } catch {
    return undefined;
  }
}

const toJson = <T>(response: WebAuthnResponse) => ({ clientExtensionResults: {}, ...response }) as unknown as T;

/**
 * Passkeys (protocols.md "WebAuthn / passkeys", docs/architecture.md "Passkeys"): registration from
 * 个人信息 and sign-in at the central login with `@simplewebauthn/server`. User verification is
 * required, credentials are discoverable, attestation is `none`. Every ceremony's challenge is kept in
 * the database and spent once, whichever instance finishes it; a credential signs in only to the
 * account, and the enterprise, it was registered for; its signature counter only moves forward.
 */
function createPasskeys(app: FastifyInstance, userHandleKey: Buffer) {
  const repo = app.passkeyRepository;
  const { db } = app.database;

  const relyingParty = (requestOrigin: string): RelyingParty => {
    const origin = app.config.publicUrl ?? requestOrigin;
    return { origin, rpID: new URL(origin).hostname };
  };

  /** The WebAuthn user handle of an account: opaque and stable, so it names no account id to the authenticator. */
  const userHandle = (accountId: number) => createHmac('sha256', userHandleKey).update(`account:${accountId}`).digest().subarray(0, 32);

  /** 32 random bytes (the options carry them base64url-encoded, as the browser will sign them), kept until spent or expired. */
  async function newChallenge(purpose: ChallengePurpose, accountId: number | null): Promise<Uint8Array<ArrayBuffer>> {
    const challenge = new Uint8Array(randomBytes(32));
    const now = Date.now();
    const kept = Buffer.from(challenge).toString('base64url');
    await repo.addChallenge(kept, purpose, accountId, new Date(now + CEREMONY_MS).toISOString(), new Date(now).toISOString());
    return challenge;
  }

  const spend = (response: WebAuthnResponse, purpose: ChallengePurpose, accountId: number | null) => {
    const challenge = challengeOf(response);
    return challenge ? repo.spendChallenge(challenge, purpose, accountId, new Date().toISOString()).then((ok) => ok && challenge) : false;
  };

  const listed = (p: StoredPasskey): Passkey => ({ id: p.id, name: p.name, createdAt: p.createdAt, lastUsedAt: p.lastUsedAt });

  /** 个人信息's 通行密钥: the caller's passkeys, oldest first. */
  async function list(accountId: number): Promise<Passkey[]> {
    return (await repo.ofAccount(accountId)).map(listed);
  }

  /** The options of a registration ceremony for the caller; its existing passkeys are excluded (one per authenticator). */
  async function registrationOptions(caller: Actor & { accountId: number; name: string }) {
    const existing = await repo.ofAccount(caller.accountId);
    if (existing.length >= PASSKEY_LIMIT) throw new BadRequestError(PasskeyMessage.limit);
    const { rpID } = relyingParty(caller.origin);
    return generateRegistrationOptions({
      rpName: RP_NAME,
      rpID,
      userName: caller.username,
      userDisplayName: caller.name || caller.username,
      userID: userHandle(caller.accountId),
      challenge: await newChallenge('register', caller.accountId),
      timeout: CEREMONY_MS,
      attestationType: 'none',
      excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
  }

  /** Verifies the authenticator's answer to the caller's registration and keeps the passkey, with its audit row. */
  async function register(caller: Actor & { accountId: number }, name: string, response: WebAuthnResponse): Promise<Passkey> {
    const problem = passkeyNameProblem(name);
    if (problem) throw new BadRequestError(problem);
    const challenge = await spend(response, 'register', caller.accountId);
    if (!challenge) throw new BadRequestError(PasskeyMessage.registrationFailed);
    const rp = relyingParty(caller.origin);
    const verified = await verifyRegistrationResponse({
      response: toJson<RegistrationResponseJSON>(response),
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpID,
      requireUserVerification: true,
    }).catch(() => undefined);
    if (!verified?.verified) throw new BadRequestError(PasskeyMessage.registrationFailed);
    const { credential } = verified.registrationInfo;
    if (await repo.byCredentialId(credential.id)) throw new BadRequestError(PasskeyMessage.registrationFailed);
    const passkey = {
      accountId: caller.accountId,
      enterpriseId: caller.enterpriseId,
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: credential.transports ?? [],
      name: name.trim(),
      createdAt: new Date().toISOString(),
    };
    const id = await inTransaction(db, async (trx) => {
      const added = await repo.add(trx, passkey);
      await auditBy(trx, caller, 'passkey.add', caller.username, 'success', passkey.name);
      return added;
    });
    return { id, name: passkey.name, createdAt: passkey.createdAt, lastUsedAt: null };
  }

  async function rename(caller: Actor & { accountId: number }, id: number, name: string): Promise<void> {
    const problem = passkeyNameProblem(name);
    if (problem) throw new BadRequestError(problem);
    await inTransaction(db, async (trx) => {
      if (!(await repo.rename(trx, caller.accountId, id, name.trim()))) throw new NotFoundError(PasskeyMessage.notFound);
      await auditBy(trx, caller, 'passkey.rename', caller.username, 'success', name.trim());
    });
  }

  /** Removes one of the caller's passkeys; another account's id answers 404. */
  async function remove(caller: Actor & { accountId: number }, id: number): Promise<void> {
    await inTransaction(db, async (trx) => {
      const name = await repo.remove(trx, caller.accountId, id);
      if (name === undefined) throw new NotFoundError(PasskeyMessage.notFound);
      await auditBy(trx, caller, 'passkey.remove', caller.username, 'success', name);
    });
  }

  /** 清除通行密钥 (the console): every passkey of an account of the administrator's enterprise goes; another enterprise's account answers 404. */
  async function removeAllOf(enterpriseId: number, accountId: number, actor: Actor): Promise<number> {
    const account = await app.accountAdminRepository.find(enterpriseId, accountId);
    if (!account) throw new NotFoundError('账号不存在');
    return inEnterpriseTransaction(db, enterpriseId, async (trx) => {
      const removed = await repo.removeAll(trx, account.id);
      await auditBy(trx, actor, 'account.passkeys-remove', `${account.username} ${account.name}`, 'success', `${removed} 个`);
      return removed;
    });
  }

  /**
   * The options of a sign-in ceremony: without an account, any discoverable passkey of this site
   * (通行密钥登录); with one, its own passkeys (the second factor after its password).
   */
  async function authenticationOptions(requestOrigin: string, accountId: number | null) {
    const allow = accountId === null ? [] : await repo.ofAccount(accountId);
    return generateAuthenticationOptions({
      rpID: relyingParty(requestOrigin).rpID,
      challenge: await newChallenge(accountId === null ? 'sign-in' : 'second-factor', accountId),
      timeout: CEREMONY_MS,
      userVerification: 'required',
      allowCredentials: allow.map((p) => ({ id: p.credentialId, transports: p.transports })),
    });
  }

  /**
   * Verifies a sign-in with a passkey: its challenge (issued here, unexpired, unspent, for this kind of
   * ceremony and account), the credential (known, of `accountId` when given, registered in the
   * account's current enterprise, its user handle the account's), the signature with user
   * verification, and a counter that moves forward. Answers the account, or why not.
   */
  async function authenticate(requestOrigin: string, response: WebAuthnResponse, accountId: number | null): Promise<PasskeyCheck> {
    const challenge = await spend(response, accountId === null ? 'sign-in' : 'second-factor', accountId);
    if (!challenge) return { ok: false, reason: 'expired' };
    const passkey = await repo.byCredentialId(response.id);
    if (!passkey || (accountId !== null && passkey.accountId !== accountId)) return { ok: false, reason: 'unknown' };
    const owner = passkey.accountId;
    const profile = await app.accountRepository.profile(owner);
    if (!profile || profile.enterpriseId !== passkey.enterpriseId) return { ok: false, reason: 'elsewhere', accountId: owner };
    const handle = response.response.userHandle;
    if (handle !== undefined && handle !== userHandle(owner).toString('base64url'))
      return { ok: false, reason: 'invalid', accountId: owner };
    const rp = relyingParty(requestOrigin);
    const verified = await verifyAuthenticationResponse({
      response: toJson<AuthenticationResponseJSON>(response),
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpID,
      credential: {
        id: passkey.credentialId,
        publicKey: Buffer.from(passkey.publicKey, 'base64url'),
        counter: passkey.counter,
        transports: passkey.transports,
      },
      requireUserVerification: true,
    }).catch(() => undefined);
    if (!verified?.verified) return { ok: false, reason: 'invalid', accountId: owner };
    // A cloned authenticator shows itself by a counter that does not move forward (the library refuses it); racing uses by the conditional update.
    if (!(await repo.used(passkey.id, passkey.counter, verified.authenticationInfo.newCounter, new Date().toISOString()))) {
      return { ok: false, reason: 'invalid', accountId: owner };
    }
    return { ok: true, accountId: owner, passkey };
  }

  return { relyingParty, list, registrationOptions, register, rename, remove, removeAllOf, authenticationOptions, authenticate };
}

export type Passkeys = ReturnType<typeof createPasskeys>;

declare module 'fastify' {
  interface FastifyInstance {
    passkeyService: Passkeys;
  }
}

export default fp(
  async (app) => {
    app.decorate('passkeyService', createPasskeys(app, await app.systemRepository.sharedKey('webauthn-user-handle')));
  },
  { name: 'passkeys', dependencies: ['system-repository', 'passkey-repository', 'account-repository'] },
);
