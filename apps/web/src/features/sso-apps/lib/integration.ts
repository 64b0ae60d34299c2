import type { SsoApplicationRow } from '@portal/shared';

export interface IntegrationEntry {
  key: string;
  label: string;
  value: string;
  /** What the integrator does with it. */
  note: string;
}

/**
 * 集成配置: what an application's CAS client needs, from the server's own addresses. CAS 3.0 is the
 * protocol; the 2.0 (`/serviceValidate`) and 1.0 (`/validate`) validation endpoints answer too
 * (CAS protocol 3.0, sections 2.4, 2.5 and 2.6), for older clients.
 */
export function integrationEntries(integration: SsoApplicationRow['integration']): IntegrationEntry[] {
  const prefix = integration.casServerUrlPrefix.replace(/\/+$/, '');
  return [
    { key: 'casServerUrlPrefix', label: 'casServerUrlPrefix', value: integration.casServerUrlPrefix, note: 'CAS 客户端的服务器地址前缀' },
    { key: 'loginUrl', label: '登录地址', value: integration.loginUrl, note: '未登录时带 service 参数跳转到此地址' },
    {
      key: 'validateUrl',
      label: '票据校验地址（CAS 3.0）',
      value: integration.validateUrl,
      note: '用 ticket 与 service 换取账号和返回属性',
    },
    { key: 'validateUrl2', label: '票据校验地址（CAS 2.0）', value: `${prefix}/serviceValidate`, note: '兼容旧客户端，不含返回属性' },
    { key: 'validateUrl1', label: '票据校验地址（CAS 1.0）', value: `${prefix}/validate`, note: '兼容旧客户端，纯文本应答' },
    { key: 'logoutUrl', label: '注销地址', value: integration.logoutUrl, note: '退出时跳转到此地址，结束统一登录会话' },
  ];
}
