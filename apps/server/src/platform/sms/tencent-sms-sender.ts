import { createHash, createHmac } from 'node:crypto';
import {
  fetchWithTimeout,
  isRecord,
  readJsonObject,
  smsProviderError,
  type SmsMessage,
  type SmsSender,
  type SmsTemplateKey,
  type SmsTemplates,
  templateOf,
} from './sms-sender.js';

export interface TencentSmsOptions {
  secretId: string;
  secretKey: string;
  sdkAppId: string;
  signName: string;
  templateIds: SmsTemplates;
  region?: string;
  endpoint?: string;
  fetch?: typeof fetch;
  now?: () => Date;
}

export interface Tc3SignInput {
  secretId: string;
  secretKey: string;
  service: string;
  host: string;
  /** When given, x-tc-action is signed too; omitted reproduces the doc's minimal `content-type;host` example. */
  action?: string;
  /** Unix seconds; also the X-TC-Timestamp header. */
  timestamp: number;
  payload: string;
  contentType?: string;
}

export interface Tc3Signature {
  authorization: string;
  signature: string;
  canonicalRequest: string;
  stringToSign: string;
}

export const TENCENT_SMS_ENDPOINT = 'https://sms.tencentcloudapi.com';
export const TENCENT_JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

const sha256Hex = (data: string): string => createHash('sha256').update(data, 'utf8').digest('hex');
const hmacSha256 = (key: string | Buffer, data: string): Buffer => createHmac('sha256', key).update(data, 'utf8').digest();

/** TC3-HMAC-SHA256 for a POST with an empty query string, following Tencent Cloud API 3.0 "Signature v3" steps 1–4. */
export function tc3Sign(input: Tc3SignInput): Tc3Signature {
  const contentType = input.contentType ?? TENCENT_JSON_CONTENT_TYPE;
  // Signature v3, step 1: header names and values lowercased, sorted by name, each line ending in "\n".
  const headers: [string, string][] = [
    ['content-type', contentType.toLowerCase()],
    ['host', input.host.toLowerCase()],
  ];
  if (input.action !== undefined) headers.push(['x-tc-action', input.action.toLowerCase()]);
  const canonicalHeaders = headers.map(([name, value]) => `${name}:${value}\n`).join('');
  const signedHeaders = headers.map(([name]) => name).join(';');
  const canonicalRequest = ['POST', '/', '', canonicalHeaders, signedHeaders, sha256Hex(input.payload)].join('\n');
  // Signature v3, step 2: Date is the UTC date of the timestamp, never local time (the doc warns about UTC+8).
  const date = new Date(input.timestamp * 1000).toISOString().slice(0, 10);
  const credentialScope = `${date}/${input.service}/tc3_request`;
  const stringToSign = ['TC3-HMAC-SHA256', String(input.timestamp), credentialScope, sha256Hex(canonicalRequest)].join('\n');
  // Signature v3, step 3: derived key chain "TC3" + SecretKey -> Date -> Service -> "tc3_request".
  const signingKey = hmacSha256(hmacSha256(hmacSha256(`TC3${input.secretKey}`, date), input.service), 'tc3_request');
  const signature = createHmac('sha256', signingKey).update(stringToSign, 'utf8').digest('hex');
  const authorization = `TC3-HMAC-SHA256 Credential=${input.secretId}/${credentialScope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
  return { authorization, signature, canonicalRequest, stringToSign };
}

/** SMS SendSms (2021-01-11) expects E.164 numbers; bare mainland numbers get +86. */
function toE164(phone: string): string {
  return phone.startsWith('+') ? phone : `+86${phone}`;
}

/** Builds the signed SendSms POST; pure given `now`. */
export function buildTencentRequest(
  options: TencentSmsOptions,
  message: SmsMessage,
): { url: string; method: 'POST'; headers: Record<string, string>; body: string } {
  const url = new URL(options.endpoint ?? TENCENT_SMS_ENDPOINT);
  const host = url.host;
  const timestamp = Math.floor((options.now ?? (() => new Date()))().getTime() / 1000);
  const body = JSON.stringify({
    PhoneNumberSet: [toE164(message.phone)],
    SmsSdkAppId: options.sdkAppId,
    SignName: options.signName,
    TemplateId: templateOf(options.templateIds, message.templateKey),
    // SendSms TemplateParamSet is positional ({1}, {2}…), so params must be given in template order.
    TemplateParamSet: Object.values(message.params),
  });
  const action = 'SendSms';
  const { authorization } = tc3Sign({
    secretId: options.secretId,
    secretKey: options.secretKey,
    service: 'sms',
    host,
    action,
    timestamp,
    payload: body,
    contentType: TENCENT_JSON_CONTENT_TYPE,
  });
  return {
    url: `${url.origin}/`,
    method: 'POST',
    headers: {
      Authorization: authorization,
      'Content-Type': TENCENT_JSON_CONTENT_TYPE,
      // Node's fetch derives Host from the URL and ignores this one; kept so the headers match what was signed.
      Host: host,
      'X-TC-Action': action,
      'X-TC-Timestamp': String(timestamp),
      'X-TC-Version': '2021-01-11',
      'X-TC-Region': options.region ?? 'ap-guangzhou',
    },
    body,
  };
}

export class TencentSmsSender implements SmsSender {
  readonly name = 'tencent';
  readonly exposesCodes = false;

  constructor(private readonly options: TencentSmsOptions) {}

  hasTemplate(key: SmsTemplateKey): boolean {
    return Boolean(this.options.templateIds[key]);
  }

  async send(message: SmsMessage): Promise<void> {
    const request = buildTencentRequest(this.options, message);
    const response = await fetchWithTimeout(this.options.fetch ?? fetch, request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
    });
    const json = await readJsonObject(response);
    const sensitive = [this.options.secretKey, ...Object.values(message.params)];
    const result = json && isRecord(json.Response) ? json.Response : null;
    if (!result) throw smsProviderError(`HTTP ${response.status}`, sensitive);
    // API 3.0 "Responses": a failed call has Response.Error { Code, Message } instead of the normal fields.
    if (isRecord(result.Error)) throw smsProviderError(result.Error.Message, sensitive);
    // SendSms: the call can succeed while the per-number SendStatus.Code is not "Ok" (e.g. rate limited).
    const statusSet: unknown = result.SendStatusSet;
    const status: unknown = Array.isArray(statusSet) ? statusSet[0] : undefined;
    if (!isRecord(status)) throw smsProviderError('服务商未返回发送状态', sensitive);
    if (status.Code !== 'Ok') throw smsProviderError(status.Message, sensitive);
  }
}
