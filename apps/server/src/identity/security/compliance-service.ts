import {
  AUDIT_RETENTION_MIN_DAYS,
  COMPLIANCE_FRAMEWORK_LABELS,
  type ComplianceControl,
  type ComplianceFramework,
  ComplianceMessage,
  type ComplianceReport,
  EVIDENCE_PERIOD_MAX_DAYS,
  type SecurityPolicy,
  policyFieldText,
} from '@portal/shared';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Actor } from '../../platform/lib/actor.js';
import { chinaDate, chinaTime, parseChinaTime } from '../../platform/lib/china-time.js';
import { BadRequestError, ForbiddenError } from '../../platform/lib/errors.js';
import type { ComplianceStatistics } from './compliance-repository.js';

/** What a control is evaluated against: the enterprise's policy and what the platform provides. */
interface ComplianceContext {
  policy: SecurityPolicy;
  auditRetentionDays: number;
  /** Whether sign-in pages are served over HTTPS (PUBLIC_URL, else the address the caller used). */
  https: boolean;
  /** 按角色: the enterprise's administrators (org:account) holding none of the chosen roles; 0 in the other modes. */
  adminsOutsideRoles: number;
}

interface ControlRule {
  id: string;
  framework: ComplianceFramework;
  clause: string;
  title: string;
  requirement: string;
  current: (c: ComplianceContext) => string;
  passes: (c: ComplianceContext) => boolean;
  remedy: string;
}

const text = (c: ComplianceContext, ...fields: (keyof SecurityPolicy)[]) =>
  fields
    .map((f) => policyFieldText(f, c.policy))
    .map((t) => `${t.label} ${t.value}`)
    .join('；');

const DJCP = 'GB/T 22239-2019 8.1.4.1 身份鉴别';
const DJCP_AUDIT = 'GB/T 22239-2019 8.1.4.3 安全审计';
const SETTINGS = '安全设置';

/**
 * Every control, in the order the page lists them: 等保 2.0 third level 安全计算环境 (身份鉴别 a–d, 安全审计
 * a–c) and OWASP ASVS 5.0 level 2 (V6 Authentication, V7 Session Management). Thresholds the standards leave
 * to risk analysis (ASVS 7.3.1/7.3.2) follow NIST SP 800-63B AAL2, which ASVS 7.1.1 refers to.
 */
const RULES: readonly ControlRule[] = [
  {
    id: 'djcp-a-identity',
    framework: 'djcp',
    clause: `${DJCP} a)`,
    title: '身份标识唯一',
    requirement: '对登录的用户进行身份标识和鉴别，身份标识具有唯一性',
    current: () => '账号名与手机号在平台内唯一，登录须经中央认证',
    passes: () => true,
    remedy: '',
  },
  {
    id: 'djcp-a-complexity',
    framework: 'djcp',
    clause: `${DJCP} a)`,
    title: '口令复杂度',
    requirement: '密码最短 8 位，且至少包含三类字符',
    current: (c) => text(c, 'passwordMinLength', 'passwordClasses'),
    passes: (c) => c.policy.passwordMinLength >= 8 && c.policy.passwordClasses.length >= 3,
    remedy: `在${SETTINGS}中将密码最短长度设为不少于 8 位，并勾选至少三类必须包含的字符`,
  },
  {
    id: 'djcp-a-expiry',
    framework: 'djcp',
    clause: `${DJCP} a)`,
    title: '口令定期更换',
    requirement: '密码有效期不超过 90 天',
    current: (c) => text(c, 'passwordExpiryDays'),
    passes: (c) => c.policy.passwordExpiryDays > 0 && c.policy.passwordExpiryDays <= 90,
    remedy: `在${SETTINGS}中将密码有效期设为 1-90 天`,
  },
  {
    id: 'djcp-a-history',
    framework: 'djcp',
    clause: `${DJCP} a)`,
    title: '更换时不重复使用旧口令',
    requirement: '新密码不能与最近 5 个历史密码相同',
    current: (c) => text(c, 'passwordHistory'),
    passes: (c) => c.policy.passwordHistory >= 5,
    remedy: `在${SETTINGS}中将历史密码设为不少于 5 个`,
  },
  {
    id: 'djcp-b-lockout',
    framework: 'djcp',
    clause: `${DJCP} b)`,
    title: '登录失败处理',
    requirement: '连续失败不超过 5 次即锁定，锁定不少于 15 分钟',
    current: (c) => text(c, 'lockMaxFailures', 'lockMinutes'),
    passes: (c) => c.policy.lockMaxFailures <= 5 && c.policy.lockMinutes >= 15,
    remedy: `在${SETTINGS}中将登录失败锁定次数设为不超过 5 次、锁定时长不少于 15 分钟`,
  },
  {
    id: 'djcp-b-timeout',
    framework: 'djcp',
    clause: `${DJCP} b)`,
    title: '登录连接超时自动退出',
    requirement: '会话空闲不超过 30 分钟即需重新登录',
    current: (c) => text(c, 'sessionIdleMinutes'),
    passes: (c) => c.policy.sessionIdleMinutes <= 30,
    remedy: `在${SETTINGS}中将会话空闲超时设为不超过 30 分钟`,
  },
  {
    id: 'djcp-c-transport',
    framework: 'djcp',
    clause: `${DJCP} c)`,
    title: '鉴别信息传输防窃听',
    requirement: '登录页与控制台经 HTTPS 访问，鉴别信息加密传输',
    current: (c) => (c.https ? '平台经 HTTPS 访问' : '平台经 HTTP 访问，鉴别信息未加密传输'),
    passes: (c) => c.https,
    remedy: '请平台管理员为门户配置 HTTPS 访问地址（PUBLIC_URL）',
  },
  {
    id: 'djcp-d-mfa',
    framework: 'djcp',
    clause: `${DJCP} d)`,
    title: '两种或两种以上组合的鉴别技术',
    requirement: '至少管理员登录时使用密码与动态验证码两种鉴别',
    // 按角色 meets it when the chosen roles reach every administrator (directly or through a group).
    current: (c) =>
      c.policy.twoFactor === 'roles'
        ? `${text(c, 'twoFactor')}；${c.adminsOutsideRoles ? `${c.adminsOutsideRoles} 名管理员不持有所选角色` : '所选角色覆盖全部管理员'}`
        : text(c, 'twoFactor'),
    passes: (c) => c.policy.twoFactor !== 'off' && c.adminsOutsideRoles === 0,
    remedy: `在${SETTINGS}中将二次验证设为仅管理员或全员，或按角色时选择覆盖全部管理员的角色`,
  },
  {
    id: 'djcp-audit-a',
    framework: 'djcp',
    clause: `${DJCP_AUDIT} a)`,
    title: '安全审计覆盖每个用户',
    requirement: '记录每个账号的登录、登出与管理操作',
    current: () => '登录日志记录每次登录尝试与登出，操作日志记录每项管理操作',
    passes: () => true,
    remedy: '',
  },
  {
    id: 'djcp-audit-b',
    framework: 'djcp',
    clause: `${DJCP_AUDIT} b)`,
    title: '审计记录要素完整',
    requirement: '审计记录包括日期和时间、用户、事件类型、是否成功及其他相关信息',
    current: () => '每条记录含时间、账号、操作或登录结果、是否成功、原因、IP 地址',
    passes: () => true,
    remedy: '',
  },
  {
    id: 'djcp-audit-c',
    framework: 'djcp',
    clause: `${DJCP_AUDIT} c)；网络安全法 第二十一条`,
    title: '审计记录受到保护并保存不少于六个月',
    requirement: `登录日志与操作日志按企业哈希链接、可校验完整性，不可在控制台删除或修改，保存不少于 ${AUDIT_RETENTION_MIN_DAYS} 天，到期归档后清除`,
    current: (c) => `哈希链防篡改；保存 ${c.auditRetentionDays} 天，到期归档`,
    passes: (c) => c.auditRetentionDays >= AUDIT_RETENTION_MIN_DAYS,
    remedy: `在${SETTINGS}的审计日志中将保留天数设为不少于 ${AUDIT_RETENTION_MIN_DAYS} 天`,
  },
  {
    id: 'asvs-6.2.1',
    framework: 'asvs',
    clause: 'ASVS 5.0 6.2.1',
    title: '密码最短 8 位',
    requirement: '用户设置的密码不少于 8 位',
    current: (c) => text(c, 'passwordMinLength'),
    passes: (c) => c.policy.passwordMinLength >= 8,
    remedy: `在${SETTINGS}中将密码最短长度设为不少于 8 位`,
  },
  {
    id: 'asvs-6.2.4',
    framework: 'asvs',
    clause: 'ASVS 5.0 6.2.4',
    title: '拦截常见密码',
    requirement: '注册与修改密码时，拒绝最常见的密码',
    current: () => '注册、修改、重置密码时均拒绝常见密码列表中的密码',
    passes: () => true,
    remedy: '',
  },
  {
    id: 'asvs-6.2.5',
    framework: 'asvs',
    clause: 'ASVS 5.0 6.2.5',
    title: '不限制密码的字符组成',
    requirement: '不要求必须包含大小写字母、数字或特殊字符',
    current: (c) => text(c, 'passwordClasses'),
    passes: (c) => c.policy.passwordClasses.length === 0,
    remedy: `在${SETTINGS}中取消所有必须包含的字符类型`,
  },
  {
    id: 'asvs-6.2.10',
    framework: 'asvs',
    clause: 'ASVS 5.0 6.2.10',
    title: '不强制定期更换密码',
    requirement: '密码在被发现泄露或用户主动修改前一直有效',
    current: (c) => text(c, 'passwordExpiryDays'),
    passes: (c) => c.policy.passwordExpiryDays === 0,
    remedy: `在${SETTINGS}中将密码有效期设为 0（永不过期）`,
  },
  {
    id: 'asvs-6.3.1',
    framework: 'asvs',
    clause: 'ASVS 5.0 6.3.1',
    title: '防暴力破解',
    requirement: '连续登录失败后锁定账号',
    current: (c) => text(c, 'lockMaxFailures', 'lockMinutes'),
    passes: (c) => c.policy.lockMaxFailures <= 10,
    remedy: `在${SETTINGS}中将登录失败锁定次数设为不超过 10 次`,
  },
  {
    id: 'asvs-6.3.3',
    framework: 'asvs',
    clause: 'ASVS 5.0 6.3.3',
    title: '多因素认证',
    requirement: '所有账号登录时使用多因素认证',
    current: (c) => text(c, 'twoFactor'),
    passes: (c) => c.policy.twoFactor === 'all',
    remedy: `在${SETTINGS}中将二次验证设为全员`,
  },
  {
    id: 'asvs-7.1.2',
    framework: 'asvs',
    clause: 'ASVS 5.0 7.1.2',
    title: '限定同时在线会话数',
    requirement: '规定一个账号可同时保持的会话数及达到上限时的处理',
    current: (c) => text(c, 'sessionMaxConcurrent', 'sessionOverflow'),
    passes: (c) => c.policy.sessionMaxConcurrent > 0,
    remedy: `在${SETTINGS}中设置同时在线会话数上限`,
  },
  {
    id: 'asvs-7.3.1',
    framework: 'asvs',
    clause: 'ASVS 5.0 7.3.1',
    title: '空闲超时',
    requirement: '会话空闲不超过 60 分钟即需重新认证（NIST SP 800-63B AAL2）',
    current: (c) => text(c, 'sessionIdleMinutes'),
    passes: (c) => c.policy.sessionIdleMinutes <= 60,
    remedy: `在${SETTINGS}中将会话空闲超时设为不超过 60 分钟`,
  },
  {
    id: 'asvs-7.3.2',
    framework: 'asvs',
    clause: 'ASVS 5.0 7.3.2',
    title: '会话绝对时长',
    requirement: '会话最长不超过 24 小时即需重新认证（NIST SP 800-63B AAL2）',
    current: (c) => text(c, 'sessionMaxHours'),
    passes: (c) => c.policy.sessionMaxHours <= 24,
    remedy: `在${SETTINGS}中将会话最长时长设为不超过 24 小时`,
  },
];

const DAY_MS = 86_400_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A period's China dates and the ISO instants of its first and last moments. */
export interface EvidencePeriod {
  start: string;
  end: string;
  startIso: string;
  endIso: string;
  /** When the period starts before LOGIN_LOG_RETENTION_DAYS ago: the China time before which sign-ins were purged. */
  loginsPurgedBefore?: string;
}

/** The evidence pack: the report, the period and its statistics. */
export interface ComplianceEvidence {
  report: ComplianceReport;
  policy: SecurityPolicy;
  period: EvidencePeriod;
  statistics: ComplianceStatistics;
}

/**
 * 安全合规: the controls evaluated against an enterprise's current 安全设置 (the rules are `RULES`, and
 * only here), their score per baseline, and the statistics an evidence pack adds for a period.
 */
function createComplianceService(app: FastifyInstance) {
  /** How long the enterprise's 登录日志 and 操作日志 are kept: its 审计日志保留天数, else the platform's default. */
  const auditRetentionDays = (policy: SecurityPolicy): number =>
    policy.auditRetentionDays ?? app.config.securityDefaults.auditRetentionDays ?? AUDIT_RETENTION_MIN_DAYS;

  /** 按角色: how many of the enterprise's administrators hold none of the roles the policy names. */
  async function adminsOutsideRoles(enterpriseId: number, policy: SecurityPolicy): Promise<number> {
    if (policy.twoFactor !== 'roles') return 0;
    const admins = await app.accountRepository.administrators(enterpriseId);
    const covered = new Set(await app.accountRepository.holdingRoles(admins, policy.twoFactorRoles));
    return admins.filter((id) => !covered.has(id)).length;
  }

  async function contextOf(enterpriseId: number, actor: Actor): Promise<ComplianceContext> {
    const policy = await app.securityPolicyRepository.ofEnterprise(enterpriseId);
    const address = app.config.publicUrl ?? actor.origin;
    return {
      policy,
      auditRetentionDays: auditRetentionDays(policy),
      https: address.startsWith('https://'),
      adminsOutsideRoles: await adminsOutsideRoles(enterpriseId, policy),
    };
  }

  function evaluate(context: ComplianceContext): ComplianceControl[] {
    return RULES.map((rule) => {
      const passed = rule.passes(context);
      return {
        id: rule.id,
        framework: rule.framework,
        clause: rule.clause,
        title: rule.title,
        requirement: rule.requirement,
        current: rule.current(context),
        passed,
        remedy: passed ? '' : rule.remedy,
        inSettings: rule.remedy.startsWith(`在${SETTINGS}`),
      };
    });
  }

  /** The report of the enterprise's saved policy, and that policy. */
  async function evaluated(enterpriseId: number, actor: Actor): Promise<{ report: ComplianceReport; policy: SecurityPolicy }> {
    const [context, enterpriseName] = await Promise.all([
      contextOf(enterpriseId, actor),
      app.complianceRepository.enterpriseName(enterpriseId),
    ]);
    const controls = evaluate(context);
    const scores = (Object.keys(COMPLIANCE_FRAMEWORK_LABELS) as ComplianceFramework[]).map((framework) => {
      const own = controls.filter((c) => c.framework === framework);
      const passed = own.filter((c) => c.passed).length;
      return {
        framework,
        title: COMPLIANCE_FRAMEWORK_LABELS[framework],
        passed,
        total: own.length,
        score: Math.floor((passed * 100) / own.length),
      };
    });
    const report = {
      enterpriseName: enterpriseName ?? '',
      evaluatedAt: chinaTime(new Date()),
      auditRetentionDays: context.auditRetentionDays,
      scores,
      controls,
    };
    return { report, policy: context.policy };
  }

  const enterpriseOf = (enterpriseId: number | null): number => {
    if (enterpriseId === null) throw new ForbiddenError('当前账号不属于任何企业');
    return enterpriseId;
  };

  /** Every control evaluated on the enterprise's saved 安全设置, and the score per baseline. */
  async function report(enterpriseId: number | null, actor: Actor): Promise<ComplianceReport> {
    return (await evaluated(enterpriseOf(enterpriseId), actor)).report;
  }

  /** A period of China dates (both days included): real dates, in order, at most a year, not past today. */
  function periodOf(start: string, end: string, retentionDays: number, now = new Date()): EvidencePeriod {
    const bound = (date: string, label: string, time: string) => {
      const at = DATE.test(date) ? parseChinaTime(`${date} ${time}`) : undefined;
      if (!at) throw new BadRequestError(ComplianceMessage.dateInvalid(label));
      return at.toISOString();
    };
    const startIso = bound(start, '开始日期', '00:00:00');
    const endIso = bound(end, '结束日期', '23:59:59');
    if (start > end) throw new BadRequestError(ComplianceMessage.startAfterEnd);
    if (end > chinaDate(now)) throw new BadRequestError(ComplianceMessage.endInFuture);
    const days = Math.round((Date.parse(endIso) + 1000 - Date.parse(startIso)) / DAY_MS);
    if (days > EVIDENCE_PERIOD_MAX_DAYS) throw new BadRequestError(ComplianceMessage.periodTooLong);
    // The retention job archives and purges 登录日志 after the enterprise's 审计日志保留天数: earlier counts would read as none happened.
    const horizon = new Date(now.getTime() - retentionDays * DAY_MS);
    const purged = startIso < horizon.toISOString() ? { loginsPurgedBefore: chinaTime(horizon) } : {};
    return { start, end, startIso, endIso: endIso.replace('.000Z', '.999Z'), ...purged };
  }

  /** The evidence pack's contents; the period is checked before anything is read. */
  async function evidence(enterpriseId: number | null, start: string, end: string, actor: Actor): Promise<ComplianceEvidence> {
    const id = enterpriseOf(enterpriseId);
    const period = periodOf(start, end, auditRetentionDays(await app.securityPolicyRepository.ofEnterprise(id)));
    const [{ report, policy }, statistics] = await Promise.all([
      evaluated(id, actor),
      app.complianceRepository.statistics(id, period.startIso, period.endIso),
    ]);
    return { report, policy, period, statistics };
  }

  return { report, evidence, periodOf };
}

export type ComplianceService = ReturnType<typeof createComplianceService>;

declare module 'fastify' {
  interface FastifyInstance {
    complianceService: ComplianceService;
  }
}

export default fp(
  async (app) => {
    app.decorate('complianceService', createComplianceService(app));
  },
  { name: 'compliance-service', dependencies: ['compliance-repository', 'security-policy-repository', 'account-repository'] },
);
