import type { Static } from 'typebox';
import type {
  CertificationApplicationSchema,
  CertificationDecisionBodySchema,
  CertificationReviewDetailSchema,
  CertificationReviewRowSchema,
  CertificationStateSchema,
  CertificationSubmitBodySchema,
  EnterpriseProfileBodySchema,
  EnterpriseProfileSchema,
  NotificationRowSchema,
  PrefixRequestBodySchema,
  PrefixRequestDecisionBodySchema,
  PrefixRequestRowSchema,
  PrivateFileRefSchema,
} from './contracts/certification.js';
/**
 * 企业信息 and 企业认证: the profile's field rules, the unified social credit code's check
 * character (GB 32100-2015), the national industry classification (GB/T 4754-2017, 门类 and 大类), the
 * certification states and rejection reasons, and the shapes of the console calls. One definition for
 * the console's forms and the server's checks.
 */

// ---------------------------------------------------------------------------------------------------
// 统一社会信用代码 (GB 32100-2015)

/** The code's alphabet: digits and upper-case letters without I, O, Z, S, V; a character's value is its index. */
export const CREDIT_CODE_CHARSET = '0123456789ABCDEFGHJKLMNPQRTUWXY';
/** Weights of positions 1–17 (3^(i-1) mod 31), GB 32100-2015 section 5.4. */
const CREDIT_CODE_WEIGHTS = [1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28] as const;
export const CREDIT_CODE_PATTERN = /^[0-9A-HJ-NPQRTUWXY]{2}\d{6}[0-9A-HJ-NPQRTUWXY]{10}$/;

/** The check character (position 18) of a code's first 17 characters: 31 − (Σ value × weight mod 31), 31 counting as 0. */
export function creditCodeCheckChar(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += CREDIT_CODE_CHARSET.indexOf(first17.charAt(i)) * CREDIT_CODE_WEIGHTS[i]!;
  return CREDIT_CODE_CHARSET.charAt((31 - (sum % 31)) % 31);
}

// ---------------------------------------------------------------------------------------------------
// 国民经济行业分类 (GB/T 4754-2017): 20 门类, 97 大类.

export interface IndustryDivision {
  /** 大类 code, two digits. */
  code: string;
  name: string;
}
export interface IndustrySection {
  /** 门类 code, one letter A–T. */
  code: string;
  name: string;
  divisions: IndustryDivision[];
}

const section = (code: string, name: string, first: number, names: string[]): IndustrySection => ({
  code,
  name,
  divisions: names.map((n, i) => ({ code: String(first + i).padStart(2, '0'), name: n })),
});

export const INDUSTRY_SECTIONS: readonly IndustrySection[] = [
  section('A', '农、林、牧、渔业', 1, ['农业', '林业', '畜牧业', '渔业', '农、林、牧、渔专业及辅助性活动']),
  section('B', '采矿业', 6, [
    '煤炭开采和洗选业',
    '石油和天然气开采业',
    '黑色金属矿采选业',
    '有色金属矿采选业',
    '非金属矿采选业',
    '开采专业及辅助性活动',
    '其他采矿业',
  ]),
  section('C', '制造业', 13, [
    '农副食品加工业',
    '食品制造业',
    '酒、饮料和精制茶制造业',
    '烟草制品业',
    '纺织业',
    '纺织服装、服饰业',
    '皮革、毛皮、羽毛及其制品和制鞋业',
    '木材加工和木、竹、藤、棕、草制品业',
    '家具制造业',
    '造纸和纸制品业',
    '印刷和记录媒介复制业',
    '文教、工美、体育和娱乐用品制造业',
    '石油、煤炭及其他燃料加工业',
    '化学原料和化学制品制造业',
    '医药制造业',
    '化学纤维制造业',
    '橡胶和塑料制品业',
    '非金属矿物制品业',
    '黑色金属冶炼和压延加工业',
    '有色金属冶炼和压延加工业',
    '金属制品业',
    '通用设备制造业',
    '专用设备制造业',
    '汽车制造业',
    '铁路、船舶、航空航天和其他运输设备制造业',
    '电气机械和器材制造业',
    '计算机、通信和其他电子设备制造业',
    '仪器仪表制造业',
    '其他制造业',
    '废弃资源综合利用业',
    '金属制品、机械和设备修理业',
  ]),
  section('D', '电力、热力、燃气及水生产和供应业', 44, ['电力、热力生产和供应业', '燃气生产和供应业', '水的生产和供应业']),
  section('E', '建筑业', 47, ['房屋建筑业', '土木工程建筑业', '建筑安装业', '建筑装饰、装修和其他建筑业']),
  section('F', '批发和零售业', 51, ['批发业', '零售业']),
  section('G', '交通运输、仓储和邮政业', 53, [
    '铁路运输业',
    '道路运输业',
    '水上运输业',
    '航空运输业',
    '管道运输业',
    '多式联运和运输代理业',
    '装卸搬运和仓储业',
    '邮政业',
  ]),
  section('H', '住宿和餐饮业', 61, ['住宿业', '餐饮业']),
  section('I', '信息传输、软件和信息技术服务业', 63, ['电信、广播电视和卫星传输服务', '互联网和相关服务', '软件和信息技术服务业']),
  section('J', '金融业', 66, ['货币金融服务', '资本市场服务', '保险业', '其他金融业']),
  section('K', '房地产业', 70, ['房地产业']),
  section('L', '租赁和商务服务业', 71, ['租赁业', '商务服务业']),
  section('M', '科学研究和技术服务业', 73, ['研究和试验发展', '专业技术服务业', '科技推广和应用服务业']),
  section('N', '水利、环境和公共设施管理业', 76, ['水利管理业', '生态保护和环境治理业', '公共设施管理业', '土地管理业']),
  section('O', '居民服务、修理和其他服务业', 80, ['居民服务业', '机动车、电子产品和日用产品修理业', '其他服务业']),
  section('P', '教育', 83, ['教育']),
  section('Q', '卫生和社会工作', 84, ['卫生', '社会工作']),
  section('R', '文化、体育和娱乐业', 86, ['新闻和出版业', '广播、电视、电影和录音制作业', '文化艺术业', '体育', '娱乐业']),
  section('S', '公共管理、社会保障和社会组织', 91, [
    '中国共产党机关',
    '国家机构',
    '人民政协、民主党派',
    '社会保障',
    '群众团体、社会团体和其他成员组织',
    '基层群众自治组织及其他组织',
  ]),
  section('T', '国际组织', 97, ['国际组织']),
];

/** 门类 and 大类 of a 大类 code, or undefined for an unknown code. */
export function industryOf(code: string): { section: IndustrySection; division: IndustryDivision } | undefined {
  for (const s of INDUSTRY_SECTIONS) {
    const division = s.divisions.find((d) => d.code === code);
    if (division) return { section: s, division };
  }
  return undefined;
}

/** “C 制造业 / 34 通用设备制造业”, or '' for an empty or unknown code. */
export function industryLabel(code: string): string {
  const found = industryOf(code);
  return found ? `${found.section.code} ${found.section.name} / ${found.division.code} ${found.division.name}` : '';
}

// ---------------------------------------------------------------------------------------------------
// 企业信息

export const ENTERPRISE_NAME_MAX = 100;
export const LEGAL_REPRESENTATIVE_MAX = 32;
export const ADDRESS_MAX = 200;
export const CONTACT_NAME_MAX = 32;
export const INTRODUCTION_MAX = 2000;
/** 联系电话: a mobile number, or a landline with its area code (010-12345678, 0516-8765432-801). */
export const CONTACT_PHONE_PATTERN = /^(?:1[3-9]\d{9}|0\d{2,3}-?\d{7,8}(?:-\d{1,6})?)$/;

export const EnterpriseMessage = {
  nameRequired: '请输入企业名称',
  nameTooShort: '企业名称至少2个字符',
  nameTooLong: `企业名称最多${ENTERPRISE_NAME_MAX}个字符`,
  nameTaken: '企业名称已被其他企业使用',
  creditCodeRequired: '请输入统一社会信用代码',
  creditCodeInvalid: '统一社会信用代码为 18 位数字或大写字母（不含 I、O、Z、S、V）',
  creditCodeCheck: '统一社会信用代码校验位不正确，请核对',
  creditCodeTaken: '该统一社会信用代码已被其他企业使用',
  legalRepresentativeRequired: '请输入法定代表人',
  legalRepresentativeTooLong: `法定代表人最多${LEGAL_REPRESENTATIVE_MAX}个字符`,
  addressTooLong: `注册地址最多${ADDRESS_MAX}个字符`,
  industryInvalid: '请选择所属行业（国民经济行业分类大类）',
  regionInvalid: '请选择所在地区（省、市）',
  contactNameTooLong: `联系人最多${CONTACT_NAME_MAX}个字符`,
  contactPhoneInvalid: '请输入正确的联系电话（手机号或带区号的固定电话）',
  introductionTooLong: `企业简介最多${INTRODUCTION_MAX}个字符`,
  /** The logo is an image uploaded to this portal (its path under /files). */
  logoInvalid: '企业 Logo 须为本平台上传的图片',
  /** Name and credit code are what a reviewer checked: they change only through a new certification. */
  certifiedFieldsLocked: '企业名称与统一社会信用代码已提交认证，不能直接修改',
} as const;

/** The refusals that name 企业名称 or 统一社会信用代码, each with its field: forms show them under it (基本信息, 新建企业). */
export const ENTERPRISE_IDENTITY_FIELD_OF_MESSAGE: ReadonlyArray<readonly [string, 'name' | 'creditCode']> = [
  [EnterpriseMessage.nameRequired, 'name'],
  [EnterpriseMessage.nameTooShort, 'name'],
  [EnterpriseMessage.nameTooLong, 'name'],
  [EnterpriseMessage.nameTaken, 'name'],
  [EnterpriseMessage.creditCodeRequired, 'creditCode'],
  [EnterpriseMessage.creditCodeInvalid, 'creditCode'],
  [EnterpriseMessage.creditCodeCheck, 'creditCode'],
  [EnterpriseMessage.creditCodeTaken, 'creditCode'],
];

const length = (text: string) => [...text].length;

/** One rule per field: the message for a bad value, or undefined (the console's form rules and the server both call these). */
export const EnterpriseRules = {
  name(value: string): string | undefined {
    if (!value) return EnterpriseMessage.nameRequired;
    if (length(value) < 2) return EnterpriseMessage.nameTooShort;
    return length(value) > ENTERPRISE_NAME_MAX ? EnterpriseMessage.nameTooLong : undefined;
  },
  creditCode(value: string): string | undefined {
    if (!value) return EnterpriseMessage.creditCodeRequired;
    if (!CREDIT_CODE_PATTERN.test(value)) return EnterpriseMessage.creditCodeInvalid;
    return creditCodeCheckChar(value.slice(0, 17)) === value.charAt(17) ? undefined : EnterpriseMessage.creditCodeCheck;
  },
  legalRepresentative(value: string): string | undefined {
    if (!value) return EnterpriseMessage.legalRepresentativeRequired;
    return length(value) > LEGAL_REPRESENTATIVE_MAX ? EnterpriseMessage.legalRepresentativeTooLong : undefined;
  },
  address: (value: string) => (length(value) > ADDRESS_MAX ? EnterpriseMessage.addressTooLong : undefined),
  /** Optional; when given, a known 大类 code. */
  industry: (value: string) => (value && !industryOf(value) ? EnterpriseMessage.industryInvalid : undefined),
  contactName: (value: string) => (length(value) > CONTACT_NAME_MAX ? EnterpriseMessage.contactNameTooLong : undefined),
  contactPhone: (value: string) => (value && !CONTACT_PHONE_PATTERN.test(value) ? EnterpriseMessage.contactPhoneInvalid : undefined),
  introduction: (value: string) => (length(value) > INTRODUCTION_MAX ? EnterpriseMessage.introductionTooLong : undefined),
} as const;

/** 所在地区: a province and a city (codes of the administrative divisions, GB/T 2260: 110000, 320300). */
export interface RegionOption {
  code: string;
  name: string;
  children?: RegionOption[];
}

export type EnterpriseProfile = Static<typeof EnterpriseProfileSchema>;

export type EnterpriseProfileBody = Static<typeof EnterpriseProfileBodySchema>;

// ---------------------------------------------------------------------------------------------------
// 企业认证

/** none: never applied (未认证); pending: an application awaits review; certified; rejected: the last application was. */
export type CertificationStatus = 'none' | 'pending' | 'certified' | 'rejected';
export const CERTIFICATION_STATUS_LABELS: Record<CertificationStatus, string> = {
  none: '未认证',
  pending: '待审核',
  certified: '已认证',
  rejected: '已驳回',
};

/** Business licence and authorisation letter: JPG, PNG or PDF, recognised by content, at most 10 MB. */
export const CERTIFICATION_FILE_MAX_BYTES = 10 * 1024 * 1024;
export const CERTIFICATION_FILE_TYPES = ['image/jpeg', 'image/png', 'application/pdf'] as const;
export type CertificationFileType = (typeof CERTIFICATION_FILE_TYPES)[number];
export type CertificationFilePurpose = 'licence' | 'authorization';

/** The applicant is the legal representative, or an agent holding an authorisation letter (授权书). */
export type ApplicantRole = 'legal' | 'agent';
export const APPLICANT_ROLE_LABELS: Record<ApplicantRole, string> = { legal: '法定代表人本人', agent: '经办人（需上传授权书）' };

/** The form fields a rejection reason points at (the applicant sees each reason at its field). */
export type CertificationField = 'enterpriseName' | 'creditCode' | 'licence' | 'authorization' | 'general';

export const CERTIFICATION_REJECT_REASONS = [
  { code: 'licence-unclear', label: '营业执照不清晰', field: 'licence' },
  { code: 'name-mismatch', label: '企业名称与执照不一致', field: 'enterpriseName' },
  { code: 'credit-code-mismatch', label: '统一社会信用代码与执照不一致', field: 'creditCode' },
  { code: 'licence-expired', label: '营业执照已过期', field: 'licence' },
  { code: 'authorization-missing', label: '缺少授权书', field: 'authorization' },
  { code: 'other', label: '其他', field: 'general' },
] as const satisfies readonly { code: string; label: string; field: CertificationField }[];
export type CertificationRejectReason = (typeof CERTIFICATION_REJECT_REASONS)[number]['code'];
export const CERTIFICATION_COMMENT_MAX = 500;

export const CertificationMessage = {
  pending: '认证申请正在审核中，请勿重复提交',
  alreadyCertified: '企业已通过认证',
  declarationRequired: '请阅读并勾选认证声明',
  licenceRequired: '请上传营业执照',
  authorizationRequired: '经办人申请须上传授权书',
  fileMissing: '材料文件不存在，请重新上传',
  fileTooLarge: '文件不能超过 10 MB',
  fileType: '只能上传 JPG、PNG 图片或 PDF 文件',
  notPending: '该申请不是待审核状态，不能重复审核',
  reasonRequired: '驳回时请至少选择一项原因',
  commentRequired: '选择“其他”时请填写说明',
  commentTooLong: `说明最多${CERTIFICATION_COMMENT_MAX}个字符`,
  noEnterprise: '当前账号不属于任何企业',
  /** Identifier pages and application subscription wait for certification. */
  certificationRequired: '企业认证通过后才能使用此功能',
} as const;

export type PrivateFileRef = Static<typeof PrivateFileRefSchema>;

export type CertificationSubmitBody = Static<typeof CertificationSubmitBodySchema>;

export type CertificationApplication = Static<typeof CertificationApplicationSchema>;

/** 企业认证 of the caller's enterprise: the status and every application, newest first (the timeline). */
export type CertificationState = Static<typeof CertificationStateSchema>;

/** 认证审核's queue row. */
export type CertificationReviewRow = Static<typeof CertificationReviewRowSchema>;

/** 认证审核's detail: the application, the enterprise's current profile and its earlier applications. */
export type CertificationReviewDetail = Static<typeof CertificationReviewDetailSchema>;

export type CertificationDecisionBody = Static<typeof CertificationDecisionBodySchema>;

// ---------------------------------------------------------------------------------------------------
// 消息中心

export type NotificationKind = 'certification' | 'join' | 'security' | 'identifier' | 'subscription';
export const NOTIFICATION_KIND_LABELS: Record<NotificationKind, string> = {
  certification: '企业认证',
  join: '加入申请',
  security: '安全提醒',
  identifier: '标识前缀',
  subscription: '应用订阅',
};

export type NotificationRow = Static<typeof NotificationRowSchema>;

// ---------------------------------------------------------------------------------------------------
// 申请标识前缀

export type PrefixRequestStatus = 'pending' | 'approved' | 'rejected';
export const PREFIX_REQUEST_STATUS_LABELS: Record<PrefixRequestStatus, string> = {
  pending: '待审批',
  approved: '已通过',
  rejected: '已驳回',
};
/** 用途说明: required; it becomes the prefix's name when approved (标识前缀 names hold 100 characters). */
export const PREFIX_PURPOSE_MAX = 100;
/** The reason an operator gives for 驳回, shown to the enterprise. */
export const PREFIX_REJECT_REASON_MAX = 200;
export const PrefixRequestMessage = {
  prefixRequired: '请输入标识前缀',
  purposeRequired: '请填写用途说明',
  purposeTooLong: `用途说明不能超过 ${PREFIX_PURPOSE_MAX} 个字符`,
  reasonRequired: '请填写驳回原因',
  reasonTooLong: `驳回原因不能超过 ${PREFIX_REJECT_REASON_MAX} 个字符`,
} as const;
/** 分配前缀 and 申请标识前缀 are for certified enterprises only. */
export const PREFIX_NEEDS_CERTIFICATION = '只能为已认证的企业分配标识前缀';

export type PrefixRequestBody = Static<typeof PrefixRequestBodySchema>;

export type PrefixRequestRow = Static<typeof PrefixRequestRowSchema>;

export type PrefixRequestDecisionBody = Static<typeof PrefixRequestDecisionBodySchema>;
