import { AuditOutlined, CheckCircleOutlined, IdcardOutlined, LoginOutlined, RightOutlined, UserAddOutlined } from '@ant-design/icons';
import { type CSSProperties, useEffect, useRef, useState } from 'react';
import { ANTD_SCOPE, AntButton, AntButtonLink } from '@/components/antd-markup';
import { paths } from '@/config/paths';
import { useRuntimeConfig } from '@/config/runtime-config';
import { centralLoginUrl } from '@/lib/auth';
import { isPlainClick } from '@/lib/plain-click';
import { scrollTo } from '@/lib/scroll-to';
import { useRegisterDialog } from '@/stores/register-dialog-store';
import './settled.css';

const SECTIONS = [
  { key: 'overview', href: '#overview', title: '入驻流程', short: '入驻流程' },
  { key: 'step-1', href: '#step-1', title: '第一步 注册登录', short: '注册登录' },
  { key: 'step-2', href: '#step-2', title: '第二步 企业认证', short: '企业认证' },
  { key: 'faq', href: '#faq', title: '常见问题', short: '常见问题' },
];
/** 入驻流程's steps. */
const STEPS = [
  { title: '注册账号', content: '手机号 + 短信验证码', icon: <UserAddOutlined /> },
  { title: '登录平台', content: '统一身份认证', icon: <LoginOutlined /> },
  { title: '企业认证', content: '提交营业执照', icon: <IdcardOutlined /> },
  { title: '审核通过', content: '1–3 个工作日', icon: <AuditOutlined /> },
];
/**
 * Where a section's top lands after a click, and the line that decides which section is current: below
 * the fixed header (64 px) and, on phones, the section bar under it.
 */
const SECTION_OFFSET = 120;
/** antd Anchor's default `bounds`: a section within this many pixels under the line already counts. */
const SECTION_BOUNDS = 5;
/** antd Anchor's scroll to a section, in ms. */
const SECTION_SCROLL_MS = 450;

const atPageBottom = () => window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2;

/**
 * The section the scroll position names (antd Anchor's rule): the last one whose top has passed the
 * line, or the last section of all at the bottom of the page, which a short last section cannot reach
 * the top of.
 */
function sectionInView(): string {
  if (atPageBottom()) return SECTIONS[SECTIONS.length - 1]!.href;
  let current = '';
  for (const section of SECTIONS) {
    const top = document.getElementById(section.key)?.getBoundingClientRect().top;
    if (top !== undefined && top <= SECTION_OFFSET + SECTION_BOUNDS) current = section.href;
  }
  return current;
}

/**
 * The highlighted section and a click on a menu link. A click scrolls to its section and names it until
 * the visitor scrolls on from where that scroll arrived: at the bottom of the page the position alone
 * would name the last section, whichever was clicked.
 */
function useSectionHighlight(): [string, (href: string) => void] {
  const [current, setCurrent] = useState('');
  const clicked = useRef<{ arrivedAt: number | null } | null>(null);
  useEffect(() => {
    let frame = 0;
    const follow = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        const click = clicked.current;
        if (click && (click.arrivedAt === null || click.arrivedAt === window.scrollY)) return;
        clicked.current = null;
        setCurrent(sectionInView());
      });
    };
    follow();
    window.addEventListener('scroll', follow, { passive: true });
    window.addEventListener('resize', follow, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', follow);
      window.removeEventListener('resize', follow);
    };
  }, []);
  const go = (href: string) => {
    const target = document.getElementById(href.slice(1));
    if (!target) return;
    const click = { arrivedAt: null as number | null };
    clicked.current = click;
    setCurrent(href);
    // The address names the section, as the link's own navigation would, without a history entry.
    window.history.replaceState(window.history.state, '', href);
    const top = Math.max(0, Math.round(window.scrollY + target.getBoundingClientRect().top - SECTION_OFFSET));
    const arrived = () => {
      click.arrivedAt = window.scrollY;
    };
    if (window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) {
      window.scrollTo(0, top);
      arrived();
    } else scrollTo(top, SECTION_SCROLL_MS, arrived);
  };
  return [current, go];
}

/**
 * A sticky menu of the sections (antd Anchor's markup, without antd): a bar under the header on phones,
 * a column beside the content on computers. The highlighted link is `aria-current="location"`.
 */
function SectionMenu({
  direction,
  current,
  onGo,
}: {
  direction: 'horizontal' | 'vertical';
  current: string;
  onGo: (href: string) => void;
}) {
  const label = direction === 'horizontal' ? 'short' : 'title';
  return (
    <div
      className={`${ANTD_SCOPE} ant-anchor-css-var ant-anchor-wrapper${direction === 'horizontal' ? ' ant-anchor-wrapper-horizontal' : ''}`}
    >
      <div className={`ant-anchor${direction === 'horizontal' ? ' ant-anchor-fixed' : ''}`}>
        {SECTIONS.map((s) => {
          const active = s.href === current;
          return (
            <div key={s.key} className={`ant-anchor-link${active ? ' ant-anchor-link-active' : ''}`}>
              <a
                className={`ant-anchor-link-title${active ? ' ant-anchor-link-title-active' : ''}`}
                href={s.href}
                onClick={(e) => {
                  if (!isPlainClick(e)) return;
                  e.preventDefault();
                  onGo(s.href);
                }}
              >
                <span aria-current={active ? 'location' : undefined}>{s[label]}</span>
              </a>
            </div>
          );
        })}
      </div>
    </div>
  );
}

/** antd's `<Steps>` markup for 入驻流程 (the first step current), drawn by CSS alone. */
function GuideSteps({ orientation }: { orientation: 'horizontal' | 'vertical' }) {
  return (
    <ol
      className={`ant-steps ant-steps-${orientation} ant-steps-title-horizontal ant-steps-filled settled__steps settled__steps--${orientation === 'horizontal' ? 'wide' : 'narrow'} ${ANTD_SCOPE}`}
      style={{ '--ant-cmp-steps-items-offset': 0 } as CSSProperties}
    >
      {STEPS.map((step, i) => (
        <li
          key={step.title}
          className={`ant-steps-item ${i === 0 ? 'ant-steps-item-process ant-steps-item-custom ant-steps-item-active' : 'ant-steps-item-wait ant-steps-item-custom'}`}
          aria-current={i === 0 ? 'step' : undefined}
        >
          <div className="ant-steps-item-wrapper">
            <div className="ant-steps-item-icon">{step.icon}</div>
            <div className="ant-steps-item-section">
              <div className="ant-steps-item-header">
                <div className="ant-steps-item-title">{step.title}</div>
                {i < STEPS.length - 1 && <div className="ant-steps-item-rail ant-steps-item-rail-wait" />}
              </div>
              <div className="ant-steps-item-content">{step.content}</div>
            </div>
          </div>
        </li>
      ))}
    </ol>
  );
}

const FAQ = [
  { q: '入驻平台需要收费吗？', a: '注册、认证与平台基础服务免费；部分增值应用按订阅收费，价格以应用详情为准。' },
  { q: '收不到短信验证码怎么办？', a: '请确认手机号正确且未开启短信拦截；同一手机号 60 秒内只能获取一次，每小时最多 5 次。' },
  { q: '一个企业可以有多个账号吗？', a: '可以。企业管理员认证后可在控制台为员工创建账号并分配角色与权限。' },
  { q: '认证未通过如何处理？', a: '请根据审核意见补充或更正材料后重新提交，或拨打 400-807-0807 咨询。' },
];

/**
 * antd's `<Collapse>` markup over the browser's own disclosure (`<details>`): it opens and closes
 * without script, by keyboard too, and readers announce it as expanded or collapsed.
 */
function Faq() {
  return (
    <div className={`ant-collapse ant-collapse-icon-placement-start settled__faq ${ANTD_SCOPE}`}>
      {FAQ.map(({ q, a }) => (
        <details key={q} className="ant-collapse-item">
          <summary className="ant-collapse-header">
            <div className="ant-collapse-expand-icon">
              <RightOutlined className="ant-collapse-arrow" aria-hidden="true" />
            </div>
            <span className="ant-collapse-title">{q}</span>
          </summary>
          <div className="ant-collapse-panel ant-collapse-panel-active">
            <div className="ant-collapse-body">
              <p>{a}</p>
            </div>
          </div>
        </details>
      ))}
    </div>
  );
}

/**
 * 入驻指南 (spec section 2): step 1 register and log in, step 2 enterprise certification; a sticky menu
 * highlights the section in view: beside the content on a computer, a bar under the header on a phone.
 */
export function SettledPage() {
  const showRegister = useRegisterDialog((s) => s.show);
  const config = useRuntimeConfig();
  const [current, go] = useSectionHighlight();
  return (
    <div className="settled">
      <section className="settled__hero">
        <h1>入驻指南</h1>
        <p>两步完成入驻，开启企业数字化之旅</p>
      </section>
      {/* Both menus are in the page and CSS shows one, so the server renders the same page for both. */}
      <nav className="settled__bar" aria-label="本页目录">
        <SectionMenu direction="horizontal" current={current} onGo={go} />
      </nav>
      <div className="settled__layout">
        <aside className="settled__menu" aria-label="本页目录">
          <SectionMenu direction="vertical" current={current} onGo={go} />
        </aside>
        <div className="settled__content">
          <section id="overview" className="settled__section">
            <h2>入驻流程</h2>
            {/* Both are in the page and CSS shows one (antd's narrow-screen breakpoint), so the server renders the same page for every width. */}
            <GuideSteps orientation="horizontal" />
            <GuideSteps orientation="vertical" />
          </section>
          <section id="step-1" className="settled__section">
            <h2>第一步 注册登录</h2>
            <ol>
              <li>点击页面右上角的“注册”（手机上在右上角的菜单中），或在登录页选择“没有账号？立即注册”，也可点击本页下方按钮。</li>
              <li>填写用户名、密码（6–18 位，区分大小写）与中国大陆手机号，获取并填写短信验证码；邮箱与企业名称可选填。</li>
              <li>注册成功后，使用账号（或手机号）和密码通过统一身份认证登录，一次登录即可访问平台全部应用。</li>
            </ol>
            <div className="settled__actions">
              <AntButton look="primary" className="ant-btn-lg" onClick={showRegister}>
                立即注册
              </AntButton>
              <AntButtonLink className="ant-btn-lg" href={centralLoginUrl(paths.settled.getHref(), config)}>
                已有账号，去登录
              </AntButtonLink>
            </div>
          </section>
          <section id="step-2" className="settled__section">
            <h2>第二步 企业认证</h2>
            <p>登录后进入控制台“企业信息”，提交以下材料完成企业认证，认证通过后可使用租户管理、应用订阅与标识注册等全部服务：</p>
            <ul className="settled__checklist">
              <li>
                <CheckCircleOutlined /> 企业营业执照（加盖公章的扫描件）
              </li>
              <li>
                <CheckCircleOutlined /> 统一社会信用代码与企业全称
              </li>
              <li>
                <CheckCircleOutlined /> 法定代表人或授权管理员的身份信息
              </li>
              <li>
                <CheckCircleOutlined /> 企业管理员授权书（管理员非法定代表人时提供）
              </li>
            </ul>
            <p>平台将在 1–3 个工作日内完成审核，结果通过短信和站内消息通知。</p>
            {/* The console's 企业认证; a visitor goes through the central login and comes back to it (console guard, LAST_URL). */}
            <AntButtonLink
              look="primary"
              className="ant-btn-lg"
              href={new URL(paths.enterprise.getHref('certification'), config.tenantManageUrl).href}
            >
              前往企业认证
            </AntButtonLink>
          </section>
          <section id="faq" className="settled__section">
            <h2>常见问题</h2>
            <Faq />
          </section>
        </div>
      </div>
    </div>
  );
}
