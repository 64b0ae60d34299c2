import { Type } from 'typebox';

/**
 * The central login's own forms (HTML form posts of the CAS pages, `application/x-www-form-urlencoded`).
 * The CAS 3.0 protocol's parameters (`/login`'s service, renew and gateway, the validation queries)
 * and the chat platforms' redirects are the protocols' and stay with the server's routes.
 */

/** `POST /cas/login`: the password form. */
export const CasLoginFormSchema = Type.Object({
  username: Type.Optional(Type.String({ maxLength: 200 })),
  password: Type.Optional(Type.String({ maxLength: 200 })),
  execution: Type.Optional(Type.String({ maxLength: 200 })),
  renew: Type.Optional(Type.String({ maxLength: 10 })),
});
/** `POST /cas/login/password`: 修改初始密码 or 密码已过期. */
export const CasPasswordChangeFormSchema = Type.Object({
  change: Type.Optional(Type.String({ maxLength: 400 })),
  password: Type.Optional(Type.String({ maxLength: 200 })),
  confirm: Type.Optional(Type.String({ maxLength: 200 })),
  execution: Type.Optional(Type.String({ maxLength: 200 })),
  renew: Type.Optional(Type.String({ maxLength: 10 })),
});
/** The two-factor steps' query: where the login goes. */
export const CasStepQuerySchema = Type.Object({
  service: Type.Optional(Type.String({ maxLength: 2000 })),
  renew: Type.Optional(Type.String({ maxLength: 10 })),
});
/** `POST /cas/login/two-factor…`: a step's proof and code. */
export const CasStepFormSchema = Type.Object({
  proof: Type.Optional(Type.String({ maxLength: 400 })),
  code: Type.Optional(Type.String({ maxLength: 32 })),
  execution: Type.Optional(Type.String({ maxLength: 200 })),
  renew: Type.Optional(Type.String({ maxLength: 10 })),
  /** 二次验证's way: `totp` (authenticator or recovery code, the default) or `sms` (a code sent to the account's phone). */
  method: Type.Optional(Type.String({ maxLength: 16 })),
  /** 信任此设备: the box ticked (`1`) after a right code, when the enterprise allows trusted devices. */
  trust: Type.Optional(Type.String({ maxLength: 10 })),
});
/** 忘记密码's query: the service to return to. */
export const CasServiceQuerySchema = Type.Object({ service: Type.Optional(Type.String({ maxLength: 2000 })) });
/** `POST /cas/forgot-password`: the phone. */
export const CasForgotPasswordFormSchema = Type.Object({
  phone: Type.Optional(Type.String({ maxLength: 32 })),
  execution: Type.Optional(Type.String({ maxLength: 200 })),
});
/** `POST /cas/forgot-password/reset`: the code (or the proof of one) and the new password. */
export const CasResetPasswordFormSchema = Type.Object({
  phone: Type.Optional(Type.String({ maxLength: 32 })),
  code: Type.Optional(Type.String({ maxLength: 32 })),
  proof: Type.Optional(Type.String({ maxLength: 400 })),
  password: Type.Optional(Type.String({ maxLength: 200 })),
  confirm: Type.Optional(Type.String({ maxLength: 200 })),
  execution: Type.Optional(Type.String({ maxLength: 200 })),
});
/** `GET /cas/login/{wecom|dingtalk|feishu}`: the QR sign-in's start. */
export const CasChatStartQuerySchema = Type.Object({
  service: Type.Optional(Type.String({ maxLength: 2000 })),
  renew: Type.Optional(Type.String({ maxLength: 10 })),
  /** The enterprise's source, picked on 选择企业. */
  source: Type.Optional(Type.String({ maxLength: 20 })),
});
