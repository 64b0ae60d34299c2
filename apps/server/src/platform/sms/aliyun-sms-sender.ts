import { createHmac, randomUUID } from 'node:crypto';
import {
  fetchWithTimeout,
  readJsonObject,
  smsProviderError,
  type SmsMessage,
  type SmsSender,
  type SmsTemplateKey,
  type SmsTemplates,
  templateOf,
} from './sms-sender.js';

export interface AliyunSmsOptions {
  accessKeyId: string;
  accessKeySecret: string;
  signName: string;
  templateCodes: SmsTemplates;
  endpoint?: string;
  fetch?: typeof fetch;
  now?: () => Date;
  nonce?: () => string;
}

export const ALIYUN_SMS_ENDPOINT = 'https://dysmsapi.aliyuncs.com';

/** Aliyun RPC signature doc, "percentEncode": RFC 3986 unreserved chars stay, space is %20, `*` is %2A, `~` is kept. */
export function aliyunPercentEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Aliyun RPC signature doc, step 1: sort by parameter name, encode name and value, join with `=` and `&`. */
export function aliyunCanonicalQuery(params: Record<string, string>): string {
  return Object.keys(params)
    .sort()
    .map((key) => `${aliyunPercentEncode(key)}=${aliyunPercentEncode(params[key] ?? '')}`)
    .join('&');
}

/** Aliyun RPC signature doc, steps 2–3: Base64(HMAC-SHA1(AccessKeySecret + "&", "GET&%2F&" + percentEncode(query))). */
export function aliyunSignature(accessKeySecret: string, params: Record<string, string>, method: 'GET' | 'POST' = 'GET'): string {
  const stringToSign = `${method}&${aliyunPercentEncode('/')}&${aliyunPercentEncode(aliyunCanonicalQuery(params))}`;
  return createHmac('sha1', `${accessKeySecret}&`).update(stringToSign, 'utf8').digest('base64');
}

/** Dysmsapi common parameters: Timestamp is ISO 8601 UTC in the form yyyy-MM-ddTHH:mm:ssZ (no milliseconds). */
function aliyunTimestamp(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Builds the signed SendSms GET URL (Dysmsapi 2017-05-25); pure given `now` and `nonce`. */
export function buildAliyunRequest(options: AliyunSmsOptions, message: SmsMessage): { url: string; method: 'GET' } {
  const params: Record<string, string> = {
    AccessKeyId: options.accessKeyId,
    Action: 'SendSms',
    Format: 'JSON',
    PhoneNumbers: message.phone,
    SignName: options.signName,
    SignatureMethod: 'HMAC-SHA1',
    SignatureNonce: (options.nonce ?? randomUUID)(),
    SignatureVersion: '1.0',
    TemplateCode: templateOf(options.templateCodes, message.templateKey),
    TemplateParam: JSON.stringify(message.params),
    Timestamp: aliyunTimestamp((options.now ?? (() => new Date()))()),
    Version: '2017-05-25',
  };
  const signature = aliyunSignature(options.accessKeySecret, params);
  const base = (options.endpoint ?? ALIYUN_SMS_ENDPOINT).replace(/\/+$/, '');
  return { url: `${base}/?Signature=${aliyunPercentEncode(signature)}&${aliyunCanonicalQuery(params)}`, method: 'GET' };
}

export class AliyunSmsSender implements SmsSender {
  readonly name = 'aliyun';
  readonly exposesCodes = false;

  constructor(private readonly options: AliyunSmsOptions) {}

  hasTemplate(key: SmsTemplateKey): boolean {
    return Boolean(this.options.templateCodes[key]);
  }

  async send(message: SmsMessage): Promise<void> {
    const request = buildAliyunRequest(this.options, message);
    const response = await fetchWithTimeout(this.options.fetch ?? fetch, request.url, { method: request.method });
    const body = await readJsonObject(response);
    const sensitive = [this.options.accessKeySecret, ...Object.values(message.params)];
    if (!body) throw smsProviderError(`HTTP ${response.status}`, sensitive);
    // SendSms response: Code "OK" means accepted; anything else carries a human-readable Message.
    if (body.Code !== 'OK') throw smsProviderError(body.Message, sensitive);
  }
}
