import { AliyunSmsSender } from './aliyun-sms-sender.js';
import { LogSmsSender } from './log-sms-sender.js';
import type { SmsSender, SmsTemplates } from './sms-sender.js';
import { TencentSmsSender } from './tencent-sms-sender.js';

/** Every environment variable the SMS layer reads, with a one-line description (for the README). */
export const SMS_ENV_KEYS = {
  SMS_PROVIDER: '短信服务商：log（默认，仅写日志，开发用）| aliyun | tencent',
  ALIYUN_SMS_ACCESS_KEY_ID: '阿里云 AccessKey ID（建议使用仅授权短信发送的 RAM 子账号）',
  ALIYUN_SMS_ACCESS_KEY_SECRET: '阿里云 AccessKey Secret（保密，勿提交到仓库）',
  ALIYUN_SMS_SIGN_NAME: '阿里云短信签名名称（控制台已审核通过的签名）',
  ALIYUN_SMS_TEMPLATE_REGISTER: '阿里云注册验证码模板 CODE，如 SMS_123456789；模板变量为 ${code}',
  ALIYUN_SMS_TEMPLATE_LOGIN: '可选：阿里云登录验证码模板 CODE，未设置时使用注册模板',
  ALIYUN_SMS_TEMPLATE_RESET: '可选：阿里云重置密码验证码模板 CODE，未设置时使用注册模板',
  ALIYUN_SMS_TEMPLATE_PASSWORD:
    '可选：阿里云账号密码通知模板 CODE（新增账号、重置密码选择随机密码时发送）；模板变量为 ${password}；未设置时无法以短信发送随机密码',
  ALIYUN_SMS_TEMPLATE_INVITE: '可选：阿里云邀请成员模板 CODE；模板变量为 ${enterprise}、${code}；未设置时无法邀请成员',
  ALIYUN_SMS_TEMPLATE_JOIN_RESULT: '可选：阿里云加入申请结果模板 CODE；模板变量为 ${enterprise}、${result}；未设置时不发送审批结果',
  ALIYUN_SMS_TEMPLATE_CERTIFICATION_RESULT:
    '可选：阿里云企业认证结果模板 CODE；模板变量为 ${enterprise}、${result}（已通过或未通过）；未设置时不发送审核结果短信（消息中心照常通知）',
  TENCENT_SMS_SECRET_ID: '腾讯云 API SecretId（建议使用仅授权短信发送的子用户）',
  TENCENT_SMS_SECRET_KEY: '腾讯云 API SecretKey（保密，勿提交到仓库）',
  TENCENT_SMS_SDK_APP_ID: '腾讯云短信 SdkAppId（短信控制台“应用管理”中的 1400 开头 ID）',
  TENCENT_SMS_SIGN_NAME: '腾讯云短信签名内容（已审核通过）',
  TENCENT_SMS_TEMPLATE_REGISTER: '腾讯云注册验证码模板 ID；模板参数按 {1} 顺序填入验证码',
  TENCENT_SMS_TEMPLATE_LOGIN: '可选：腾讯云登录验证码模板 ID，未设置时使用注册模板',
  TENCENT_SMS_TEMPLATE_RESET: '可选：腾讯云重置密码验证码模板 ID，未设置时使用注册模板',
  TENCENT_SMS_TEMPLATE_PASSWORD: '可选：腾讯云账号密码通知模板 ID；参数 {1} 为密码；未设置时无法以短信发送随机密码',
  TENCENT_SMS_TEMPLATE_INVITE: '可选：腾讯云邀请成员模板 ID；参数 {1} 为企业名称、{2} 为邀请码；未设置时无法邀请成员',
  TENCENT_SMS_TEMPLATE_JOIN_RESULT: '可选：腾讯云加入申请结果模板 ID；参数 {1} 为企业名称、{2} 为审批结果；未设置时不发送审批结果',
  TENCENT_SMS_TEMPLATE_CERTIFICATION_RESULT:
    '可选：腾讯云企业认证结果模板 ID；参数 {1} 为企业名称、{2} 为审核结果（已通过或未通过）；未设置时不发送审核结果短信（消息中心照常通知）',
  TENCENT_SMS_REGION: '可选：腾讯云地域，默认 ap-guangzhou',
} as const satisfies Record<string, string>;

type SmsEnvKey = keyof typeof SMS_ENV_KEYS;

export type SmsLog = { info(obj: object, msg: string): void };

const ALIYUN_REQUIRED = [
  'ALIYUN_SMS_ACCESS_KEY_ID',
  'ALIYUN_SMS_ACCESS_KEY_SECRET',
  'ALIYUN_SMS_SIGN_NAME',
  'ALIYUN_SMS_TEMPLATE_REGISTER',
] as const satisfies readonly SmsEnvKey[];

const TENCENT_REQUIRED = [
  'TENCENT_SMS_SECRET_ID',
  'TENCENT_SMS_SECRET_KEY',
  'TENCENT_SMS_SDK_APP_ID',
  'TENCENT_SMS_SIGN_NAME',
  'TENCENT_SMS_TEMPLATE_REGISTER',
] as const satisfies readonly SmsEnvKey[];

function read(env: NodeJS.ProcessEnv, key: SmsEnvKey): string | undefined {
  const value = env[key]?.trim();
  return value ? value : undefined;
}

/** Reads all required keys or throws naming the missing ones (names only, never values). */
function requireAll<K extends SmsEnvKey>(env: NodeJS.ProcessEnv, provider: string, keys: readonly K[]): Record<K, string> {
  const values = {} as Record<K, string>;
  const missing: K[] = [];
  for (const key of keys) {
    const value = read(env, key);
    if (value === undefined) missing.push(key);
    else values[key] = value;
  }
  if (missing.length > 0) throw new Error(`SMS_PROVIDER=${provider} needs ${missing.join(', ')}`);
  return values;
}

/**
 * The provider's templates: login and reset codes fall back to the register template (all say "your
 * code is …"); the notifications (password, invite, join-result, certification-result) say
 * something else and have no fallback: sending one that is not configured fails without calling the provider.
 */
function templates(env: NodeJS.ProcessEnv, provider: 'ALIYUN' | 'TENCENT', register: string): SmsTemplates {
  const optional = (name: 'LOGIN' | 'RESET' | 'PASSWORD' | 'INVITE' | 'JOIN_RESULT' | 'CERTIFICATION_RESULT') =>
    read(env, `${provider}_SMS_TEMPLATE_${name}`);
  return {
    register,
    login: optional('LOGIN') ?? register,
    reset: optional('RESET') ?? register,
    password: optional('PASSWORD'),
    invite: optional('INVITE'),
    'join-result': optional('JOIN_RESULT'),
    'certification-result': optional('CERTIFICATION_RESULT'),
  };
}

/** Chooses the SMS sender from the environment at startup, so a misconfigured provider fails fast instead of on the first code. */
export function createSmsSender(env: NodeJS.ProcessEnv, log: SmsLog): SmsSender {
  const provider = (env.SMS_PROVIDER ?? '').trim().toLowerCase() || 'log';
  switch (provider) {
    case 'log':
      return new LogSmsSender({ log });
    case 'aliyun': {
      const v = requireAll(env, provider, ALIYUN_REQUIRED);
      return new AliyunSmsSender({
        accessKeyId: v.ALIYUN_SMS_ACCESS_KEY_ID,
        accessKeySecret: v.ALIYUN_SMS_ACCESS_KEY_SECRET,
        signName: v.ALIYUN_SMS_SIGN_NAME,
        templateCodes: templates(env, 'ALIYUN', v.ALIYUN_SMS_TEMPLATE_REGISTER),
      });
    }
    case 'tencent': {
      const v = requireAll(env, provider, TENCENT_REQUIRED);
      return new TencentSmsSender({
        secretId: v.TENCENT_SMS_SECRET_ID,
        secretKey: v.TENCENT_SMS_SECRET_KEY,
        sdkAppId: v.TENCENT_SMS_SDK_APP_ID,
        signName: v.TENCENT_SMS_SIGN_NAME,
        templateIds: templates(env, 'TENCENT', v.TENCENT_SMS_TEMPLATE_REGISTER),
        region: read(env, 'TENCENT_SMS_REGION') ?? 'ap-guangzhou',
      });
    }
    default:
      throw new Error(`Unknown SMS_PROVIDER "${provider.slice(0, 32)}": expected log, aliyun or tencent`);
  }
}
