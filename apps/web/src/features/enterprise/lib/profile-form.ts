import {
  type EnterpriseProfile,
  type EnterpriseProfileBody,
  ENTERPRISE_IDENTITY_FIELD_OF_MESSAGE,
  EnterpriseMessage,
  EnterpriseRules,
  INDUSTRY_SECTIONS,
  type RegionOption,
  industryOf,
} from '@portal/shared';
import type { FormRule } from 'antd';
import { tenantRule, trimmed } from '@/lib/form-rules';

/** 基本信息's form: 所属行业 and 所在地区 are cascader paths (门类 → 大类, province → city). */
export interface ProfileFormValues {
  name: string;
  creditCode: string;
  legalRepresentative: string;
  address: string;
  industry: string[];
  region: string[];
  contactName: string;
  contactPhone: string;
  introduction: string;
  logo: string;
}

export type ProfileFormField = keyof ProfileFormValues;

/** 所属行业's options: the 20 门类 of GB/T 4754, each with its 大类 (“C 制造业” → “34 通用设备制造业”). */
export const INDUSTRY_OPTIONS = INDUSTRY_SECTIONS.map((s) => ({
  value: s.code,
  label: `${s.code} ${s.name}`,
  children: s.divisions.map((d) => ({ value: d.code, label: `${d.code} ${d.name}` })),
}));

/** The cascader path of a 大类 code ([] for none or an unknown code). */
export function industryPath(code: string): string[] {
  const found = industryOf(code);
  return found ? [found.section.code, found.division.code] : [];
}

/**
 * The cascader path of a city code: its province from the region list, or (before the list has
 * loaded) by the GB/T 2260 rule that a city 320300 lies in the province 320000.
 */
export function regionPath(code: string, regions: readonly RegionOption[] | undefined): string[] {
  if (!code) return [];
  const province = regions?.find((p) => p.children?.some((c) => c.code === code));
  return [province?.code ?? `${code.slice(0, 2)}0000`, code];
}

/** The last code of a cascader path ('' for none). */
const leaf = (path: readonly string[] | undefined) => path?.[path.length - 1] ?? '';

export function profileForm(profile: EnterpriseProfile, regions: readonly RegionOption[] | undefined): ProfileFormValues {
  return {
    name: profile.name,
    creditCode: profile.creditCode,
    legalRepresentative: profile.legalRepresentative,
    address: profile.address,
    industry: industryPath(profile.industryCode),
    region: regionPath(profile.regionCode, regions),
    contactName: profile.contactName,
    contactPhone: profile.contactPhone,
    introduction: profile.introduction,
    logo: profile.logo,
  };
}

export function profileBody(values: ProfileFormValues): EnterpriseProfileBody {
  return {
    name: trimmed(values.name),
    creditCode: trimmed(values.creditCode),
    legalRepresentative: trimmed(values.legalRepresentative),
    address: trimmed(values.address),
    industryCode: leaf(values.industry),
    regionCode: leaf(values.region),
    contactName: trimmed(values.contactName),
    contactPhone: trimmed(values.contactPhone),
    introduction: trimmed(values.introduction),
    logo: values.logo ?? '',
  };
}

/** 统一社会信用代码 is typed in upper case (the code has no lower-case letters); spaces of a pasted value go. */
export const normalizeCreditCode = (value: unknown) => (typeof value === 'string' ? value.toUpperCase().replace(/\s+/g, '') : '');

/** The profile may keep no credit code until the enterprise applies for certification. */
export const optionalCreditCode = (value: string) => (value ? EnterpriseRules.creditCode(value) : undefined);

/** 所属行业: a known 大类 when chosen. */
export const industryRule: FormRule = {
  validator: (_rule, value: string[] | undefined) => {
    const message = EnterpriseRules.industry(leaf(value));
    return message ? Promise.reject(new Error(message)) : Promise.resolve();
  },
};

export const profileRules = {
  name: [tenantRule(EnterpriseRules.name)],
  creditCode: [tenantRule(optionalCreditCode)],
  legalRepresentative: [tenantRule(EnterpriseRules.legalRepresentative)],
  address: [tenantRule(EnterpriseRules.address)],
  industry: [industryRule],
  contactName: [tenantRule(EnterpriseRules.contactName)],
  contactPhone: [tenantRule(EnterpriseRules.contactPhone)],
  introduction: [tenantRule(EnterpriseRules.introduction)],
} satisfies Partial<Record<ProfileFormField, FormRule[]>>;

/** The server's messages that name one field of 基本信息: its refusal shows under that field. */
const FIELD_OF_MESSAGE = new Map<string, ProfileFormField>([
  ...ENTERPRISE_IDENTITY_FIELD_OF_MESSAGE,
  [EnterpriseMessage.legalRepresentativeRequired, 'legalRepresentative'],
  [EnterpriseMessage.legalRepresentativeTooLong, 'legalRepresentative'],
  [EnterpriseMessage.addressTooLong, 'address'],
  [EnterpriseMessage.industryInvalid, 'industry'],
  [EnterpriseMessage.regionInvalid, 'region'],
  [EnterpriseMessage.contactNameTooLong, 'contactName'],
  [EnterpriseMessage.contactPhoneInvalid, 'contactPhone'],
  [EnterpriseMessage.introductionTooLong, 'introduction'],
]);

export const profileFieldOfMessage = (message: string): ProfileFormField | undefined => FIELD_OF_MESSAGE.get(message);
