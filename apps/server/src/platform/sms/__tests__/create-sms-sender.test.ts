import { afterEach, describe, expect, it, vi } from 'vitest';
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

  describe('templates', () => {
    afterEach(() => vi.unstubAllGlobals());
    /** The template each provider call named (the senders call the global fetch). */
    const sentTemplates = () => {
      const templates: string[] = [];
      vi.stubGlobal('fetch', async (input: string | URL, init?: RequestInit) => {
        const url = new URL(String(input));
        if (url.searchParams.has('TemplateCode')) {
          templates.push(url.searchParams.get('TemplateCode') ?? '');
          return Response.json({ Code: 'OK' });
        }
        templates.push((JSON.parse(String(init?.body)) as { TemplateId: string }).TemplateId);
        return Response.json({ Response: { SendStatusSet: [{ Code: 'Ok' }] } });
      });
      return templates;
    };
    const phone = '13800138000';

    it('codes fall back to the register template; notifications never do', async () => {
      const templates = sentTemplates();
      for (const env of [aliyunEnv, tencentEnv]) {
        const sender = createSmsSender(env, log);
        await sender.send({ phone, templateKey: 'login', params: { code: '123456' } });
        await sender.send({ phone, templateKey: 'reset', params: { code: '123456' } });
        await expect(sender.send({ phone, templateKey: 'password', params: { password: 'Kq7mVx2pLw' } })).rejects.toThrow(
          '未配置“账号密码通知”短信模板',
        );
        await expect(sender.send({ phone, templateKey: 'invite', params: { enterprise: '恒岳', code: '123456' } })).rejects.toThrow(
          '未配置“邀请成员”短信模板',
        );
        await expect(sender.send({ phone, templateKey: 'join-result', params: { enterprise: '恒岳', result: '已通过' } })).rejects.toThrow(
          '未配置“加入申请结果”短信模板',
        );
        await expect(
          sender.send({ phone, templateKey: 'certification-result', params: { enterprise: '恒岳', result: '已通过' } }),
        ).rejects.toThrow('未配置“企业认证结果”短信模板');
      }
      expect(templates).toEqual(['SMS_1', 'SMS_1', '100001', '100001']);
    });

    it('reads each notification template from its own variable', async () => {
      const templates = sentTemplates();
      const aliyun = createSmsSender(
        {
          ...aliyunEnv,
          ALIYUN_SMS_TEMPLATE_PASSWORD: 'SMS_P',
          ALIYUN_SMS_TEMPLATE_INVITE: 'SMS_I',
          ALIYUN_SMS_TEMPLATE_JOIN_RESULT: 'SMS_J',
          ALIYUN_SMS_TEMPLATE_CERTIFICATION_RESULT: 'SMS_C',
        },
        log,
      );
      const tencent = createSmsSender(
        {
          ...tencentEnv,
          TENCENT_SMS_TEMPLATE_PASSWORD: '3',
          TENCENT_SMS_TEMPLATE_INVITE: '4',
          TENCENT_SMS_TEMPLATE_JOIN_RESULT: '5',
          TENCENT_SMS_TEMPLATE_CERTIFICATION_RESULT: '6',
        },
        log,
      );
      for (const sender of [aliyun, tencent]) {
        await sender.send({ phone, templateKey: 'password', params: { password: 'Kq7mVx2pLw' } });
        await sender.send({ phone, templateKey: 'invite', params: { enterprise: '恒岳', code: '123456' } });
        await sender.send({ phone, templateKey: 'join-result', params: { enterprise: '恒岳', result: '已通过' } });
        await sender.send({ phone, templateKey: 'certification-result', params: { enterprise: '恒岳', result: '未通过' } });
      }
      expect(templates).toEqual(['SMS_P', 'SMS_I', 'SMS_J', 'SMS_C', '3', '4', '5', '6']);
    });
  });

  it('rejects an unknown provider', () => {
    expect(() => createSmsSender({ SMS_PROVIDER: 'twilio' }, log)).toThrow(/Unknown SMS_PROVIDER "twilio"/);
  });

  it('documents every key it reads', () => {
    const templates = ['LOGIN', 'RESET', 'PASSWORD', 'INVITE', 'JOIN_RESULT', 'CERTIFICATION_RESULT'].flatMap((t) => [
      `ALIYUN_SMS_TEMPLATE_${t}`,
      `TENCENT_SMS_TEMPLATE_${t}`,
    ]);
    for (const key of [...Object.keys(aliyunEnv), ...Object.keys(tencentEnv), ...templates]) expect(SMS_ENV_KEYS).toHaveProperty(key);
    for (const description of Object.values(SMS_ENV_KEYS)) expect(description).not.toContain('\n');
  });
});
