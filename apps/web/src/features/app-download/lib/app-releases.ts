/** The platform's mobile app as its download page presents it (the footer's 扫码下载 App). */

export interface AppRelease {
  platform: 'android' | 'ios' | 'harmony';
  name: string;
  version: string;
  /** yyyy-MM-dd */
  releasedOn: string;
  size: string;
  requirement: string;
  /** How to get it: the installation package the operator published (`appPackageUrl`), or the store to search in. */
  source: { kind: 'package' } | { kind: 'store'; hint: string };
}

export const APP_NAME = 'Engineering e+';

export const APP_RELEASES: readonly AppRelease[] = [
  {
    platform: 'android',
    name: 'Android',
    version: '3.6.2',
    releasedOn: '2026-10-28',
    size: '58.4 MB',
    requirement: 'Android 8.0 及以上',
    source: { kind: 'package' },
  },
  {
    platform: 'ios',
    name: 'iPhone / iPad',
    version: '3.6.1',
    releasedOn: '2026-10-25',
    size: '71.2 MB',
    requirement: 'iOS 13.0 及以上',
    source: { kind: 'store', hint: `在 App Store 搜索“${APP_NAME}”` },
  },
  {
    platform: 'harmony',
    name: 'HarmonyOS',
    version: '3.6.2',
    releasedOn: '2026-10-28',
    size: '62.7 MB',
    requirement: 'HarmonyOS 4.0 及以上（含 HarmonyOS NEXT）',
    source: { kind: 'store', hint: `在华为应用市场搜索“${APP_NAME}”` },
  },
];

export const APP_FEATURES: readonly { title: string; text: string }[] = [
  { title: '设备监控', text: '实时查看设备位置、工况参数与累计作业时长，异常工况一目了然。' },
  { title: '告警推送', text: '故障、越界与保养到期提醒即时送达，按设备和级别订阅。' },
  { title: '标识扫码', text: '扫描设备铭牌上的标识二维码，查询二级节点登记的产品与售后信息。' },
  { title: '售后服务', text: '在线报修、工单进度跟踪与服务评价，配件需求一键提交。' },
  { title: '数据看板', text: '设备利用率、油耗与作业量统计，按项目和班组查看趋势。' },
  { title: '统一登录', text: '与门户使用同一账号，一次登录即可访问平台授权的全部应用。' },
];

export const APP_CHANGELOG: readonly { version: string; releasedOn: string; notes: readonly string[] }[] = [
  {
    version: '3.6.2',
    releasedOn: '2026-10-28',
    notes: ['修复部分机型后台告警推送延迟的问题', '提升弱光环境下标识二维码的识别速度'],
  },
  {
    version: '3.6.0',
    releasedOn: '2026-09-15',
    notes: ['新增设备保养计划与到期提醒', '售后工单支持上传现场视频', '数据看板新增月度油耗趋势'],
  },
  {
    version: '3.5.0',
    releasedOn: '2026-07-02',
    notes: ['支持 HarmonyOS NEXT', '可在“我的”中查看企业认证进度', '统一身份认证支持短信验证码登录'],
  },
];
