import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  AliyunSmsSender,
  aliyunCanonicalQuery,
  aliyunPercentEncode,
  aliyunSignature,
  buildAliyunRequest,
  type AliyunSmsOptions,
} from '../aliyun-sms-sender.js';
import { type SmsMessage, SmsTemplateMissingError } from '../sms-sender.js';

const SECRET = 'test-aliyun-secret-7Q9w';

const options: AliyunSmsOptions = {
  accessKeyId: 'LTAI-test-id',
  accessKeySecret: SECRET,
  signName: '工程e+ 平台',
  templateCodes: { register: 'SMS_100001', login: 'SMS_100002', reset: 'SMS_100003' },
  now: () => new Date('2026-01-01T00:00:00.123Z'),
  nonce: () => 'nonce-0001',
};

const message: SmsMessage = { phone: '13800138000', templateKey: 'register', params: { code: '482913' } };

/** The doc's recipe taken literally: java.net.URLEncoder (space -> '+', keeps `*`), then + -> %20, * -> %2A, %7E -> ~. */
function docPercentEncode(value: string): string {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const ch = String.fromCharCode(byte);
    if (/[A-Za-z0-9.\-*_]/.test(ch)) out += ch;
    else if (ch === ' ') out += '+';
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out.replace(/\+/g, '%20').replace(/\*/g, '%2A').replace(/%7E/g, '~');
}

/** Independent re-derivation of the RPC V1 signature from the documented algorithm. */
function docSignature(secret: string, params: Record<string, string>): string {
  const query = Object.keys(params)
    .sort()
    .map((k) => `${docPercentEncode(k)}=${docPercentEncode(params[k] ?? '')}`)
    .join('&');
  return createHmac('sha1', `${secret}&`)
    .update(`GET&${docPercentEncode('/')}&${docPercentEncode(query)}`, 'utf8')
    .digest('base64');
}

function fakeFetch(respond: () => Response) {
  const calls: { url: string; init: RequestInit | undefined }[] = [];
  const impl: typeof fetch = async (input, init) => {
    calls.push({ url: String(input), init });
    return respond();
  };
  return { impl, calls };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('aliyun percent-encoding', () => {
  it('follows the documented rules (space %20, * %2A, ~ kept, UTF-8 multi-byte)', () => {
    expect(aliyunPercentEncode("a b*~+/!'()")).toBe('a%20b%2A~%2B%2F%21%27%28%29');
    expect(aliyunPercentEncode('阿里')).toBe('%E9%98%BF%E9%87%8C');
    for (const sample of ["a b*~+/!'()", '阿里云 短信', '{"code":"1 2"}', 'x-y_z.~']) {
      expect(aliyunPercentEncode(sample)).toBe(docPercentEncode(sample));
    }
  });
});

describe('aliyun signature', () => {
  // Worked SendSms example (testId/testSecret) from Aliyun's Dysmsapi signature doc, reproduced in many SDK test suites.
  const docParams = {
    AccessKeyId: 'testId',
    Action: 'SendSms',
    Format: 'XML',
    OutId: '123',
    PhoneNumbers: '15300000001',
    RegionId: 'cn-hangzhou',
    SignName: '阿里云短信测试专用',
    SignatureMethod: 'HMAC-SHA1',
    SignatureNonce: '45e25e9b-0a6f-4070-8c85-2956eda1b466',
    SignatureVersion: '1.0',
    TemplateCode: 'SMS_71390007',
    TemplateParam: '{"customer":"test"}',
    Timestamp: '2017-07-12T02:42:19Z',
    Version: '2017-05-25',
  };

  it('matches the published known vector', () => {
    expect(aliyunCanonicalQuery(docParams)).toBe(
      'AccessKeyId=testId&Action=SendSms&Format=XML&OutId=123&PhoneNumbers=15300000001&RegionId=cn-hangzhou' +
        '&SignName=%E9%98%BF%E9%87%8C%E4%BA%91%E7%9F%AD%E4%BF%A1%E6%B5%8B%E8%AF%95%E4%B8%93%E7%94%A8' +
        '&SignatureMethod=HMAC-SHA1&SignatureNonce=45e25e9b-0a6f-4070-8c85-2956eda1b466&SignatureVersion=1.0' +
        '&TemplateCode=SMS_71390007&TemplateParam=%7B%22customer%22%3A%22test%22%7D&Timestamp=2017-07-12T02%3A42%3A19Z&Version=2017-05-25',
    );
    expect(aliyunSignature('testSecret', docParams)).toBe('zJDF+Lrzhj/ThnlvIToysFRq6t4=');
  });

  it('agrees with an independent derivation from the documented algorithm', () => {
    expect(aliyunSignature('testSecret', docParams)).toBe(docSignature('testSecret', docParams));
  });
});

describe('buildAliyunRequest', () => {
  it('builds a signed SendSms GET with every common and action parameter', () => {
    const req = buildAliyunRequest(options, { ...message, params: { code: '482913', product: 'a b*~' } });
    expect(req.method).toBe('GET');
    const url = new URL(req.url);
    expect(url.origin).toBe('https://dysmsapi.aliyuncs.com');
    expect(url.pathname).toBe('/');
    const params = Object.fromEntries(url.searchParams);
    const signature = params.Signature;
    delete params.Signature;
    expect(params).toEqual({
      AccessKeyId: 'LTAI-test-id',
      Action: 'SendSms',
      Format: 'JSON',
      PhoneNumbers: '13800138000',
      SignName: '工程e+ 平台',
      SignatureMethod: 'HMAC-SHA1',
      SignatureNonce: 'nonce-0001',
      SignatureVersion: '1.0',
      TemplateCode: 'SMS_100001',
      TemplateParam: '{"code":"482913","product":"a b*~"}',
      Timestamp: '2026-01-01T00:00:00Z',
      Version: '2017-05-25',
    });
    expect(signature).toBe(docSignature(SECRET, params));
    // The query after Signature is the exact canonical string that was signed, encoded per the doc.
    expect(req.url.split('?')[1]).toBe(`Signature=${docPercentEncode(signature ?? '')}&${aliyunCanonicalQuery(params)}`);
    expect(req.url).toContain('SignName=%E5%B7%A5%E7%A8%8Be%2B%20%E5%B9%B3%E5%8F%B0');
  });

  it('never puts the AccessKey secret in the URL', () => {
    const req = buildAliyunRequest(options, message);
    expect(req.url).not.toContain(SECRET);
    expect(decodeURIComponent(req.url)).not.toContain(SECRET);
  });

  it('uses the template for the message kind and honours a custom endpoint', () => {
    const req = buildAliyunRequest({ ...options, endpoint: 'https://dysmsapi.example.test/' }, { ...message, templateKey: 'reset' });
    const url = new URL(req.url);
    expect(url.host).toBe('dysmsapi.example.test');
    expect(url.searchParams.get('TemplateCode')).toBe('SMS_100003');
  });

  it('uses a fresh random nonce and the current time by default', () => {
    const { now: _now, nonce: _nonce, ...defaults } = options;
    const a = new URL(buildAliyunRequest(defaults, message).url).searchParams;
    const b = new URL(buildAliyunRequest(defaults, message).url).searchParams;
    expect(a.get('SignatureNonce')).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.get('SignatureNonce')).not.toBe(b.get('SignatureNonce'));
    expect(a.get('Timestamp')).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  });
});

describe('AliyunSmsSender.send', () => {
  it('is a real sender that does not expose codes', () => {
    const sender = new AliyunSmsSender(options);
    expect(sender.name).toBe('aliyun');
    expect(sender.exposesCodes).toBe(false);
  });

  it('refuses a notification whose template is not configured, without calling the provider', async () => {
    const fake = fakeFetch(() => json({ Code: 'OK' }));
    const sender = new AliyunSmsSender({ ...options, fetch: fake.impl });
    const password: SmsMessage = { phone: '13800138000', templateKey: 'password', params: { password: 'Kq7mVx2pLw' } };
    await expect(sender.send(password)).rejects.toThrow('短信发送失败：未配置“账号密码通知”短信模板，请联系平台管理员');
    await expect(sender.send({ ...password, templateKey: 'invite' })).rejects.toBeInstanceOf(SmsTemplateMissingError);
    expect(fake.calls).toHaveLength(0);
    await new AliyunSmsSender({ ...options, templateCodes: { ...options.templateCodes, password: 'SMS_200001' }, fetch: fake.impl }).send(
      password,
    );
    const sent = new URL(fake.calls[0]?.url ?? '').searchParams;
    expect(sent.get('TemplateCode')).toBe('SMS_200001');
    expect(JSON.parse(sent.get('TemplateParam') ?? '')).toEqual({ password: 'Kq7mVx2pLw' });
  });

  it('GETs the signed URL with a timeout signal and resolves on Code OK', async () => {
    const fake = fakeFetch(() => json({ Code: 'OK', Message: 'OK', BizId: '9006197469364984^0', RequestId: 'F655A8D5' }));
    await new AliyunSmsSender({ ...options, fetch: fake.impl }).send(message);
    expect(fake.calls).toHaveLength(1);
    expect(fake.calls[0]?.url).toBe(buildAliyunRequest(options, message).url);
    expect(fake.calls[0]?.init?.method).toBe('GET');
    expect(fake.calls[0]?.init?.signal).toBeInstanceOf(AbortSignal);
  });

  it('throws the provider Message without the error code or the verification code', async () => {
    const fake = fakeFetch(() => json({ Code: 'isv.BUSINESS_LIMIT_CONTROL', Message: '触发分钟级流控Permits:1', RequestId: 'x' }));
    const error = await new AliyunSmsSender({ ...options, fetch: fake.impl }).send(message).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe('短信发送失败：触发分钟级流控Permits:1');
    expect((error as Error).message).not.toContain('isv.');
  });

  it('does not leak the secret or the code when the provider echoes the string to sign', async () => {
    const echoed = `Specified signature is not matched with our calculation. server string to sign is:GET&%2F&TemplateParam%3D%257B%2522code%2522%253A%2522482913%2522%257D ${SECRET}`;
    const fake = fakeFetch(() => json({ Code: 'SignatureDoesNotMatch', Message: echoed }, 400));
    const error = await new AliyunSmsSender({ ...options, fetch: fake.impl }).send(message).catch((e: unknown) => e);
    const text = (error as Error).message;
    expect(text.startsWith('短信发送失败：Specified signature is not matched')).toBe(true);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('482913');
    expect(text).not.toContain('SignatureDoesNotMatch');
  });

  it('masks the secret and code even when they appear elsewhere in the Message', async () => {
    const fake = fakeFetch(() => json({ Code: 'X', Message: `bad ${SECRET} for 482913` }));
    const error = await new AliyunSmsSender({ ...options, fetch: fake.impl }).send(message).catch((e: unknown) => e);
    expect((error as Error).message).toBe('短信发送失败：bad *** for ***');
  });

  it('reports a non-JSON answer by HTTP status', async () => {
    const fake = fakeFetch(() => new Response('<html>bad gateway</html>', { status: 502 }));
    await expect(new AliyunSmsSender({ ...options, fetch: fake.impl }).send(message)).rejects.toThrow('短信发送失败：HTTP 502');
  });

  it('turns network failures and timeouts into errors without request data', async () => {
    const down: typeof fetch = async () => Promise.reject(new TypeError(`fetch failed ${SECRET}`));
    const slow: typeof fetch = async () => Promise.reject(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
    const downError = await new AliyunSmsSender({ ...options, fetch: down }).send(message).catch((e: unknown) => e);
    expect((downError as Error).message).toBe('短信发送失败：无法连接短信服务商');
    await expect(new AliyunSmsSender({ ...options, fetch: slow }).send(message)).rejects.toThrow('短信发送失败：短信服务商响应超时');
  });
});
