import { domainToASCII } from 'node:url';

/**
 * A domain as it is claimed and compared: lower case, without a leading `@` or a trailing dot, an
 * internationalised one in its ASCII form (`例子.中国` → `xn--fsqu00a.xn--fiqs8s`), so the claim and
 * the address typed at the login meet. A value that is no domain stays as typed (the rules refuse it).
 */
export function normalDomain(value: string): string {
  const trimmed = value.trim().replace(/^@/, '').replace(/\.$/, '').toLowerCase();
  return domainToASCII(trimmed) || trimmed;
}

/**
 * Public mail services: an address there says nothing of the enterprise, so no enterprise may claim
 * their domains for identity-first login. No maintained npm list covers the Chinese providers, so the
 * common ones are named here (subdomains are separate domains and would need their own claim anyway).
 */
const PUBLIC_MAIL_DOMAINS = new Set([
  'qq.com',
  'vip.qq.com',
  'foxmail.com',
  '163.com',
  'vip.163.com',
  '126.com',
  'yeah.net',
  '188.com',
  'sina.com',
  'sina.cn',
  'vip.sina.com',
  'sohu.com',
  'aliyun.com',
  '139.com',
  '189.cn',
  'wo.cn',
  'tom.com',
  '21cn.com',
  'gmail.com',
  'googlemail.com',
  'outlook.com',
  'hotmail.com',
  'live.com',
  'live.cn',
  'msn.com',
  'yahoo.com',
  'yahoo.com.cn',
  'icloud.com',
  'me.com',
  'mac.com',
  'aol.com',
  'proton.me',
  'protonmail.com',
  'yandex.com',
  'gmx.com',
  'mail.com',
  'zoho.com',
]);

export const isPublicMailDomain = (domain: string): boolean => PUBLIC_MAIL_DOMAINS.has(domain);
