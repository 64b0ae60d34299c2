import type { ReleasableAttribute } from '@portal/shared';

/**
 * The application center's demo applications (spec section 9, "应用中心"): what each does, its own
 * 核心功能 and 适用场景, and the single sign-on settings an operator gave it (made-up hosts
 * under the reserved `.example` name). The detail page shows 提供方 above the body, so the body does
 * not repeat it.
 */
export interface DemoApplication {
  name: string;
  description: string;
  category: string;
  provider: string;
  features: string[];
  scenarios: string;
  /** On single sign-on: enterprises may 申请使用 it. Absent: a native app that signs in by other means. */
  sso?: { serviceUrl: string; logoutUrl: string; attributes: ReleasableAttribute[] };
}

export const DEMO_APPLICATIONS: DemoApplication[] = [
  {
    name: '设备看板',
    description: '设备运行状态、作业时长、油耗与告警一屏呈现，支持自定义指标与多屏联动。',
    category: '数据可视化',
    provider: 'Engineering e+ 平台',
    features: [
      '拖拽式布局，内置开工率、作业时长、油耗、在线率等 40 余个设备指标卡片',
      '按区域、机型、客户分组汇总，从集团总览逐级下钻到单台设备',
      '大屏模式自动轮播，适配 4K 拼接屏与会议室投屏',
      '看板可生成只读分享链接，设置有效期后发给客户或合作方',
    ],
    scenarios: '适合生产调度中心、营销服务大厅和管理层周例会，一张屏看清在用设备的分布、开工与异常情况。',
    sso: {
      serviceUrl: 'https://kanban.eplus-apps.example/',
      logoutUrl: 'https://kanban.eplus-apps.example/cas/logout',
      attributes: ['name', 'enterpriseName'],
    },
  },
  {
    name: '智能运维',
    description: '基于设备实时数据与故障知识库，提供远程诊断、工单派发和备件推荐。',
    category: '运维服务',
    provider: 'Engineering e+ 平台',
    features: [
      '故障码实时解析，对照 1.2 万条故障案例给出可能原因与排查步骤',
      '报修自动生成工单，按服务网点、技能和距离派给最近的工程师',
      '根据故障部位与设备型号推荐备件，并显示就近仓库的库存',
      '维修过程拍照、签字和用时全程留痕，形成设备维修履历',
    ],
    scenarios: '适合拥有服务网点和外派工程师的主机厂与代理商，用于售后报修响应、远程诊断和维修质量考核。',
    sso: {
      serviceUrl: 'https://ops.eplus-apps.example/',
      logoutUrl: 'https://ops.eplus-apps.example/cas/back-channel-logout',
      attributes: ['name', 'telephone', 'enterpriseName', 'groups'],
    },
  },
  {
    name: '设备建模',
    description: '可视化定义设备物模型，一键生成数据采集点表和接口文档。',
    category: '设备管理',
    provider: 'Engineering e+ 平台',
    features: [
      '以属性、事件、服务三类要素描述设备，支持模型继承与版本管理',
      '从 PLC 变量表或 Excel 点表批量导入测点，自动校验单位与量程',
      '一键导出 Modbus、OPC UA 采集点表和 HTTP/MQTT 接口文档',
      '同型号设备共用一个模型，新设备接入时自动套用',
    ],
    scenarios: '适合设备制造商的研发与数字化团队，在新机型上市前统一定义数据口径，减少现场接入的反复调试。',
    sso: {
      serviceUrl: 'https://modeler.eplus-apps.example/',
      logoutUrl: '',
      attributes: ['name', 'enterpriseName', 'roles'],
    },
  },
  {
    name: '监控告警',
    description: '多级告警规则、短信与 App 推送，告警闭环处理全程可追溯。',
    category: '设备管理',
    provider: 'Engineering e+ 平台',
    features: [
      '阈值、持续时长、变化率和组合条件四类规则，可按设备分组套用',
      '提示、一般、严重三级告警，未及时处理自动升级通知上级',
      '短信、电话语音、App 推送和企业微信群机器人多渠道送达',
      '告警确认、处理、关闭形成闭环，月度统计误报率与平均处理时长',
    ],
    scenarios: '适合需要 7×24 小时值守的设备运维和安环部门，把超温、超压、停机等异常第一时间送到责任人。',
    sso: {
      serviceUrl: 'https://alarm.eplus-apps.example/console/',
      logoutUrl: 'https://alarm.eplus-apps.example/console/logout/cas',
      attributes: ['name', 'telephone', 'email', 'enterpriseName'],
    },
  },
  {
    name: '售后服务',
    description: '基于二级节点标识的产品档案与服务记录，扫码即可报修和查询保养计划。',
    category: '运维服务',
    provider: '集团售后服务中心',
    features: [
      '每台整机一个标识码，出厂配置、销售去向和维修记录集中在一份档案',
      '终端用户扫铭牌二维码即可报修、预约保养，无需安装 App',
      '按工作小时或日历周期生成保养计划，到期前提醒用户与服务站',
      '三包期内索赔在线审核，配件旧件回收与费用结算同步处理',
    ],
    scenarios: '适合工程机械、农机等耐用品的售后服务体系，打通主机厂、代理商服务站和终端用户之间的服务信息。',
    sso: {
      serviceUrl: 'https://aftersales.group-service.example/portal/',
      logoutUrl: 'https://aftersales.group-service.example/portal/sso/logout',
      attributes: ['name', 'telephone', 'enterpriseName', 'number'],
    },
  },
  {
    name: '能耗分析',
    description: '采集电、水、气与燃油数据，分析能耗结构，给出节能降耗建议。',
    category: '数据分析',
    provider: '绿色制造服务商',
    features: [
      '按车间、产线、工序三级计量，自动折算标准煤与碳排放量',
      '峰谷平分时电价下的用电成本分析，给出错峰生产建议',
      '单位产品能耗对标行业先进值，超出定额自动标红',
      '空压机、锅炉等重点用能设备的运行能效诊断报告',
    ],
    scenarios: '适合年综合能耗较高、需要开展能源审计或绿色工厂申报的制造企业，找出浪费点并量化节能收益。',
    sso: {
      serviceUrl: 'https://energy.green-mfg.example/',
      logoutUrl: '',
      attributes: ['name', 'enterpriseName', 'groups'],
    },
  },
  {
    name: '物联网盒子管理',
    description: '物联网盒子远程配置、固件升级与流量监控，即插即用接入平台。',
    category: '物联网',
    provider: 'Engineering e+ 平台',
    features: [
      '盒子上电自动注册，扫码绑定设备后即下发采集配置',
      '固件分批灰度升级，升级失败自动回滚到上一版本',
      '4G 流量用量按月统计，超额前预警并可远程限速',
      '远程查看盒子日志、重启串口服务，现场无需派人',
    ],
    scenarios: '适合给存量老旧设备加装采集终端的场景，集中管理分散在各地工地或车间的数百台物联网盒子。',
    sso: {
      serviceUrl: 'https://iotbox.eplus-apps.example/',
      logoutUrl: 'https://iotbox.eplus-apps.example/sso/logout',
      attributes: ['name', 'enterpriseName', 'roles'],
    },
  },
  {
    name: '标识注册',
    description: '企业前缀申请、标识模板管理与批量注册，支持导入导出。',
    category: '标识解析',
    provider: '标识解析二级节点',
    features: [
      '按行业元数据规范建立标识模板，字段可设必填与取值范围',
      '单条登记或 Excel 批量注册，逐行校验并给出失败原因',
      '标识码与产品二维码、RFID 标签一键关联打印',
      '注册量、解析量按前缀统计，满足二级节点的数据上报要求',
    ],
    scenarios: '适合已获分配企业前缀、需要为产品和零部件大批量赋码的企业，与生产执行系统对接实现下线即注册。',
    sso: {
      serviceUrl: 'https://register.idis-node.example/enterprise/',
      logoutUrl: '',
      attributes: ['name', 'enterpriseName', 'number', 'roles'],
    },
  },
  {
    name: '数据分析',
    description: '拖拽式自助分析，支持时序数据统计、同比环比与异常检测。',
    category: '数据分析',
    provider: 'Engineering e+ 平台',
    features: [
      '直接读取平台时序库，按分钟、小时、班次灵活降采样',
      '同比、环比、累计和移动平均等常用计算无需编写 SQL',
      '基于统计学方法的异常点检测，自动标注突变与漂移',
      '分析结果可订阅为日报、周报，定时推送到邮箱',
    ],
    scenarios: '适合工艺、质量和设备工程师自助分析生产数据，验证工艺参数调整效果或追查批次质量波动的原因。',
    sso: {
      serviceUrl: 'https://bi.eplus-apps.example/',
      logoutUrl: 'https://bi.eplus-apps.example/cas/slo',
      attributes: ['name', 'email', 'enterpriseName', 'groups', 'roles'],
    },
  },
  {
    name: '移动 App',
    description: '随时随地查看设备状态、接收告警与处理工单。',
    category: '移动应用',
    provider: 'Engineering e+ 平台',
    features: [
      '设备地图按位置展示在线状态，点开即看实时工况',
      '告警消息推送到手机通知栏，可直接确认或转派',
      '离线也能填写维修工单，联网后自动同步',
      '支持扫描设备铭牌二维码查看档案与保养记录',
    ],
    scenarios: '适合现场巡检人员、服务工程师和经常出差的管理者，在手机上完成日常查看与处理，各应用商店下载安装。',
  },
];

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** 应用详情's body: what it is, its 核心功能 and 适用场景. */
export function demoApplicationHtml(a: DemoApplication): string {
  return [
    `<p>${escape(a.description)}</p>`,
    '<h3>核心功能</h3>',
    `<ul>${a.features.map((f) => `<li>${escape(f)}</li>`).join('')}</ul>`,
    '<h3>适用场景</h3>',
    `<p>${escape(a.scenarios)}</p>`,
  ].join('');
}

/** The body every demo application first had (the same three bullets and its provider again), recognised to upgrade it. */
export const OLD_DEMO_BODY_MARK = '<li>开箱即用，免部署</li>';
