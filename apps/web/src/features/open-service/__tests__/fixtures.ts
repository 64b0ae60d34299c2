import { type OpenServiceTool, type OpenServiceToolCard, type SelfTestResult, type SsoApplicationRow, oidcEndpoints } from '@portal/shared';

export const TOOLS_CALL = 'GET /web-api/portal/v1/open-service/tools';
export const toolCall = (id: string) => `GET /web-api/portal/v1/open-service/tools/${id}`;
export const APPS_CALL = 'GET /web-api/console/v1/sso-app/page/list';
export const selfTestCall = (id: number) => `POST /web-api/console/v1/sso-app/${id}/self-test`;
export const precheckCall = (id: number) => `GET /web-api/console/v1/sso-app/${id}/self-test`;

export const CARDS: OpenServiceToolCard[] = [
  { id: '01', title: '移动开发平台及 SDK', summary: '跨端移动应用开发框架与设备接入 SDK', icon: 'mobile' },
  { id: '02', title: '可视化编辑器', summary: '拖拽式搭建看板、大屏与表单页面', icon: 'control' },
  { id: '03', title: '统一身份认证集成', summary: '基于 CAS 3.0 的单点登录，应用快速接入平台账号', icon: 'safety-certificate' },
  { id: '05', title: '微服务集群', summary: '容器化部署、服务治理与弹性伸缩', icon: 'cluster' },
  { id: '06', title: '工业机理模型', summary: '沉淀行业知识的故障诊断与工艺优化模型', icon: 'experiment' },
];

export const toolDetail = (card: OpenServiceToolCard, body: string): OpenServiceTool => ({
  ...card,
  body,
  updatedAt: '2026-11-20 10:30:00',
});

export const ERP: SsoApplicationRow = {
  id: 5,
  name: '设备管理系统',
  icon: '',
  category: '生产管理',
  description: '设备台账与点检',
  protocol: 'cas3',
  servicePrefixes: ['https://erp.hengyue.example/', 'https://erp-backup.hengyue.example/app/'],
  logoutUrl: 'https://erp.hengyue.example/cas/logout',
  attributes: ['name', 'email'],
  status: 'enabled',
  allMembers: true,
  platform: false,
  provider: '',
  oidc: null,
  createdAt: '2026-10-01T00:00:00.000Z',
  integration: {
    loginUrl: 'https://portal.example.com/cas/login',
    validateUrl: 'https://portal.example.com/cas/p3/serviceValidate',
    logoutUrl: 'https://portal.example.com/cas/logout',
    casServerUrlPrefix: 'https://portal.example.com/cas',
    oidc: oidcEndpoints('https://portal.example.com/oidc'),
  },
};

/** A self-test whose logout address is down: the steps after it are not all run. */
export const FAILED_SELF_TEST: SelfTestResult = {
  applicationId: 5,
  protocol: 'cas3',
  service: 'https://erp.hengyue.example/',
  username: 'admin',
  passed: false,
  steps: [
    {
      key: 'registered',
      title: '服务地址已登记',
      status: 'passed',
      detail: '服务地址 https://erp.hengyue.example/ 已登记在「设备管理系统」',
    },
    {
      key: 'reachable',
      title: '服务地址可访问',
      status: 'passed',
      detail: 'GET https://erp.hengyue.example/ 返回 302，跳转到 portal.example.com/cas/login',
    },
    {
      key: 'logout',
      title: '注销地址可响应',
      status: 'failed',
      detail: 'POST https://erp.hengyue.example/cas/logout 失败：连接被拒绝（ECONNREFUSED）',
    },
    { key: 'signIn', title: '测试账号登录', status: 'passed', detail: '已用 admin 的统一登录会话为该服务签发票据 ST-1-abc' },
    { key: 'validate', title: '票据校验（/p3/serviceValidate）', status: 'passed', detail: '票据校验成功，账号 admin' },
    { key: 'attributes', title: '属性释放', status: 'skipped', detail: '票据校验未返回属性：跳过检查' },
  ],
  attributes: {},
  ranAt: '2026-11-24 10:00:00',
};

export const PASSED_SELF_TEST: SelfTestResult = {
  ...FAILED_SELF_TEST,
  passed: true,
  steps: FAILED_SELF_TEST.steps.map((s) => ({ ...s, status: 'passed', detail: `${s.title}：通过` })),
  attributes: { name: ['张伟'], email: ['zhangwei@hengyue.example'], groups: ['研发部', '质量部'] },
};
