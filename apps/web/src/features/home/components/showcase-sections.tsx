import type { HomeBlocks } from '@portal/shared';
import type { RuntimeConfig } from '@portal/shared';
import { fileUrl, useRuntimeConfig } from '@/config/runtime-config';
import { RESOURCE_REGIONS, rankRegions, resourceTotals } from '../lib/resource-regions';
import { BlockLink } from './banner-section';
import { HomeIcon, type HomeIconName } from './home-icon';
import { SectionHeading } from './news-section';

/** Spec section 1: six advantages. */
const ADVANTAGES: { icon: HomeIconName; title: string; text: string }[] = [
  { icon: 'appstore', title: '通用', text: '覆盖设备接入、建模、监控、分析全流程，适配多行业多场景' },
  { icon: 'safety', title: '安全', text: '等保三级防护，统一身份认证，数据分类分级与全程审计' },
  { icon: 'smile', title: '易用', text: '可视化配置、低代码开发，业务人员也能快速搭建应用' },
  { icon: 'api', title: '可扩展', text: '开放接口与 SDK，微服务架构按需扩容，生态应用即插即用' },
  { icon: 'safety-certificate', title: '稳定', text: '多活部署与实时监控，核心服务可用性 99.95%' },
  { icon: 'sync', title: '灵活', text: '公有云、私有化与混合部署，按需订阅，弹性计费' },
];

/** Spec section 1: the developer-tools showcase; spec section 2: tool links with fixed ids 01–06. */
export const DEV_TOOLS = [
  { id: '01', icon: 'mobile', title: '移动开发平台及 SDK', text: '跨端移动应用开发框架与设备接入 SDK' },
  { id: '02', icon: 'control', title: '可视化编辑器', text: '拖拽式搭建看板、大屏与表单页面' },
  { id: '03', icon: 'safety-certificate', title: '统一身份认证集成', text: '基于 CAS 的单点登录，快速接入平台账号' },
  { id: '04', icon: 'deployment-unit', title: '物联网平台', text: '多协议设备接入、物模型与规则引擎' },
  { id: '05', icon: 'cluster', title: '微服务集群', text: '容器化部署、服务治理与弹性伸缩' },
  { id: '06', icon: 'experiment', title: '工业机理模型', text: '沉淀行业知识的故障诊断与工艺优化模型' },
] as const satisfies readonly { id: string; icon: HomeIconName; title: string; text: string }[];

export function devToolUrl(config: RuntimeConfig, id: string): string {
  return `${config.openServiceUrl}?toolId=${id}`;
}

const RANKED_REGIONS = rankRegions(RESOURCE_REGIONS);
const TOTALS = resourceTotals(RESOURCE_REGIONS);
const TOP_DEVICES = RANKED_REGIONS[0]?.devices ?? 1;
/** How many provinces a region's row names before it is opened. */
const PROVINCES_NAMED = 3;

const tenthsText = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));
const barWidth = (devices: number) => `${Math.max(2, (devices / TOP_DEVICES) * 100)}%`;

/**
 * 资源地图: where connected equipment and service outlets are, as a ranking of regions that opens to
 * their provinces (no drawn map). Plain markup: a row opens without any script.
 */
export function ResourceMapSection() {
  return (
    <section className="home-section home-map" aria-label="资源地图">
      <div className="home-container home-map__inner">
        <div className="home-map__text">
          <SectionHeading title="资源地图" subtitle="接入设备与服务网点的全国分布，按区域排名" />
          <ul className="home-map__stats">
            <li>
              <strong>{tenthsText(TOTALS.devices)} 万台</strong>
              <span>接入设备</span>
            </li>
            <li>
              <strong>{TOTALS.outlets.toLocaleString('zh-CN')} 个</strong>
              <span>服务网点</span>
            </li>
            <li>
              <strong>{TOTALS.provinces} 个</strong>
              <span>覆盖省级行政区</span>
            </li>
          </ul>
        </div>
        <ol className="home-rank" aria-label="各区域接入设备与服务网点排名">
          {RANKED_REGIONS.map((region, i) => (
            <li key={region.name}>
              <details className="home-rank__region">
                <summary>
                  <span className="home-rank__no" aria-hidden="true">
                    {i + 1}
                  </span>
                  <span className="home-rank__main">
                    <span className="home-rank__line">
                      <strong>{region.name}</strong>
                      <span className="home-rank__figures">
                        {tenthsText(region.devices)} 万台 · {region.outlets} 个网点
                      </span>
                    </span>
                    <span className="home-rank__bar" aria-hidden="true">
                      <span style={{ width: barWidth(region.devices) }} />
                    </span>
                    <span className="home-rank__provinces">
                      {region.provinces
                        .slice(0, PROVINCES_NAMED)
                        .map((p) => p.name)
                        .join(' · ')}
                      {region.provinces.length > PROVINCES_NAMED && ` 等 ${region.provinces.length} 个省级行政区`}
                    </span>
                  </span>
                </summary>
                <table className="home-rank__table">
                  <caption>{region.name}各省级行政区</caption>
                  <thead>
                    <tr>
                      <th scope="col">省级行政区</th>
                      <th scope="col">接入设备</th>
                      <th scope="col">服务网点</th>
                    </tr>
                  </thead>
                  <tbody>
                    {region.provinces.map((p) => (
                      <tr key={p.name}>
                        <th scope="row">{p.name}</th>
                        <td>{tenthsText(p.devices)} 万台</td>
                        <td>{p.outlets} 个</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </details>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}

/** While the home blocks load: four cards of the final size (home.css), so nothing below moves. */
function placeholderCards(className: string, iconSize: number) {
  return Array.from({ length: 4 }, (_, i) => (
    <div className={`${className} home-card--placeholder`} key={i} aria-hidden="true">
      <span className="home-card__icon-placeholder" style={{ width: iconSize, height: iconSize }} />
      <span className="home-placeholder-line home-placeholder-line--title" />
      <span className="home-placeholder-line home-placeholder-line--short" />
    </div>
  ));
}

/** 荣誉资质 and 供需互助, from the editable home blocks. */
export function AwardsAndSupplySections({ blocks }: { blocks: HomeBlocks | undefined }) {
  const config = useRuntimeConfig();
  return (
    <>
      <section className="home-section" aria-label="荣誉资质">
        <div className="home-container">
          <SectionHeading title="荣誉资质" subtitle="权威认证，值得信赖" />
          <div className="home-awards">
            {blocks
              ? blocks.awards.map((a) => (
                  <div className="home-award" key={a.title}>
                    <img src={fileUrl(config, a.icon)} alt="" width={48} height={48} />
                    <strong>{a.title}</strong>
                    <span>{a.subtitle}</span>
                  </div>
                ))
              : placeholderCards('home-award', 48)}
          </div>
        </div>
      </section>
      <section className="home-section home-section--tinted" aria-label="供需互助">
        <div className="home-container">
          <SectionHeading title="供需互助" subtitle="连接产业链上下游，让资源高效流动" />
          <div className="home-supply">
            {blocks
              ? blocks.links.map((l) => (
                  <BlockLink key={l.title} block={l} className="home-supply__card">
                    <img src={fileUrl(config, l.icon)} alt="" width={44} height={44} />
                    <strong>{l.title}</strong>
                    <span>{l.subtitle}</span>
                  </BlockLink>
                ))
              : placeholderCards('home-supply__card', 44)}
          </div>
        </div>
      </section>
    </>
  );
}

export function AboutSection() {
  return (
    <section className="home-section home-about" aria-label="关于我们">
      <div className="home-container home-about__inner">
        <div className="home-about__text">
          <SectionHeading title="关于我们" subtitle="工程机械集团 · 工业互联网平台" />
          <p>
            工程机械集团始创于 1943
            年，是国内工程机械行业规模最大、产品品种与系列最齐全的企业之一，产品覆盖挖掘机械、起重机械、铲土运输机械、桩工机械等领域，销往全球
            190 多个国家和地区。
          </p>
          <p>
            Engineering e+
            工业互联网平台依托集团数十年的装备制造经验，面向工业企业提供设备建模、设备看板、监控告警、数据分析、基于二级节点标识的售后服务、工业物联网平台、物联网盒子、大屏看板与移动
            App 等服务，助力企业降本、提质、增效。
          </p>
        </div>
        <div className="home-about__facts">
          <div>
            <strong>80+</strong>
            <span>年装备制造经验</span>
          </div>
          <div>
            <strong>190+</strong>
            <span>个国家和地区</span>
          </div>
          <div>
            <strong>2 万+</strong>
            <span>生态合作企业</span>
          </div>
          <div>
            <strong>
              <HomeIcon name="thunderbolt" /> 7×24
            </strong>
            <span>小时运维保障</span>
          </div>
        </div>
      </div>
    </section>
  );
}

export function AdvantagesSection() {
  return (
    <section className="home-section home-section--tinted" aria-label="平台优势">
      <div className="home-container">
        <SectionHeading title="平台优势" subtitle="通用 · 安全 · 易用 · 可扩展 · 稳定 · 灵活" />
        <div className="home-advantages">
          {ADVANTAGES.map((a) => (
            <div className="home-advantage" key={a.title}>
              <span className="home-advantage__icon">
                <HomeIcon name={a.icon} />
              </span>
              <strong>{a.title}</strong>
              <p>{a.text}</p>
            </div>
          ))}
        </div>
      </div>
    </section>
  );
}

export function DevToolsSection() {
  const config = useRuntimeConfig();
  return (
    <section className="home-section" aria-label="开发者工具">
      <div className="home-container">
        <SectionHeading title="开发者工具" subtitle="开放服务中心为开发者提供全栈工具链" />
        <div className="home-tools">
          {DEV_TOOLS.map((t) => (
            <a className="home-tool" key={t.id} id={`tool-${t.id}`} href={devToolUrl(config, t.id)}>
              <span className="home-tool__no" data-no={t.id} aria-hidden="true" />
              <span className="home-tool__icon">
                <HomeIcon name={t.icon} />
              </span>
              <strong>{t.title}</strong>
              <p>{t.text}</p>
            </a>
          ))}
        </div>
      </div>
    </section>
  );
}
