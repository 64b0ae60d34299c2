import type { OpenServiceIcon, OpenServiceToolId } from '@portal/shared';

/**
 * The first content of the open-service centre's six developer tools (spec section 9: fixed ids 01
 * to 06, the home page's developer-tools showcase). Operators edit them in the console's 开放服务;
 * this is only what a tool starts with. Bodies are HTML for the article sanitiser, each in the
 * sections 简介, 核心能力, 快速开始 and 开发文档.
 */
export interface OpenServiceToolSeed {
  id: OpenServiceToolId;
  title: string;
  summary: string;
  icon: OpenServiceIcon;
  body: string;
}

const section = (title: string, html: string) => `<h2>${title}</h2>${html}`;
const list = (tag: 'ul' | 'ol', items: string[]) => `<${tag}>${items.map((i) => `<li>${i}</li>`).join('')}</${tag}>`;
const body = (parts: { intro: string; capabilities: string[]; start: string[]; startNote?: string; documents: string[] }) =>
  section('简介', parts.intro) +
  section('核心能力', list('ul', parts.capabilities)) +
  section('快速开始', list('ol', parts.start) + (parts.startNote ?? '')) +
  section('开发文档', list('ul', parts.documents));

/**
 * SHA-256 (hex) of a tool's summary and sanitised body as earlier releases first wrote them. A tool still
 * carrying one of them was never edited: a start brings it to the current text (open-service-structure.ts).
 */
export const SUPERSEDED_OPEN_SERVICE_TEXTS: Readonly<Partial<Record<OpenServiceToolId, { summary: string[]; body: string[] }>>> = {
  // 统一身份认证集成: CAS 3.0 only, then CAS 3.0 and OpenID Connect (before SAML 2.0).
  '03': {
    summary: [
      '8bbeed7cb2942060517b69e3b365f3081d47af9d7590c36a04e99068d2a03de4',
      'c00dcf64a0f0ac367dfe8244c61ea51093dbfa46ff88aedc0fd749bd2d88d516',
    ],
    body: [
      '998aad4197015e016e74b78830f5a9aab83cf41dc28e9881de396bad9cfb4510',
      '2dad8dcbb49f30ce1d15fc8e0a35888e3a7e316884efde02354c0f8853287cf7',
    ],
  },
};

export const OPEN_SERVICE_TOOLS: readonly OpenServiceToolSeed[] = [
  {
    id: '01',
    title: '移动开发平台及 SDK',
    icon: 'mobile',
    summary: '跨端移动应用开发框架与设备接入 SDK：一套代码覆盖 Android、iOS 与 HarmonyOS，内置扫码识别设备标识、离线表单与蓝牙设备连接。',
    body: body({
      intro:
        '<p>移动开发平台面向工程机械与装备制造企业的现场作业，提供跨端应用开发框架、设备接入 SDK 与应用发布服务。' +
        '开发者用一套代码即可构建覆盖 Android、iOS 与 HarmonyOS 的巡检、报工与售后服务应用，现场人员使用门户的企业账号登录。</p>',
      capabilities: [
        '<strong>跨端开发框架</strong>：组件化 UI 框架，提供表单、列表、图表、签名板等 60 余个面向现场作业的组件，可按企业主题定制配色与字体。',
        '<strong>设备标识扫码</strong>：识别设备铭牌上的工业互联网标识二维码，调用门户的标识查询接口直达设备档案、质保与售后信息。',
        '<strong>离线作业</strong>：无网络时表单与照片暂存在本地加密存储中，恢复联网后按提交顺序自动同步，冲突时提示人工确认。',
        '<strong>设备连接 SDK</strong>：通过蓝牙低功耗与 Wi-Fi 直连读取控制器和物联网盒子的实时数据，支持 Modbus RTU 透传与断点续传。',
        '<strong>统一登录</strong>：内置统一身份认证（CAS）登录组件，移动应用与门户共用企业账号、应用授权与安全策略。',
        '<strong>发布与运维</strong>：灰度发布、强制升级、崩溃采集与启动耗时、页面卡顿等性能指标监控。',
      ],
      start: [
        '在控制台「应用管理 → 应用列表」中登记移动应用，填写登录回调的服务地址，并在「应用授权」中指定可以使用它的账号组或角色。',
        '在 Android 工程的 <code>build.gradle</code> 或 iOS 工程的 <code>Podfile</code> 中引入 SDK 依赖，按平台要求声明相机、蓝牙与定位权限。',
        '在应用启动时调用 SDK 初始化接口，传入应用标识与门户地址；使用内置登录组件完成统一身份认证登录。',
        '在测试设备上扫描一台设备的标识二维码，能打开其设备档案即表示接入完成，可以提交测试版本。',
      ],
      documents: [
        '《SDK 集成指南》：工程配置、权限声明、初始化参数与混淆规则。',
        '《组件库手册》：各 UI 组件的属性、事件与示例代码。',
        '《设备连接协议说明》：蓝牙与 Wi-Fi 直连的报文格式、超时与重试策略。',
        '《标识查询接口》：见本中心「API 参考」的标识查询与 Handle API。',
        '《发布规范》：版本号规则、灰度策略与各应用商店的上架要求。',
      ],
    }),
  },
  {
    id: '02',
    title: '可视化编辑器',
    icon: 'control',
    summary: '拖拽式搭建数据看板、监控大屏与业务表单，直接绑定物联网平台的设备数据与企业数据库，发布后通过统一身份认证访问。',
    body: body({
      intro:
        '<p>可视化编辑器是面向业务人员与实施工程师的低代码页面搭建工具。拖拽组件、配置数据源与交互即可完成设备监控大屏、' +
        '生产与服务看板以及业务表单，不需要编写前端代码；复杂场景可以用自定义组件扩展。</p>',
      capabilities: [
        '<strong>组件库</strong>：折线图、柱状图、仪表盘、地图、3D 设备模型、滚动表格等 80 余种可视化组件，支持上传企业自定义组件。',
        '<strong>数据源</strong>：物联网平台的设备属性与告警、MySQL 与 PostgreSQL 数据库、REST 接口和 CSV 文件；支持定时刷新与 WebSocket 实时推送。',
        '<strong>表单设计</strong>：字段校验、联动显隐、子表与计算字段，提交的数据可进入审批流程。',
        '<strong>大屏适配</strong>：按 1920×1080、3840×2160 等分辨率等比缩放，支持多屏拼接与轮播。',
        '<strong>版本与权限</strong>：页面版本管理与回退；发布的页面经统一身份认证登录访问，按应用授权控制可见范围。',
      ],
      start: [
        '新建项目，选择“监控大屏”“数据看板”或“业务表单”模板。',
        '在“数据源”中添加物联网平台连接，选择产品与设备属性，如发动机转速、液压油温与累计工作小时。',
        '把组件拖到画布上并绑定数据字段，设置刷新周期与告警阈值的颜色。',
        '预览无误后发布，得到页面的访问地址；在「应用列表」中登记该地址，即可纳入统一身份认证与应用授权。',
      ],
      documents: [
        '《编辑器使用手册》：画布、图层、组件配置与交互事件。',
        '《数据源配置说明》：各类数据源的连接参数、刷新策略与安全要求。',
        '《自定义组件开发规范》：组件清单文件、属性面板声明与打包要求。',
        '《表达式与过滤器参考》：数据转换、格式化与条件样式的写法。',
      ],
    }),
  },
  {
    id: '03',
    title: '统一身份认证集成',
    icon: 'safety-certificate',
    summary:
      '基于 CAS 3.0、OpenID Connect 与 SAML 2.0 的单点登录：在应用列表登记应用，用应用授权控制谁能访问；CAS 应用经 /cas/p3/serviceValidate 校验票据，OIDC 应用按发现文档以授权码 + PKCE 登录，SAML 应用导入 IdP 元数据 /saml/metadata。',
    body: body({
      intro:
        '<p>门户内置符合 CAS 3.0 协议的统一身份认证服务。企业的业务系统接入后，员工用门户账号登录一次即可进入所有已授权的应用；' +
        '退出门户时，门户向每个应用发送单点登出通知。票据校验兼容 CAS 2.0 与 CAS 1.0，Apereo Java CAS Client、' +
        'Spring Security CAS 以及 Node.js、Python 的常用 CAS 客户端均可直接使用。</p>' +
        '<p>门户同时是 OpenID Connect 提供方（签发方 <code>{门户地址}/oidc</code>，发现文档 ' +
        '<code>{门户地址}/oidc/.well-known/openid-configuration</code>），与 CAS 应用共用同一登录会话：授权码 + PKCE、' +
        'ID 令牌、用户信息、刷新令牌、令牌撤销与内省、应用发起的退出与后端通道登出。</p>' +
        '<p>门户也是 SAML 2.0 身份提供方（IdP）：元数据地址 <code>{门户地址}/saml/metadata</code>（即 IdP 实体 ID，含签名证书），' +
        '单点登录地址 <code>{门户地址}/saml/sso</code>（HTTP-Redirect 与 HTTP-POST 绑定），单点登出地址 <code>{门户地址}/saml/slo</code>；' +
        '响应以 HTTP-POST 发往登记的断言消费地址，响应与断言以 RSA-SHA256 签名，同样共用登录会话与单点登出，也支持从「我的应用」直接进入（IdP 发起）。</p>' +
        '<p>企业管理员登录后，可在本页看到本企业每个应用的接入配置与客户端示例（Spring Security、Node.js openid-client、Python Authlib），并对应用运行「接入自检」。</p>',
      capabilities: [
        '<strong>服务登记</strong>：企业管理员在控制台「应用管理 → 应用列表」中登记应用，填写服务地址（按协议以前缀精确匹配，生产环境须为 https）、注销地址与返回属性。',
        '<strong>访问控制</strong>：在「应用授权」中按全员、账号组、角色或指定账号授权；未授权的账号在登录时即被拒绝，撤销授权后已签发的票据也不能再通过校验。',
        '<strong>票据校验与属性</strong>：应用调用 <code>/cas/p3/serviceValidate</code> 校验服务票据（ST），得到账号名与所选属性：姓名 name、手机号 telephone、邮箱 email、企业名称 enterpriseName、工号 number、账号组 groups、角色 roles。',
        '<strong>单点登出</strong>：用户退出时，门户以 POST 方式向应用的注销地址（未填写时为服务地址）发送 CAS <code>logoutRequest</code>，应用据其中的票据结束本地会话。',
        '<strong>OpenID Connect</strong>：在应用列表中以 OpenID Connect 协议登记应用，得到客户端 ID 与只显示一次的客户端密钥（公开客户端无密钥，须用 PKCE），登记回调地址（精确匹配）、后端登出地址与授权范围（openid、profile、email、phone、enterprise、groups、roles）。',
        '<strong>SAML 2.0</strong>：在应用列表中以 SAML 2.0 协议登记应用，上传 SP 元数据或填写其地址即可读取，也可手工填写：SP 实体 ID、断言消费地址（ACS，响应只发往此地址）、单点登出地址（SLO，可选）、SP 签名证书（要求请求签名时必填）、NameID 格式（persistent、email 或 unspecified）与签名方式；返回属性以 SAML 属性名 name、email、telephone、enterpriseName、number、groups、roles 发送。',
        '<strong>安全策略</strong>：登录失败锁定、二次验证与会话时长遵循企业在「安全设置」中的配置，登录记录可在「登录日志」中查询。',
      ],
      start: [
        '在「应用列表」中新建应用：协议选择 CAS 3.0，服务地址填写应用的访问前缀（如 <code>https://eam.example.cn/</code>），按需填写注销地址并勾选返回属性。',
        '在「应用授权」中为应用授权账号组或角色。',
        '应用把未登录的用户重定向到 <code>{门户地址}/cas/login?service={URL 编码的应用地址}</code>；登录成功后，浏览器带着 <code>ticket=ST-…</code> 回到应用。',
        '应用服务端请求 <code>{门户地址}/cas/p3/serviceValidate?service=…&amp;ticket=ST-…</code>（加 <code>format=JSON</code> 返回 JSON），从 <code>authenticationSuccess</code> 中读取账号与属性并建立本地会话。',
        '在注销地址上接收 <code>logoutRequest</code>，按其中的 <code>SessionIndex</code>（即服务票据）结束对应会话。',
        'SAML 应用：在应用（SP）中导入门户的 IdP 元数据 <code>{门户地址}/saml/metadata</code>；在「应用列表」中新建协议为 SAML 2.0 的应用，上传 SP 元数据或登记实体 ID、ACS 地址、SLO 地址、NameID 格式与返回属性，再在「应用授权」中授权。',
      ],
      startNote:
        '<p>Spring Boot 应用使用 Apereo Java CAS Client 时的配置示例：</p>' +
        '<pre><code>cas:\n  server-url-prefix: https://portal.example.cn/cas\n  server-login-url: https://portal.example.cn/cas/login\n' +
        '  client-host-url: https://eam.example.cn\n  validation-type: CAS3</code></pre>',
      documents: [
        '<a href="https://apereo.github.io/cas/7.2.x/protocol/CAS-Protocol-Specification.html" target="_blank">CAS 协议规范（CAS 3.0）</a>：登录、票据校验、属性与单点登出的协议细节。',
        '<a href="https://github.com/apereo/java-cas-client" target="_blank">Apereo Java CAS Client</a>：Java 与 Spring Boot 应用的客户端及其配置项。',
        '<a href="https://openid.net/specs/openid-connect-core-1_0.html" target="_blank">OpenID Connect Core 1.0</a>：授权码流程、ID 令牌与声明。',
        '<a href="https://docs.oasis-open.org/security/saml/v2.0/saml-core-2.0-os.pdf" target="_blank">SAML 2.0 核心规范</a>：断言、协议消息、NameID 与单点登出。',
        '本中心「API 参考」：<code>/cas/login</code>、<code>/cas/p3/serviceValidate</code> 等 CAS 端点，以及发现文档、<code>/oidc/auth</code>、<code>/oidc/token</code>、<code>/oidc/me</code> 等 OpenID Connect 端点，以及 <code>/saml/metadata</code>、<code>/saml/sso</code>、<code>/saml/slo</code> 等 SAML 端点的参数与返回示例。',
      ],
    }),
  },
  {
    id: '04',
    title: '物联网平台',
    icon: 'deployment-unit',
    summary: '多协议设备接入、物模型管理与规则引擎，支撑工程机械整机、液压元件与产线设备的远程监控、告警与数据流转。',
    body: body({
      intro:
        '<p>物联网平台为工程机械整机、液压元件与产线设备提供从接入、建模到数据流转的全链路能力。平台支持百万级设备并发连接，' +
        '设备数据经规则引擎处理后写入时序数据库，或转发到企业的业务系统。</p>',
      capabilities: [
        '<strong>多协议接入</strong>：MQTT 3.1.1/5.0、CoAP 与 HTTP 直连；Modbus TCP/RTU、OPC UA、西门子 S7 等工业协议经边缘网关（物联网盒子）转换接入；一机一密与 X.509 证书双向认证。',
        '<strong>物模型</strong>：以属性、事件与服务描述设备能力，如挖掘机的发动机转速、液压油温与累计工作小时；支持物模型版本管理与批量导入。',
        '<strong>设备管理</strong>：设备分组、在线状态、设备影子（期望值与上报值）、OTA 固件升级与远程配置。',
        '<strong>规则引擎</strong>：用 SQL 筛选与转换数据，转发到消息队列、时序数据库或 HTTP 接口；阈值告警与逐级升级通知。',
        '<strong>标识联动</strong>：设备以工业互联网标识注册，扫码即可查看设备档案与实时工况。',
      ],
      start: [
        '创建产品，选择节点类型（直连设备或网关子设备）与接入协议，定义物模型。',
        '在产品下添加设备，取得设备证书（ProductKey、DeviceName、DeviceSecret）。',
        '用 MQTT 客户端连接接入点，按 Topic 规范上报属性：<code>/sys/{productKey}/{deviceName}/thing/event/property/post</code>。',
        '在设备详情的“运行状态”中查看上报的数据，并配置一条规则：液压油温高于 85 ℃ 时生成告警。',
      ],
      documents: [
        '《设备接入指南》：MQTT、CoAP 与 HTTP 的连接参数、鉴权方式与 Topic 规范。',
        '《物模型定义规范》：属性、事件、服务的数据类型与取值范围。',
        '《规则引擎 SQL 参考》：函数、窗口与转发目的地配置。',
        '《边缘网关配置手册》：工业协议采集点表、断网缓存与远程运维。',
      ],
    }),
  },
  {
    id: '05',
    title: '微服务集群',
    icon: 'cluster',
    summary: '基于 Kubernetes 的容器化部署与服务治理：注册发现、配置中心、灰度发布、链路追踪与弹性伸缩，承载工业 APP 稳定运行。',
    body: body({
      intro:
        '<p>微服务集群是工业 APP 的托管运行环境，基于 Kubernetes 编排，集成服务治理、可观测性与持续交付能力。' +
        '企业把自研或第三方的工业 APP 以容器镜像部署到平台，与门户的统一身份认证、标识解析等能力协同工作。</p>',
      capabilities: [
        '<strong>应用托管</strong>：镜像仓库，开发、测试、生产多环境命名空间隔离，CPU 与内存配额管理。',
        '<strong>服务治理</strong>：服务注册与发现、负载均衡、熔断限流、超时重试，兼容 Spring Cloud 与 Dubbo 应用。',
        '<strong>配置中心</strong>：配置按环境与版本管理，修改后实时推送到实例，无需重启服务。',
        '<strong>发布策略</strong>：滚动、蓝绿与按流量比例的灰度发布，发布失败一键回滚。',
        '<strong>可观测性</strong>：日志集中检索、指标监控，以及基于 OpenTelemetry 的分布式链路追踪。',
        '<strong>弹性伸缩</strong>：按 CPU、内存或自定义指标（如消息积压量）自动扩缩容。',
      ],
      start: [
        '创建命名空间并申请资源配额。',
        '把应用构建为容器镜像，推送到平台的镜像仓库。',
        '新建服务：选择镜像与版本，设置实例数、健康检查路径与环境变量。',
        '配置访问路由与 HTTPS 证书；需要统一登录时，在「应用列表」中登记服务地址。',
        '在监控面板中查看实例状态、接口耗时与调用链。',
      ],
      documents: [
        '《容器化改造指南》：镜像构建、无状态化与健康检查的要求。',
        '《服务治理配置参考》：限流、熔断、重试与路由规则的配置项。',
        '《发布与回滚操作手册》：各发布策略的步骤与注意事项。',
        '《可观测性接入说明》：日志格式、指标命名与链路追踪的接入方式。',
      ],
    }),
  },
  {
    id: '06',
    title: '工业机理模型',
    icon: 'experiment',
    summary: '沉淀装备制造行业知识的故障诊断、剩余寿命预测与工艺优化模型，支持在线调用、用企业数据二次训练与模型发布。',
    body: body({
      intro:
        '<p>工业机理模型库汇集工程机械与液压领域的机理模型和数据驱动模型，把专家经验、物理规律与历史运行数据结合起来，' +
        '提供故障诊断、剩余寿命预测与工艺参数优化等能力。模型以接口形式发布，工业 APP 与可视化看板可以直接调用。</p>',
      capabilities: [
        '<strong>模型库</strong>：液压系统泄漏诊断、发动机异常工况识别、回转支承磨损预测、结构件疲劳寿命评估、焊接工艺参数优化等 40 余个模型。',
        '<strong>机理与数据融合</strong>：以物理方程约束建模，减少对大量故障样本的依赖，结果可解释。',
        '<strong>二次训练</strong>：用企业自己的设备数据训练与验证模型，准确率、召回率、平均绝对误差等指标可视化对比。',
        '<strong>模型服务</strong>：一键发布为 REST 接口，支持批量推理与流式推理，按调用量计量。',
        '<strong>与物联网平台联动</strong>：直接订阅设备属性数据作为模型输入，推理结果回写为设备事件或告警。',
      ],
      start: [
        '在模型库中选择模型，查看它的输入特征（如液压泵出口压力、油温、转速）、输出与适用工况。',
        '上传或关联样本数据，完成特征映射。',
        '运行评估，指标满足要求后发布模型服务。',
        '在可视化编辑器或业务系统中调用模型接口，把诊断结果展示给运维人员。',
      ],
      documents: [
        '《模型接入与发布规范》：模型包结构、运行环境与资源声明。',
        '《特征工程说明》：常用工况特征的计算方法与采样频率要求。',
        '《模型评估指标说明》：分类、回归与异常检测模型的评估方法。',
        '《推理接口参考》：请求与返回格式、批量调用与错误码。',
      ],
    }),
  },
];
