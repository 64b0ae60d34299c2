/**
 * 接入自检 (issue 20, tool 03 统一身份认证集成): the portal checks one application's integration
 * end to end and answers a checklist, each step with the exact reason it failed.
 */

export const SELF_TEST_STEPS = ['registered', 'reachable', 'logout', 'signIn', 'validate', 'attributes'] as const;
export type SelfTestStepKey = (typeof SELF_TEST_STEPS)[number];
export const SELF_TEST_STEP_TITLES: Record<SelfTestStepKey, string> = {
  registered: '服务地址已登记',
  reachable: '服务地址可访问',
  logout: '注销地址可响应',
  signIn: '测试账号登录',
  validate: '票据校验（/p3/serviceValidate）',
  attributes: '属性释放',
};

export type SelfTestStepStatus = 'passed' | 'failed' | 'skipped';

export interface SelfTestStep {
  key: SelfTestStepKey;
  title: string;
  status: SelfTestStepStatus;
  /** What was checked and, on failure, exactly why (a Chinese sentence with the address and status). */
  detail: string;
}

/** `POST /web-api/console/v1/sso-app/{id}/self-test`. */
export interface SelfTestBody {
  /** The service address to test (one of the application's); its first when omitted. */
  service?: string;
}

export interface SelfTestResult {
  applicationId: number;
  service: string;
  /** The test account: the administrator running the check, signed in through their own SSO session. */
  username: string;
  passed: boolean;
  steps: SelfTestStep[];
  /** The attributes the validation released (name → values). */
  attributes: Record<string, string[]>;
  ranAt: string;
}
