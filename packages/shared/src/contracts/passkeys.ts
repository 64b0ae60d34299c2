import { type Static, Type } from 'typebox';

/** Passkeys (WebAuthn Level 3): 个人信息's 通行密钥, the central login's 通行密钥登录, and the console's removal. */

/** At most this many passkeys per account (a person's devices and security keys, with room to spare). */
export const PASSKEY_LIMIT = 20;
export const PASSKEY_NAME_MAX = 32;

/** One passkey in 个人信息's list. */
export const PasskeySchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  createdAt: Type.String(),
  /** null: never used to sign in. */
  lastUsedAt: Type.Union([Type.String(), Type.Null()]),
});

/**
 * A credential as `@simplewebauthn/browser` answers it (RegistrationResponseJSON or
 * AuthenticationResponseJSON): base64url fields, checked in full by the server's WebAuthn verification.
 */
export const WebAuthnResponseSchema = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 1400 }),
  rawId: Type.String({ minLength: 1, maxLength: 1400 }),
  type: Type.Literal('public-key'),
  response: Type.Object({
    clientDataJSON: Type.String({ minLength: 1, maxLength: 8192 }),
    attestationObject: Type.Optional(Type.String({ maxLength: 65536 })),
    authenticatorData: Type.Optional(Type.String({ maxLength: 8192 })),
    signature: Type.Optional(Type.String({ maxLength: 2048 })),
    userHandle: Type.Optional(Type.String({ maxLength: 200 })),
    transports: Type.Optional(Type.Array(Type.String({ maxLength: 32 }), { maxItems: 10 })),
    publicKeyAlgorithm: Type.Optional(Type.Integer()),
    publicKey: Type.Optional(Type.String({ maxLength: 8192 })),
  }),
  authenticatorAttachment: Type.Optional(Type.String({ maxLength: 32 })),
  clientExtensionResults: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});

/**
 * `POST /web/portal/account/passkeys/options`: the options of a registration ceremony
 * (PublicKeyCredentialCreationOptionsJSON, passed to `startRegistration` as they are).
 */
export const PasskeyOptionsSchema = Type.Object({ options: Type.Record(Type.String(), Type.Unknown()) });

/** `POST /web/portal/account/passkeys`: the new passkey's name and the authenticator's answer. */
export const PasskeyRegisterBodySchema = Type.Object({
  name: Type.String({ maxLength: 200 }),
  credential: WebAuthnResponseSchema,
});

/** `PUT /web/portal/account/passkeys/:id`: a new name. */
export const PasskeyRenameBodySchema = Type.Object({ name: Type.String({ maxLength: 200 }) });

/** `/web/portal/account/passkeys/:id` and `/web-api/console/v1/account/:id/passkeys`. */
export const PasskeyParamsSchema = Type.Object({ id: Type.Integer({ minimum: 1 }) });

/** `POST /cas/login/passkey/options`: for a second factor, the proof of the password step; none for a passwordless sign-in. */
export const CasPasskeyOptionsBodySchema = Type.Object({ proof: Type.Optional(Type.String({ maxLength: 400 })) });

/** `POST /cas/login/passkey` and `POST /cas/login/two-factor/passkey`: the login page's form, the credential as JSON text. */
export const CasPasskeyFormSchema = Type.Object({
  credential: Type.Optional(Type.String({ maxLength: 100_000 })),
  proof: Type.Optional(Type.String({ maxLength: 400 })),
  execution: Type.Optional(Type.String({ maxLength: 200 })),
  renew: Type.Optional(Type.String({ maxLength: 10 })),
  /** 信任此设备 at the second factor: the page's box ticked (`1`), when the enterprise allows trusted devices. */
  trust: Type.Optional(Type.String({ maxLength: 10 })),
});

/** What 个人信息 and the console say about passkeys. */
export const PasskeyMessage = {
  nameRequired: '请输入通行密钥名称',
  nameTooLong: `通行密钥名称不能超过 ${PASSKEY_NAME_MAX} 个字符`,
  limit: `每个账号最多添加 ${PASSKEY_LIMIT} 个通行密钥`,
  registrationFailed: '通行密钥验证失败，请重新添加',
  notFound: '通行密钥不存在',
  added: '通行密钥已添加',
  renamed: '通行密钥已重命名',
  removed: '通行密钥已移除',
} as const;

/** A passkey's name as typed: trimmed; the problem with it, if any. */
export function passkeyNameProblem(name: string): string | undefined {
  const trimmed = name.trim();
  if (!trimmed) return PasskeyMessage.nameRequired;
  if ([...trimmed].length > PASSKEY_NAME_MAX) return PasskeyMessage.nameTooLong;
  return undefined;
}

export type Passkey = Static<typeof PasskeySchema>;
export type WebAuthnResponse = Static<typeof WebAuthnResponseSchema>;
