import { AD_MAPPING, AuthSourceMessage, type AuthSourceDetail, LDAP_DEFAULTS } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import { authSourceInput, authSourceTestInput, editAuthSourceForm, fieldOfMessage, newAuthSourceForm } from '../lib/auth-source-form';

describe('the form and the bodies it sends', () => {
  const stored: AuthSourceDetail = {
    id: 3,
    type: 'ldap',
    name: '恒岳目录',
    enabled: true,
    hasSecret: true,
    callbackUrl: null,
    updatedAt: '2026-11-20 09:30:00',
    config: { ...LDAP_DEFAULTS, url: 'ldaps://ldap.hengyue.example', mapping: { ...AD_MAPPING }, adDomain: 'hengyue.example' },
  };

  it('starts an edit from the stored settings with an empty secret, and leaves an empty secret out of the body', () => {
    const form = editAuthSourceForm(stored);
    expect(form.secret).toBe('');
    expect(form.ldap.mapping).toEqual(AD_MAPPING);
    const body = authSourceInput('ldap', { ...form, name: ' 恒岳 AD ' });
    expect(body).not.toHaveProperty('secret');
    expect(body).toMatchObject({ type: 'ldap', name: '恒岳 AD', config: { url: 'ldaps://ldap.hengyue.example', startTls: false } });
    expect(authSourceTestInput('ldap', form, 3)).toEqual({ type: 'ldap', config: body.config, id: 3 });
    expect(authSourceTestInput('ldap', { ...form, secret: ' s3cret ' }, 3)).toMatchObject({ id: 3, secret: ' s3cret ' });
  });

  it('sends only the settings of the source type, trimmed', () => {
    const form = { ...newAuthSourceForm('wecom'), wecom: { corpId: ' ww123 ', agentId: '1000002' }, secret: 'abc' };
    expect(form.name).toBe('企业微信');
    expect(authSourceInput('wecom', form)).toEqual({
      type: 'wecom',
      name: '企业微信',
      enabled: true,
      secret: 'abc',
      config: { corpId: 'ww123', agentId: '1000002' },
    });
  });

  it('names the field of a server refusal', () => {
    expect(fieldOfMessage('ldap', AuthSourceMessage.filterInvalid)).toEqual(['ldap', 'userFilter']);
    expect(fieldOfMessage('dingtalk', AuthSourceMessage.corpIdRequired)).toEqual(['dingtalk', 'corpId']);
    expect(fieldOfMessage('ldap', AuthSourceMessage.nameTaken)).toBe('name');
    expect(fieldOfMessage('ldap', AuthSourceMessage.inUse)).toBeUndefined();
  });
});
