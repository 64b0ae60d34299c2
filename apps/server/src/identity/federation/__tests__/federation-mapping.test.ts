import { describe, expect, it } from 'vitest';
import { emailDomain, mapIdentity, plainText } from '../federation-service.js';

const settings = {
  domains: ['corp.example.cn'],
  jit: true,
  groupIds: [],
  enforce: false,
  mapping: { username: 'upn', name: 'displayName', email: 'mail', phone: 'mobile' },
};
const identity = (claims: Record<string, unknown>) => ({ subject: 's-1', claims, emailVerified: true });

describe('the account fields a provider’s claims map to', () => {
  it('takes a UPN’s local part as the username, a +86 mobile as the phone and a lower-case email', () => {
    expect(
      mapIdentity(
        settings,
        identity({ upn: 'Zhao.Lei@corp.example.cn', displayName: '赵磊', mail: 'Zhao.Lei@Corp.Example.cn', mobile: '+86 139-0000-0101' }),
      ),
    ).toEqual({ username: 'Zhao_Lei', name: '赵磊', email: 'zhao.lei@corp.example.cn', phone: '13900000101' });
  });

  it('leaves out what an account cannot hold: a foreign or malformed phone, an over-long or malformed email; the name falls back to the username', () => {
    const long = `${'a'.repeat(95)}@corp.example.cn`;
    expect(mapIdentity(settings, identity({ upn: 'lisi', mail: long, mobile: '+1 415 555 0100' }))).toEqual({
      username: 'lisi',
      name: 'lisi',
      email: '',
      phone: '',
    });
    expect(mapIdentity(settings, identity({ upn: 'lisi', mail: 'not-an-address', mobile: 13900000102 })).phone).toBe('13900000102');
    expect(mapIdentity(settings, identity({ upn: ['a'], mail: { x: 1 } }))).toMatchObject({ username: '', email: '' });
  });

  it('keeps a name whole to its 32 characters, never half an emoji, and strips control and direction characters', () => {
    const name = `${'赵'.repeat(31)}😀尾`;
    expect(mapIdentity(settings, identity({ upn: 'zl', displayName: name })).name).toBe(`${'赵'.repeat(31)}😀`);
    expect(mapIdentity(settings, identity({ upn: 'zl', displayName: '\u202e赵\u0007磊\r\n' })).name).toBe('赵磊');
    expect(plainText('sub\u0000-1\u001b[31m', 200)).toBe('sub-1[31m');
  });

  it('reads the domain identity-first routes by, case-insensitively', () => {
    expect(emailDomain('Zhao.Lei@CORP.Example.cn')).toBe('corp.example.cn');
    expect(emailDomain('zhaolei')).toBeUndefined();
    expect(emailDomain('@corp.example.cn')).toBeUndefined();
    expect(emailDomain('zhaolei@')).toBeUndefined();
  });
});
