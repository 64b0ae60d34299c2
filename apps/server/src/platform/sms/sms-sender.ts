/**
 * The messages the portal sends, each with its provider template and the params it fills in (in this
 * order: Tencent's templates are positional, {1}, {2}…):
 * register, login, reset: {code}; password (新增/重置密码 with 随机密码): {password};
 * invite (邀请成员): {enterprise, code}; join-result (加入申请 decided): {enterprise, result};
 * certification-result (企业认证 decided): {enterprise, result}.
 */
export type SmsTemplateKey = 'register' | 'login' | 'reset' | 'password' | 'invite' | 'join-result' | 'certification-result';

/** What the templates say, for messages about a template that is not configured. */
export const SMS_TEMPLATE_TITLES: Record<SmsTemplateKey, string> = {
  register: '注册验证码',
  login: '登录验证码',
  reset: '重置密码验证码',
  password: '账号密码通知',
  invite: '邀请成员',
  'join-result': '加入申请结果',
  'certification-result': '企业认证结果',
};

/** A provider's template per message; the notifications have none unless configured. */
export type SmsTemplates = Partial<Record<SmsTemplateKey, string>>;

/** The message's template is not configured: nothing was sent (no provider call). */
export class SmsTemplateMissingError extends Error {
  constructor(readonly templateKey: SmsTemplateKey) {
    super(`短信发送失败：未配置“${SMS_TEMPLATE_TITLES[templateKey]}”短信模板，请联系平台管理员`);
    this.name = 'SmsTemplateMissingError';
  }
}

/** The template of `key`, or the error saying it is not configured. */
export function templateOf(templates: SmsTemplates, key: SmsTemplateKey): string {
  const template = templates[key];
  if (!template) throw new SmsTemplateMissingError(key);
  return template;
}

export interface SmsMessage {
  phone: string;
  templateKey: SmsTemplateKey;
  params: Record<string, string>;
}

export interface SmsSender {
  readonly name: string;
  /** True only for the development sender: codes may be shown to the developer instead of reaching a phone. */
  readonly exposesCodes: boolean;
  /** Whether a message of `key` can be sent (its template is configured); no provider call. */
  hasTemplate(key: SmsTemplateKey): boolean;
  send(message: SmsMessage): Promise<void>;
}

/** Timeout for one provider call, so a hung provider cannot hold a request open. */
export const SMS_TIMEOUT_MS = 10_000;

const REDACTED = '***';

/** Provider message kept for diagnosis, cut at "string to sign" (Aliyun SignatureDoesNotMatch echoes the signed query) and masked. */
export function smsProviderError(providerMessage: unknown, sensitive: readonly string[]): Error {
  const raw = typeof providerMessage === 'string' ? providerMessage : '';
  let text = (raw.split(/string\s*to\s*sign/i)[0] ?? '').trim() || '服务商未返回原因';
  for (const value of sensitive) {
    if (value.length < 3) continue;
    for (const form of new Set([value, encodeURIComponent(value), encodeURIComponent(encodeURIComponent(value))])) {
      text = text.split(form).join(REDACTED);
    }
  }
  if (text.length > 200) text = `${text.slice(0, 200)}…`;
  return new Error(`短信发送失败：${text}`);
}

/** Reads a JSON body without trusting its shape; null when the body is not a JSON object. */
export async function readJsonObject(response: Response): Promise<Record<string, unknown> | null> {
  try {
    const body: unknown = await response.json();
    return isRecord(body) ? body : null;
  } catch {
    return null;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Calls the provider with the shared timeout; the message stays generic, the original failure is kept as `cause` for logs. */
export async function fetchWithTimeout(fetchImpl: typeof fetch, url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetchImpl(url, { ...init, signal: AbortSignal.timeout(SMS_TIMEOUT_MS) });
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    throw new Error(timedOut ? '短信发送失败：短信服务商响应超时' : '短信发送失败：无法连接短信服务商', { cause: error });
  }
}
