import { type ApplicantRole, type CertificationFileType, Role, creditCodeCheckChar } from '@portal/shared';

/**
 * 企业信息 and 企业认证 demo data. Fictional enterprises with codes that pass the checks;
 * scripts/draw-certification-samples.mjs draws their sample 营业执照 and 授权委托书 from these facts
 * (apps/server/assets/certification), so what a reviewer sees matches the profile.
 */

/** GB 11714 organisation code: 8 characters and the check character (a credit code's positions 9–17). */
function organisationCode(body: string): string {
  const weights = [3, 7, 9, 10, 5, 8, 4, 2];
  const sum = [...body].reduce((total, c, i) => total + parseInt(c, 36) * weights[i]!, 0);
  const check = 11 - (sum % 11);
  return body + (check === 10 ? 'X' : check === 11 ? '0' : String(check));
}

/** 统一社会信用代码 (GB 32100-2015): 9 (market regulation) 1 (enterprise), the division, the organisation code, the check character. */
function creditCode(division: string, organisation: string): string {
  const first17 = `91${division}${organisationCode(organisation)}`;
  return first17 + creditCodeCheckChar(first17);
}

export interface SampleFile {
  /** Under apps/server/assets/certification. */
  file: string;
  mime: CertificationFileType;
  /** The name the reviewer sees. */
  originalName: string;
}

export interface DemoCertification {
  enterprise: string;
  creditCode: string;
  legalRepresentative: string;
  address: string;
  /** GB/T 4754 大类. */
  industryCode: string;
  /** City (GB/T 2260). */
  regionCode: string;
  contactName: string;
  contactPhone: string;
  introduction: string;
  /** What only the licence shows. */
  licence: SampleFile & {
    number: string;
    type: string;
    capital: string;
    established: string;
    term: string;
    scope: string;
    issued: string;
  };
  application: {
    /** A demo account's username. */
    applicant: string;
    applicantRole: ApplicantRole;
    /** With an agent's application: 授权委托书. */
    authorization?: SampleFile & { agentIdNumber: string; signed: string };
    /** approved: decided by `reviewer` a day later, and the enterprise certified; pending: awaiting review. */
    status: 'approved' | 'pending';
    reviewer?: string;
    /** How long before the seed it was submitted. */
    submittedHoursAgo: number;
  };
}

const SCOPE_NOTE = '（依法须经批准的项目，经相关部门批准后方可开展经营活动）';

export const DEMO_CERTIFICATIONS: DemoCertification[] = [
  {
    enterprise: '徐州恒岳重工机械有限公司',
    creditCode: creditCode('320312', '68831576'),
    legalRepresentative: '徐振岳',
    address: '江苏省徐州市铜山区徐州经济技术开发区银山路66号',
    industryCode: '35',
    regionCode: '320300',
    contactName: '张伟',
    contactPhone: '0516-87656600',
    introduction:
      '徐州恒岳重工机械有限公司成立于2009年，位于徐州经济技术开发区，专注于起重机械、挖掘机械关键结构件与液压系统的研发和制造，产品配套国内主要工程机械整机企业，并出口东南亚、中东等地区。\n' +
      '公司拥有焊接、机加工、涂装和总装生产线，通过ISO 9001质量管理体系认证，建有市级工程技术研究中心。依托工业互联网标识解析，公司为每台设备和关键部件赋予唯一标识，实现从原材料到售后服务的全生命周期追溯。',
    licence: {
      file: 'licence-hengyue.png',
      mime: 'image/png',
      originalName: '恒岳营业执照.png',
      number: '320312000200903180046',
      type: '有限责任公司（自然人投资或控股）',
      capital: '壹亿贰仟万元整',
      established: '2009年03月18日',
      term: '2009年03月18日 至 长期',
      scope: `工程机械、起重机械及其零部件的研发、制造、销售与维修；液压元件、金属结构件加工；机械设备租赁；货物进出口；技术进出口${SCOPE_NOTE}`,
      issued: '2023年05月16日',
    },
    application: {
      applicant: 'admin',
      applicantRole: 'agent',
      authorization: {
        file: 'authorization-hengyue.pdf',
        mime: 'application/pdf',
        originalName: '恒岳授权委托书.pdf',
        agentIdNumber: '320311********2417',
        signed: '2025年03月10日',
      },
      status: 'approved',
      reviewer: 'operator',
      submittedHoursAgo: 24 * 12 + 5,
    },
  },
  {
    enterprise: '常州瑞驰液压科技有限公司',
    creditCode: creditCode('320412', '09412783'),
    legalRepresentative: '孙丽',
    address: '江苏省常州市武进区湖塘镇长虹西路28号',
    industryCode: '34',
    regionCode: '320400',
    contactName: '孙丽',
    contactPhone: '13800000021',
    introduction:
      '常州瑞驰液压科技有限公司成立于2014年，是一家专业从事液压油缸、多路阀和液压系统集成的高新技术企业，产品广泛应用于挖掘机、装载机、高空作业平台和农业机械。\n' +
      '公司坚持“精密制造、可靠交付”，拥有数控加工中心、液压综合试验台等设备，为主机厂提供定制化液压解决方案与全生命周期服务。',
    licence: {
      file: 'licence-ruichi.jpg',
      mime: 'image/jpeg',
      originalName: '瑞驰营业执照.jpg',
      number: '320412000201406270118',
      type: '有限责任公司（自然人投资或控股）',
      capital: '叁仟万元整',
      established: '2014年06月27日',
      term: '2014年06月27日 至 长期',
      scope: `液压和气压动力机械及元件制造；液压动力机械及元件销售；通用设备制造（不含特种设备制造）；机械零件、零部件加工；技术服务、技术开发、技术咨询、技术交流、技术转让、技术推广${SCOPE_NOTE}`,
      issued: '2022年09月08日',
    },
    application: {
      applicant: 'rcadmin',
      applicantRole: 'legal',
      status: 'approved',
      reviewer: 'operator',
      submittedHoursAgo: 24 * 9 + 3,
    },
  },
  {
    enterprise: 'Engineering e+ 平台运营中心',
    creditCode: creditCode('320311', 'MA1XK6PW'),
    legalRepresentative: '林国栋',
    address: '江苏省徐州市泉山区软件园路6号C座8层',
    industryCode: '64',
    regionCode: '320300',
    contactName: '陈静',
    contactPhone: '0516-83880000',
    introduction:
      'Engineering e+ 平台运营中心负责工业互联网平台与标识解析二级节点的建设和运营，为工程机械及上下游企业提供标识注册与解析、企业认证、统一身份认证和行业应用服务。\n' +
      '运营中心坚持安全可信、开放共享，协助企业开展标识应用和数字化转型。',
    licence: {
      file: 'licence-platform.jpg',
      mime: 'image/jpeg',
      originalName: '平台运营中心营业执照.jpg',
      number: '320311000201911050027',
      type: '有限责任公司（非自然人投资或控股的法人独资）',
      capital: '伍仟万元整',
      established: '2019年11月05日',
      term: '2019年11月05日 至 长期',
      scope: `互联网数据服务；信息系统集成服务；软件开发；工业互联网数据服务；信息技术咨询服务；数据处理和存储支持服务${SCOPE_NOTE}`,
      issued: '2024年01月22日',
    },
    application: {
      applicant: 'operator',
      applicantRole: 'agent',
      authorization: {
        file: 'authorization-platform.pdf',
        mime: 'application/pdf',
        originalName: '平台运营中心授权委托书.pdf',
        agentIdNumber: '320302********0025',
        signed: '2025年02月20日',
      },
      status: 'approved',
      // Not the operator: she applied for her own enterprise.
      reviewer: 'reviewer',
      submittedHoursAgo: 24 * 20 + 2,
    },
  },
  {
    enterprise: '江苏明川智能装备有限公司',
    creditCode: creditCode('320214', 'MA26QF8L'),
    legalRepresentative: '吴建平',
    address: '江苏省无锡市新吴区菱湖大道111号无锡软件园天鹅座C座',
    industryCode: '34',
    regionCode: '320200',
    contactName: '周明川',
    contactPhone: '13800000031',
    introduction:
      '江苏明川智能装备有限公司成立于2021年，专注于工业机器人工作站、智能焊接装备和自动化物流系统的研发与集成，服务工程机械、汽车零部件等行业的智能工厂建设。',
    licence: {
      file: 'licence-mingchuan.png',
      mime: 'image/png',
      originalName: '明川营业执照.png',
      number: '320214000202104120089',
      type: '有限责任公司（自然人投资或控股）',
      capital: '伍仟万元整',
      established: '2021年04月12日',
      term: '2021年04月12日 至 长期',
      scope: `工业机器人制造；工业机器人安装、维修；智能基础制造装备制造；物料搬运装备制造；软件开发；技术服务、技术开发、技术咨询${SCOPE_NOTE}`,
      issued: '2021年04月12日',
    },
    application: {
      applicant: 'mcadmin',
      applicantRole: 'agent',
      authorization: {
        file: 'authorization-mingchuan.pdf',
        mime: 'application/pdf',
        originalName: '授权委托书-江苏明川智能装备有限公司.pdf',
        agentIdNumber: '320211********3516',
        signed: '2025年06月03日',
      },
      status: 'pending',
      submittedHoursAgo: 3,
    },
  },
];

/** The demo enterprise awaiting review, and its administrator (README, "Demo accounts"). */
export const PENDING_ENTERPRISE = '江苏明川智能装备有限公司';
export const CERTIFICATION_ACCOUNTS = [
  {
    username: 'mcadmin',
    name: '周明川',
    phone: '13800000031',
    email: 'zhoumingchuan@mingchuan-ie.cn',
    number: 'MC0001',
    enterprise: PENDING_ENTERPRISE,
    role: Role.EnterpriseAdmin,
  },
  {
    username: 'reviewer',
    name: '林思远',
    phone: '13800000005',
    email: 'linsiyuan@eplus-industry.cn',
    number: 'OP0012',
    enterprise: 'Engineering e+ 平台运营中心',
    role: Role.CertificationReviewer,
  },
] as const;
