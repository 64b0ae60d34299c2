import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { SmsMessage } from '../sms-sender.js';
import { TencentSmsSender, buildTencentRequest, tc3Sign, type TencentSmsOptions } from '../tencent-sms-sender.js';

const SECRET_KEY = 'test-tencent-secret-K3y9';

const options: TencentSmsOptions = {
  secretId: 'AKID-test-id',
  secretKey: SECRET_KEY,
  sdkAppId: '1400000001',
  signName: '工程e+平台',
  templateIds: { register: '100001', login: '100002', reset: '100003' },
  now: () => new Date('2026-01-01T00:00:00.900Z'),
};

const message: SmsMessage = { phone: '13800138000', templateKey: 'register', params: { code: '482913', minutes: '5' } };

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
const hmac = (key: string | Buffer, s: string) => createHmac('sha256', key).update(s, 'utf8').digest();

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

describe('tc3Sign', () => {
  it('reproduces the worked CVM DescribeInstances example from the Signature v3 doc', () => {
    // Doc example payload, with the Chinese name as \u escapes exactly as published.
    const payload = '{"Limit": 1, "Filters": [{"Values": ["\\u672a\\u547d\\u540d"], "Name": "instance-name"}]}';
    expect(sha256(payload)).toBe('35e9c5b0e3ae67532d3c9f17ead6c90222632e5b1ff7f6e89887f1398934f064');
    const result = tc3Sign({
      secretId: 'AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE',
      secretKey: 'Gu5t9xGARNpq86cd98joQYCN3EXAMPLE',
      service: 'cvm',
      host: 'cvm.tencentcloudapi.com',
      timestamp: 1551113065,
      payload,
      contentType: 'application/json; charset=utf-8',
    });
    expect(result.canonicalRequest).toBe(
      'POST\n/\n\ncontent-type:application/json; charset=utf-8\nhost:cvm.tencentcloudapi.com\n\ncontent-type;host\n' +
        '35e9c5b0e3ae67532d3c9f17ead6c90222632e5b1ff7f6e89887f1398934f064',
    );
    expect(result.stringToSign).toBe(
      'TC3-HMAC-SHA256\n1551113065\n2019-02-25/cvm/tc3_request\n5ffe6a04c0664d6b969fab9a13bdab201d63ee709638e2749d62a09ca18d7031',
    );
    expect(result.signature).toBe('72e494ea809ad7a8c8f7a4507b9bddcbaa8e581f516e8da2f66e2c5a96525168');
    expect(result.authorization).toBe(
      'TC3-HMAC-SHA256 Credential=AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE/2019-02-25/cvm/tc3_request, ' +
        'SignedHeaders=content-type;host, Signature=72e494ea809ad7a8c8f7a4507b9bddcbaa8e581f516e8da2f66e2c5a96525168',
    );
  });

  it('uses the UTC date of the timestamp, not local time', () => {
    // 2019-02-26 00:44:25 in UTC+8 is still 2019-02-25 in UTC (the doc's own caution).
    const { stringToSign } = tc3Sign({ secretId: 'id', secretKey: 'k', service: 'sms', host: 'h', timestamp: 1551113065, payload: '{}' });
    expect(stringToSign.split('\n')[2]).toBe('2019-02-25/sms/tc3_request');
  });
});

describe('buildTencentRequest', () => {
  it('builds the SendSms POST with the documented headers and body', () => {
    const req = buildTencentRequest(options, message);
    expect(req.method).toBe('POST');
    expect(req.url).toBe('https://sms.tencentcloudapi.com/');
    expect(JSON.parse(req.body)).toEqual({
      PhoneNumberSet: ['+8613800138000'],
      SmsSdkAppId: '1400000001',
      SignName: '工程e+平台',
      TemplateId: '100001',
      TemplateParamSet: ['482913', '5'],
    });
    const { Authorization, ...rest } = req.headers;
    expect(rest).toEqual({
      'Content-Type': 'application/json; charset=utf-8',
      Host: 'sms.tencentcloudapi.com',
      'X-TC-Action': 'SendSms',
      'X-TC-Timestamp': '1767225600',
      'X-TC-Version': '2021-01-11',
      'X-TC-Region': 'ap-guangzhou',
    });
    expect(Authorization).toMatch(
      /^TC3-HMAC-SHA256 Credential=AKID-test-id\/2026-01-01\/sms\/tc3_request, SignedHeaders=content-type;host;x-tc-action, Signature=[0-9a-f]{64}$/,
    );
  });

  it('signs the exact body and headers it sends (independent re-derivation)', () => {
    const req = buildTencentRequest(options, message);
    const canonicalRequest = [
      'POST',
      '/',
      '',
      `content-type:application/json; charset=utf-8\nhost:sms.tencentcloudapi.com\nx-tc-action:sendsms\n`,
      'content-type;host;x-tc-action',
      sha256(req.body),
    ].join('\n');
    const stringToSign = `TC3-HMAC-SHA256\n${req.headers['X-TC-Timestamp']}\n2026-01-01/sms/tc3_request\n${sha256(canonicalRequest)}`;
    const key = hmac(hmac(hmac(`TC3${SECRET_KEY}`, '2026-01-01'), 'sms'), 'tc3_request');
    const expected = createHmac('sha256', key).update(stringToSign, 'utf8').digest('hex');
    expect(req.headers.Authorization?.endsWith(`Signature=${expected}`)).toBe(true);
  });

  it('keeps the secret key out of the URL, headers and body; the secret id appears only in the credential', () => {
    const req = buildTencentRequest(options, message);
    const everything = [req.url, req.body, ...Object.values(req.headers)].join('\n');
    expect(everything).not.toContain(SECRET_KEY);
    expect(req.url).not.toContain(options.secretId);
    expect(req.body).not.toContain(options.secretId);
    const withId = Object.entries(req.headers).filter(([, v]) => v.includes(options.secretId));
    expect(withId.map(([k]) => k)).toEqual(['Authorization']);
  });

  it('honours region, endpoint, template kind and an already-international number', () => {
    const req = buildTencentRequest(
      { ...options, region: 'ap-beijing', endpoint: 'https://sms.ap-beijing.tencentcloudapi.com' },
      { phone: '+85251234567', templateKey: 'login', params: { code: '1' } },
    );
    expect(req.url).toBe('https://sms.ap-beijing.tencentcloudapi.com/');
    expect(req.headers.Host).toBe('sms.ap-beijing.tencentcloudapi.com');
    expect(req.headers['X-TC-Region']).toBe('ap-beijing');
    expect(JSON.parse(req.body)).toMatchObject({ PhoneNumberSet: ['+85251234567'], TemplateId: '100002' });
  });
});

describe('TencentSmsSender.send', () => {
  it('is a real sender that does not expose codes', () => {
    const sender = new TencentSmsSender(options);
    expect(sender.name).toBe('tencent');
    expect(sender.exposesCodes).toBe(false);
  });

  it('sends a notification with its own template and positional params, never the register template', async () => {
    const ok = () => json({ Response: { SendStatusSet: [{ Code: 'Ok', Message: 'send success' }], RequestId: 'r' } });
    const fake = fakeFetch(ok);
    const invite: SmsMessage = { phone: '13800138000', templateKey: 'invite', params: { enterprise: '徐州恒岳', code: '604217' } };
    await expect(new TencentSmsSender({ ...options, fetch: fake.impl }).send(invite)).rejects.toThrow(
      '短信发送失败：未配置“邀请成员”短信模板，请联系平台管理员',
    );
    expect(fake.calls).toHaveLength(0);
    await new TencentSmsSender({ ...options, templateIds: { ...options.templateIds, invite: '200002' }, fetch: fake.impl }).send(invite);
    expect(JSON.parse(String(fake.calls[0]?.init?.body))).toMatchObject({ TemplateId: '200002', TemplateParamSet: ['徐州恒岳', '604217'] });
  });

  it('POSTs the signed request with a timeout signal and resolves when SendStatus is Ok', async () => {
    const fake = fakeFetch(() =>
      json({
        Response: {
          SendStatusSet: [{ SerialNo: '5000:1', PhoneNumber: '+8613800138000', Code: 'Ok', Message: 'send success' }],
          RequestId: 'r',
        },
      }),
    );
    await new TencentSmsSender({ ...options, fetch: fake.impl }).send(message);
    const expected = buildTencentRequest(options, message);
    expect(fake.calls).toHaveLength(1);
    expect(fake.calls[0]?.url).toBe(expected.url);
    expect(fake.calls[0]?.init).toMatchObject({ method: 'POST', headers: expected.headers, body: expected.body });
    expect(fake.calls[0]?.init?.signal).toBeInstanceOf(AbortSignal);
  });

  it('throws Response.Error.Message without the error code', async () => {
    const fake = fakeFetch(() =>
      json({
        Response: {
          Error: { Code: 'AuthFailure.SignatureFailure', Message: 'The provided credentials could not be validated.' },
          RequestId: 'r',
        },
      }),
    );
    const error = await new TencentSmsSender({ ...options, fetch: fake.impl }).send(message).catch((e: unknown) => e);
    expect((error as Error).message).toBe('短信发送失败：The provided credentials could not be validated.');
    expect((error as Error).message).not.toContain('AuthFailure');
  });

  it('throws when the per-number SendStatus is not Ok', async () => {
    const fake = fakeFetch(() =>
      json({
        Response: {
          SendStatusSet: [
            {
              Code: 'LimitExceeded.PhoneNumberDailyLimit',
              Message: 'the number of sms messages sent from a single mobile number every day exceeds the upper limit',
            },
          ],
          RequestId: 'r',
        },
      }),
    );
    await expect(new TencentSmsSender({ ...options, fetch: fake.impl }).send(message)).rejects.toThrow(
      '短信发送失败：the number of sms messages sent from a single mobile number every day exceeds the upper limit',
    );
  });

  it('never puts the secret key or the verification code in the error', async () => {
    const fake = fakeFetch(() =>
      json({ Response: { Error: { Code: 'X', Message: `key ${SECRET_KEY} rejected code 482913` }, RequestId: 'r' } }),
    );
    const error = await new TencentSmsSender({ ...options, fetch: fake.impl }).send(message).catch((e: unknown) => e);
    expect((error as Error).message).toBe('短信发送失败：key *** rejected code ***');
  });

  it('rejects malformed answers', async () => {
    const empty = fakeFetch(() => json({ Response: { SendStatusSet: [], RequestId: 'r' } }));
    await expect(new TencentSmsSender({ ...options, fetch: empty.impl }).send(message)).rejects.toThrow(
      '短信发送失败：服务商未返回发送状态',
    );
    const html = fakeFetch(() => new Response('oops', { status: 500 }));
    await expect(new TencentSmsSender({ ...options, fetch: html.impl }).send(message)).rejects.toThrow('短信发送失败：HTTP 500');
  });
});
