import { IDENTITY_TOOL_ID, type OpenServiceTool, type OpenServiceToolCard, isOpenServiceToolId } from '@portal/shared';
import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ToolIcon } from '@/components/tool-icon';
import { paths } from '@/config/paths';
import { AntSkeleton } from '@/components/antd-markup';
import { useRuntimeConfig } from '@/config/runtime-config';
import { canSanitizeHtml, sanitizeHtml } from '@/lib/sanitize';
import { useOpenServiceTool, useOpenServiceTools } from '../api/open-service';
import { docsUrl } from '../lib/links';
import { IdentityIntegrationSection } from './identity-integration-section';
import '@/components/layouts/portal-button.css';
import './open-service.css';

/** How a developer gets an application onto the platform, shown under the cards. */
const ONBOARDING = [
  { title: '注册并认证企业', text: '在门户注册账号，提交企业认证，成为企业管理员。' },
  { title: '登记应用', text: '在控制台「应用管理 → 应用列表」登记服务地址、注销地址与返回属性。' },
  { title: '配置客户端', text: '按「统一身份认证集成」给出的 Java、Node.js、Python 配置接入 CAS 3.0。' },
  { title: '接入自检', text: '一键检查地址登记、可访问性、单点注销、登录与票据校验。' },
];

const HERO_SAMPLE = `GET /cas/p3/serviceValidate
    ?service=https://app.example.com/
    &ticket=ST-1-8f3c…

<cas:serviceResponse>
  <cas:authenticationSuccess>
    <cas:user>zhangwei</cas:user>
    <cas:attributes>
      <cas:name>张伟</cas:name>
      <cas:enterpriseName>恒岳重工</cas:enterpriseName>
    </cas:attributes>
  </cas:authenticationSuccess>
</cas:serviceResponse>`;

function ToolCard({ tool }: { tool: OpenServiceToolCard }) {
  return (
    <li>
      <Link className="open-service__card" to={paths.openService.getHref(tool.id)} id={`tool-${tool.id}`} data-no={tool.id}>
        <span className="open-service__card-icon">
          <ToolIcon name={tool.icon} />
        </span>
        <h3>{tool.title}</h3>
        <p>{tool.summary}</p>
        <span className="open-service__card-more" aria-hidden="true">
          查看详情 →
        </span>
      </Link>
    </li>
  );
}

function ToolGrid({ tools, label }: { tools: readonly OpenServiceToolCard[]; label: string }) {
  return (
    <ul className="open-service__grid" aria-label={label}>
      {tools.map((tool) => (
        <ToolCard key={tool.id} tool={tool} />
      ))}
    </ul>
  );
}

/** The centre: hero, the online tools, how to get started; `missing` is a tool id that could not be shown. */
function Centre({ missing }: { missing: string | null }) {
  const tools = useOpenServiceTools();
  const config = useRuntimeConfig();
  return (
    <div className="open-service">
      <section className="open-service__hero">
        <div className="open-service__hero-inner open-service__hero-inner--split">
          <div>
            <p className="open-service__eyebrow">Engineering e+ 开放平台</p>
            <h1>开放服务中心</h1>
            <p className="open-service__lead">
              面向开发者的全栈工具链：移动开发、可视化搭建、统一身份认证、物联网接入、微服务与工业机理模型，助力企业应用快速上云、安全互通。
            </p>
            <div className="open-service__hero-actions">
              <Link className="portal-btn portal-btn--primary portal-btn--large" to={paths.openService.getHref(IDENTITY_TOOL_ID)}>
                接入统一身份认证
              </Link>
              <Link className="portal-btn portal-btn--large open-service__ghost" to={paths.openServiceApi.getHref()}>
                API 参考
              </Link>
            </div>
          </div>
          {/* Decoration on wide screens: what a ticket validation looks like. */}
          <div className="open-service__hero-art" aria-hidden="true">
            <div className="open-service__window-bar">
              <i />
              <i />
              <i />
              <span>p3/serviceValidate</span>
            </div>
            <pre>{HERO_SAMPLE}</pre>
          </div>
        </div>
      </section>
      <div className="open-service__container">
        {missing !== null && (
          <div className="open-service__notice" role="alert">
            <strong>未找到编号为「{missing}」的工具</strong>
            <span>该工具可能已下线或编号有误，以下是开放服务中心当前提供的全部工具。</span>
          </div>
        )}
        <section aria-labelledby="open-service-tools">
          <div className="open-service__heading">
            <h2 id="open-service-tools">开发者工具</h2>
            <p>选择一个工具，查看它的核心能力、快速开始与开发文档</p>
          </div>
          {tools.isPending ? (
            <AntSkeleton rows={6} />
          ) : tools.isError ? (
            <div className="open-service__notice" role="alert">
              <strong>工具列表加载失败</strong>
              <button type="button" className="portal-btn" onClick={() => void tools.refetch()}>
                重试
              </button>
            </div>
          ) : tools.data.length === 0 ? (
            <p className="open-service__empty">暂无上线的工具</p>
          ) : (
            <ToolGrid tools={tools.data} label="开发者工具" />
          )}
        </section>
        <section className="open-service__onboarding" aria-labelledby="open-service-onboarding">
          <div className="open-service__heading">
            <h2 id="open-service-onboarding">四步接入平台</h2>
            <p>从企业认证到应用上线，全程自助完成</p>
          </div>
          <ol className="open-service__steps">
            {ONBOARDING.map((step, index) => (
              <li key={step.title}>
                <span className="open-service__step-no" aria-hidden="true">
                  {index + 1}
                </span>
                <strong>{step.title}</strong>
                <p>{step.text}</p>
              </li>
            ))}
          </ol>
        </section>
        <section className="open-service__resources" aria-label="开发者资源">
          <Link className="open-service__resource" to={paths.openServiceApi.getHref()}>
            <ToolIcon name="api" className="open-service__resource-icon" />
            <span>
              <strong>API 参考</strong>
              <small>内容、标识查询、Handle 与 CAS 接口的参数、示例与 curl</small>
            </span>
          </Link>
          <a className="open-service__resource" href={docsUrl(config)} target="_blank" rel="noopener noreferrer">
            <ToolIcon name="appstore" className="open-service__resource-icon" />
            <span>
              <strong>完整接口文档（OpenAPI）</strong>
              <small>全部接口的在线文档与调试，在新窗口打开</small>
            </span>
          </a>
        </section>
      </div>
    </div>
  );
}

/**
 * A tool's body: stored sanitised by the server on write, cleaned again in the browser before it
 * is shown (the server renderer has no DOM to clean with and outputs the stored HTML).
 */
function ToolBody({ html }: { html: string }) {
  return <div className="open-service__body" dangerouslySetInnerHTML={{ __html: canSanitizeHtml ? sanitizeHtml(html) : html }} />;
}

/** A tool's detail (`?toolId=`): what it is, capabilities, how to start, documents; the other tools beside it. */
function ToolDetail({ tool }: { tool: OpenServiceTool }) {
  const tools = useOpenServiceTools();
  const others = (tools.data ?? []).filter((t) => t.id !== tool.id);
  // China time `yyyy-MM-dd HH:mm:ss` from the server: the same text on the server and in any browser.
  const updated = tool.updatedAt.slice(0, 10);
  return (
    <div className="open-service">
      <section className="open-service__hero open-service__hero--detail">
        <div className="open-service__hero-inner">
          <nav className="open-service__crumbs" aria-label="当前位置">
            <Link to={paths.home.getHref()}>首页</Link>
            <span aria-hidden="true">/</span>
            <Link to={paths.openService.getHref()}>开放服务</Link>
            <span aria-hidden="true">/</span>
            <span aria-current="page">{tool.title}</span>
          </nav>
          <div className="open-service__detail-head">
            <span className="open-service__detail-icon">
              <ToolIcon name={tool.icon} />
            </span>
            <div>
              <h1>{tool.title}</h1>
              <p className="open-service__lead">{tool.summary}</p>
            </div>
          </div>
        </div>
      </section>
      <div className="open-service__container open-service__layout">
        <article className="open-service__paper" aria-label={tool.title}>
          <p className="open-service__meta">
            <span>工具编号 {tool.id}</span>
            {updated && <span>更新于 {updated}</span>}
          </p>
          <ToolBody html={tool.body} />
          {tool.id === IDENTITY_TOOL_ID && <IdentityIntegrationSection />}
          <Link className="open-service__back" to={paths.openService.getHref()}>
            ← 返回开放服务中心
          </Link>
        </article>
        <aside className="open-service__aside" aria-label="其他工具">
          <h2>其他工具</h2>
          <ul className="open-service__others">
            {others.map((t) => (
              <li key={t.id}>
                <Link to={paths.openService.getHref(t.id)}>
                  <span className="open-service__others-icon">
                    <ToolIcon name={t.icon} />
                  </span>
                  <span className="open-service__others-text">
                    <strong>{t.title}</strong>
                    <small>{t.summary}</small>
                  </span>
                </Link>
              </li>
            ))}
          </ul>
          <Link className="open-service__aside-api" to={paths.openServiceApi.getHref()}>
            <ToolIcon name="api" /> API 参考
          </Link>
        </aside>
      </div>
    </div>
  );
}

function DetailSkeleton() {
  return (
    <div className="open-service">
      <section className="open-service__hero open-service__hero--detail" aria-busy="true">
        <div className="open-service__hero-inner" />
      </section>
      <div className="open-service__container">
        <div className="open-service__paper">
          <AntSkeleton rows={10} />
        </div>
      </div>
    </div>
  );
}

/**
 * /open-service: the open-service centre, or with `?toolId=01`…`06` (spec section 9) one
 * tool's detail, shareable and rendered by the server. A tool id that is unknown or offline shows the
 * centre with a notice.
 */
export function OpenServicePage() {
  const [params] = useSearchParams();
  const toolId = params.get('toolId') || null;
  const detail = useOpenServiceTool(toolId);

  // Opening another tool from a card or the side list starts at its top (the first view already does).
  const shown = useRef(toolId);
  useEffect(() => {
    if (shown.current === toolId) return;
    shown.current = toolId;
    window.scrollTo({ top: 0 });
  }, [toolId]);

  if (toolId === null) return <Centre missing={null} />;
  if (!isOpenServiceToolId(toolId) || detail.data === null) return <Centre missing={toolId} />;
  if (detail.isError) {
    return (
      <div className="open-service">
        <div className="open-service__container">
          <div className="open-service__notice" role="alert">
            <strong>工具详情加载失败</strong>
            <button type="button" className="portal-btn" onClick={() => void detail.refetch()}>
              重试
            </button>
          </div>
        </div>
      </div>
    );
  }
  if (detail.data === undefined) return <DetailSkeleton />;
  return <ToolDetail tool={detail.data} />;
}
