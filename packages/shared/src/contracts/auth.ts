import { type TSchema, Type } from 'typebox';
import { CertificationStatusSchema } from './certification.js';

/** The portal's session calls (spec section 7): the source of the types in auth.ts. */

/** A console route; menus nest three levels at most (deeper children are not sent). */
function routerSchema(depth: number): TSchema {
  return Type.Object({
    authCode: Type.String(),
    name: Type.String(),
    path: Type.String(),
    meta: Type.Object({ title: Type.String(), icon: Type.String() }),
    children: depth > 1 ? Type.Array(routerSchema(depth - 1)) : Type.Array(Type.Object({}), { maxItems: 0 }),
  });
}
export const PortalRouterSchema = routerSchema(3);
export const PortalUserSchema = Type.Object({
  name: Type.String(),
  username: Type.String(),
  telephone: Type.String(),
  number: Type.String(),
  enterpriseName: Type.String(),
  enterpriseId: Type.Union([Type.Integer(), Type.Null()]),
  certificationStatus: CertificationStatusSchema,
});
/** `GET /web/portal/menu/list` for a logged-in user: `data[0]`. */
export const PortalMenuEntrySchema = Type.Object({
  routers: Type.Array(PortalRouterSchema),
  user: PortalUserSchema,
  token: Type.Object({ token_type: Type.String(), access_token: Type.String(), expires_in: Type.Integer() }),
  authorities: Type.Array(Type.String()),
});
/** The token endpoint's answer. */
export const PortalTokenSchema = Type.Object({ token_type: Type.String(), access_token: Type.String(), expires_in: Type.Integer() });
/** `GET /web/portal/app/menus` (spec section 7). */
export const PortalAppMenuSchema = Type.Object({ name: Type.String(), path: Type.String(), title: Type.String(), icon: Type.String() });
/** `GET /web/portal/account/public-key`: the RSA-OAEP key for passwords in transit (SPKI DER, base64). */
export const PasswordTransportKeySchema = Type.Object({ algorithm: Type.String(), publicKey: Type.String() });
/** `PUT /web/portal/account/password`: the three fields, each encrypted with the transport key. */
export const PasswordChangeBodySchema = Type.Object({
  oldPassword: Type.String({ maxLength: 1024 }),
  newPassword: Type.String({ maxLength: 1024 }),
  confirmPassword: Type.String({ maxLength: 1024 }),
});
/**
 * `POST /web/portal/account/reauth` (验证身份): the current password, encrypted with the transport key,
 * or a code of the account's authenticator (or a recovery code).
 */
export const ReauthBodySchema = Type.Object({
  password: Type.Optional(Type.String({ maxLength: 1024 })),
  code: Type.Optional(Type.String({ maxLength: 32 })),
});
/** `GET /web/portal/account/two-factor`: whether the account has an authenticator bound, and its unused recovery codes. */
export const MyTwoFactorSchema = Type.Object({ enabled: Type.Boolean(), recoveryCodesLeft: Type.Integer() });
/** `POST /web/portal/account/two-factor/recovery-codes`: the new recovery codes, shown once. */
export const RecoveryCodesSchema = Type.Object({ codes: Type.Array(Type.String()) });
/** `GET /web/portal/cas/login`: the page to return to, or the hidden single sign-on check (`mode=silent`). */
export const PortalLoginQuerySchema = Type.Object({
  target: Type.Optional(Type.String({ maxLength: 2000 })),
  mode: Type.Optional(Type.Literal('silent')),
  retry: Type.Optional(Type.Literal('1')),
});
/** `GET /web/portal/cas/callback`: the CAS returns here with the ticket and this browser's login state. */
export const PortalCallbackQuerySchema = Type.Object({
  target: Type.Optional(Type.String({ maxLength: 2000 })),
  ticket: Type.Optional(Type.String({ maxLength: 300 })),
  mode: Type.Optional(Type.Literal('silent')),
  state: Type.Optional(Type.String({ maxLength: 100 })),
  retry: Type.Optional(Type.Literal('1')),
});
/** `POST /web-api/register/v1/sms`: the phone to send a registration code to. */
export const RegisterSmsQuerySchema = Type.Object({ phone: Type.Optional(Type.String({ maxLength: 32 })) });
/** `POST /web-api/register/v1/user` (spec section 5, "Registration"); the rules are checked after the schema. */
export const RegisterBodySchema = Type.Object({
  username: Type.Optional(Type.String({ maxLength: 200 })),
  email: Type.Optional(Type.String({ maxLength: 200 })),
  enterpriseName: Type.Optional(Type.String({ maxLength: 200 })),
  password: Type.Optional(Type.String({ maxLength: 200 })),
  phone: Type.Optional(Type.String({ maxLength: 32 })),
  smsCode: Type.Optional(Type.String({ maxLength: 32 })),
});
/** The registered account's username. */
export const RegisteredSchema = Type.Object({ username: Type.String() });
/** `GET /dev/sms-outbox` (development and test servers only): a message the log sender kept. */
export const SmsOutboxEntrySchema = Type.Object({
  phone: Type.String(),
  templateKey: Type.String(),
  params: Type.Record(Type.String(), Type.String()),
  sentAt: Type.String(),
});
