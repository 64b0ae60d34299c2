import { AuditOutlined, CheckCircleOutlined, IdcardOutlined, LoginOutlined, UserAddOutlined } from '@ant-design/icons';
import { Anchor, Button, Collapse, Space, Steps } from 'antd';
import { useState } from 'react';
import { paths } from '@/config/paths';
import { useRuntimeConfig } from '@/config/runtime-config';
import { centralLoginUrl } from '@/lib/auth';
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
const LAST_SECTION = SECTIONS[SECTIONS.length - 1]!.href;
/**
 * Where a section's top lands after a click, and the line that decides which section is current: below
 * the fixed header (64 px) and, on phones, the section bar under it.
 */
const SECTION_OFFSET = 120;

const atPageBottom = () => window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2;

/**
 * Which section a menu highlights (antd's `getCurrentAnchor`): the one the scroll position names, or the
 * last one at the bottom of the page, which a short last section cannot reach the top of. A click names
 * its own section: antd asks at the click, while the page is still where it was (perhaps the bottom),
 * and asks again only when the page scrolls after its scroll to the section.
 */
function createSectionHighlight() {
  let clicked: string | null = null;
  let shown = '';
  return {
    click(href: string) {
      clicked = href;
    },
    current(link: string): string {
      shown = link === clicked ? link : atPageBottom() ? LAST_SECTION : link;
      clicked = null;
      return shown;
    },
    shown: () => shown,
  };
}

/** A sticky menu of the sections: a bar under the header on phones, a column beside the content on computers. */
function SectionMenu({ direction }: { direction: 'horizontal' | 'vertical' }) {
  const [highlight] = useState(createSectionHighlight);
  // antd marks the highlighted link only by a class: readers are told with aria-current.
  const [current, setCurrent] = useState('');
  const label = direction === 'horizontal' ? 'short' : 'title';
  return (
    <Anchor
      direction={direction}
      {...(direction === 'horizontal' ? { affix: false } : { offsetTop: 80 })}
      targetOffset={SECTION_OFFSET}
      getCurrentAnchor={highlight.current}
      onClick={(_e, link) => highlight.click(link.href)}
      onChange={() => setCurrent(highlight.shown())}
      items={SECTIONS.map((s) => ({
        key: s.key,
        href: s.href,
        title: <span aria-current={s.href === current ? 'location' : undefined}>{s[label]}</span>,
      }))}
    />
  );
}

/**
 * 入驻指南 (spec section 2): step 1 register and log in, step 2 enterprise certification; a sticky menu
 * highlights the section in view: beside the content on a computer, a bar under the header on a phone.
 */
export function SettledPage() {
  const showRegister = useRegisterDialog((s) => s.show);
  const config = useRuntimeConfig();
  return (
    <div className="settled">
      <section className="settled__hero">
        <h1>入驻指南</h1>
        <p>两步完成入驻，开启企业数字化之旅</p>
      </section>
      {/* Both menus are in the page and CSS shows one, so the server renders the same page for both. */}
      <nav className="settled__bar" aria-label="本页目录">
        <SectionMenu direction="horizontal" />
      </nav>
      <div className="settled__layout">
        <aside className="settled__menu" aria-label="本页目录">
          <SectionMenu direction="vertical" />
        </aside>
        <div className="settled__content">
          <section id="overview" className="settled__section">
            <h2>入驻流程</h2>
            {/* antd switches Steps to vertical on narrow screens only once in the browser, which moved
                the page after the server's render: both are in the page and CSS shows one. */}
            <Steps className="settled__steps settled__steps--wide" responsive={false} items={STEPS} />
            <Steps className="settled__steps settled__steps--narrow" responsive={false} orientation="vertical" items={STEPS} />
          </section>
          <section id="step-1" className="settled__section">
            <h2>第一步 注册登录</h2>
            <ol>
              <li>点击页面右上角的“注册”（手机上在右上角的菜单中），或在登录页选择“没有账号？立即注册”，也可点击本页下方按钮。</li>
              <li>填写用户名、密码（6–18 位，区分大小写）与中国大陆手机号，获取并填写短信验证码；邮箱与企业名称可选填。</li>
              <li>注册成功后，使用账号（或手机号）和密码通过统一身份认证登录，一次登录即可访问平台全部应用。</li>
            </ol>
            <Space size="middle" wrap>
              <Button type="primary" size="large" onClick={showRegister}>
                立即注册
              </Button>
              <Button size="large" href={centralLoginUrl(paths.settled.getHref(), config)}>
                已有账号，去登录
              </Button>
            </Space>
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
            <Button type="primary" size="large" href={new URL(paths.enterprise.getHref('certification'), config.tenantManageUrl).href}>
              前往企业认证
            </Button>
          </section>
          <section id="faq" className="settled__section">
            <h2>常见问题</h2>
            <Collapse
              items={[
                {
                  key: '1',
                  label: '入驻平台需要收费吗？',
                  children: <p>注册、认证与平台基础服务免费；部分增值应用按订阅收费，价格以应用详情为准。</p>,
                },
                {
                  key: '2',
                  label: '收不到短信验证码怎么办？',
                  children: <p>请确认手机号正确且未开启短信拦截；同一手机号 60 秒内只能获取一次，每小时最多 5 次。</p>,
                },
                {
                  key: '3',
                  label: '一个企业可以有多个账号吗？',
                  children: <p>可以。企业管理员认证后可在控制台为员工创建账号并分配角色与权限。</p>,
                },
                {
                  key: '4',
                  label: '认证未通过如何处理？',
                  children: <p>请根据审核意见补充或更正材料后重新提交，或拨打 400-807-0807 咨询。</p>,
                },
              ]}
            />
          </section>
        </div>
      </div>
    </div>
  );
}
