import { describe, expect, it } from 'vitest';
import { AliyunSmsSender } from '../aliyun-sms-sender.js';
import { SMS_ENV_KEYS, createSmsSender } from '../create-sms-sender.js';
import { LogSmsSender } from '../log-sms-sender.js';
import { TencentSmsSender } from '../tencent-sms-sender.js';

const log = { info: () => undefined };

const aliyunEnv = {
  SMS_PROVIDER: 'aliyun',
  ALIYUN_SMS_ACCESS_KEY_ID: 'LTAI-test-id',
  ALIYUN_SMS_ACCESS_KEY_SECRET: 'aliyun-secret-value-XYZ',
  ALIYUN_SMS_SIGN_NAME: '工程e+',
  ALIYUN_SMS_TEMPLATE_REGISTER: 'SMS_1',
};

const tencentEnv = {
  SMS_PROVIDER: 'tencent',
  TENCENT_SMS_SECRET_ID: 'AKID-test-id',
  TENCENT_SMS_SECRET_KEY: 'tencent-secret-value-XYZ',
  TENCENT_SMS_SDK_APP_ID: '1400000001',
  TENCENT_SMS_SIGN_NAME: '工程e+',
  TENCENT_SMS_TEMPLATE_REGISTER: '100001',
};

describe('createSmsSender', () => {
  it('defaults to the log sender', () => {
    expect(createSmsSender({}, log)).toBeInstanceOf(LogSmsSender);
    expect(createSmsSender({ SMS_PROVIDER: '' }, log)).toBeInstanceOf(LogSmsSender);
    expect(createSmsSender({ SMS_PROVIDER: ' LOG ' }, log)).toBeInstanceOf(LogSmsSender);
  });

  it('builds the aliyun and tencent senders from complete settings', () => {
    const aliyun = createSmsSender(aliyunEnv, log);
    expect(aliyun).toBeInstanceOf(AliyunSmsSender);
    expect(aliyun.exposesCodes).toBe(false);
    const tencent = createSmsSender(tencentEnv, log);
    expect(tencent).toBeInstanceOf(TencentSmsSender);
    expect(tencent.exposesCodes).toBe(false);
  });

  it('lists every missing variable for the chosen provider, and no values', () => {
    expect(() => createSmsSender({ SMS_PROVIDER: 'aliyun', ALIYUN_SMS_ACCESS_KEY_SECRET: 'aliyun-secret-value-XYZ' }, log)).toThrow(
      'SMS_PROVIDER=aliyun needs ALIYUN_SMS_ACCESS_KEY_ID, ALIYUN_SMS_SIGN_NAME, ALIYUN_SMS_TEMPLATE_REGISTER',
    );
    const { TENCENT_SMS_SIGN_NAME: _s, ...partial } = tencentEnv;
    let message = '';
    try {
      createSmsSender({ ...partial, TENCENT_SMS_SDK_APP_ID: '   ' }, log);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe('SMS_PROVIDER=tencent needs TENCENT_SMS_SDK_APP_ID, TENCENT_SMS_SIGN_NAME');
    expect(message).not.toContain('tencent-secret-value-XYZ');
  });

  it('rejects an unknown provider', () => {
    expect(() => createSmsSender({ SMS_PROVIDER: 'twilio' }, log)).toThrow(/Unknown SMS_PROVIDER "twilio"/);
  });

  it('documents every key it reads', () => {
    for (const key of [...Object.keys(aliyunEnv), ...Object.keys(tencentEnv)]) expect(SMS_ENV_KEYS).toHaveProperty(key);
    for (const description of Object.values(SMS_ENV_KEYS)) expect(description).not.toContain('\n');
  });
});
