import { ExportOutlined } from '@ant-design/icons';
import type { MyApplication } from '@portal/shared';
import { Empty, Modal, Result, Skeleton, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { paths } from '@/config/paths';
import { fileUrl, useRuntimeConfig } from '@/config/runtime-config';
import { useIsLoggedIn, useSessionKnown } from '@/hooks/use-session';
import { centralLoginUrl } from '@/lib/auth';
import { useMyApps } from '../api/my-apps';
import '@/components/layouts/portal-button.css';
import './my-apps.css';

/** The uploaded icon, or the name's first character when there is none or it fails to load. */
function MyAppIcon({ app }: { app: MyApplication }) {
  const config = useRuntimeConfig();
  const [failed, setFailed] = useState(false);
  if (!app.icon || failed) {
    return (
      <span className="my-apps__icon my-apps__icon--letter" aria-hidden="true">
        {[...app.name][0] ?? '应'}
      </span>
    );
  }
  return <img className="my-apps__icon" src={fileUrl(config, app.icon)} alt="" loading="lazy" onError={() => setFailed(true)} />;
}

function MyAppCard({ app }: { app: MyApplication }) {
  return (
    <li className="my-apps__card">
      <div className="my-apps__head">
        <MyAppIcon app={app} />
        <div className="my-apps__title">
          <h2>{app.name}</h2>
          {app.category && <Tag color="blue">{app.category}</Tag>}
        </div>
      </div>
      <p className="my-apps__desc">{app.description || '暂无描述'}</p>
      {/* The application's own address: its CAS client sends the browser to the central login, which the SSO session completes. */}
      <a
        className="portal-btn portal-btn--primary my-apps__open"
        href={app.url}
        target="_blank"
        rel="noopener noreferrer"
        aria-label={`打开${app.name}`}
      >
        打开 <ExportOutlined />
      </a>
    </li>
  );
}

/**
 * /my-apps (我的应用): the enterprise applications the logged-in user may use, each opened
 * in a new tab through the central login. A visitor is asked to log in, as on an article's detail.
 */
export function MyAppsPage() {
  const config = useRuntimeConfig();
  const loggedIn = useIsLoggedIn();
  // Wait for the session check, so a logged-in user never sees the prompt flash.
  const sessionKnown = useSessionKnown();
  const apps = useMyApps(loggedIn);
  const loginHref = centralLoginUrl(paths.myApps.getHref(), config);

  useEffect(() => {
    if (loggedIn || !sessionKnown) return;
    const dialog = Modal.confirm({
      title: '请先登录',
      content: '登录后可查看并打开您有权使用的应用。',
      okText: '确定',
      cancelText: '取消',
      onOk: () => window.location.assign(loginHref),
    });
    return () => dialog.destroy();
  }, [loggedIn, sessionKnown, loginHref]);

  const body = () => {
    if (!loggedIn) {
      return sessionKnown ? (
        <Result
          status="403"
          title="登录后查看我的应用"
          extra={
            <a className="portal-btn portal-btn--primary" href={loginHref}>
              登录
            </a>
          }
        />
      ) : (
        <Skeleton active />
      );
    }
    if (apps.isPending) return <Skeleton active paragraph={{ rows: 4 }} />;
    if (apps.isError) {
      return (
        <Result
          status="error"
          title="应用加载失败"
          extra={
            <button type="button" className="portal-btn" onClick={() => void apps.refetch()}>
              重试
            </button>
          }
        />
      );
    }
    if (apps.data.length === 0) {
      return <Empty className="my-apps__empty" description="暂无可用的应用" />;
    }
    return (
      <ul className="my-apps__grid" aria-label="我的应用">
        {apps.data.map((app) => (
          <MyAppCard key={app.id} app={app} />
        ))}
      </ul>
    );
  };

  return (
    <div className="my-apps">
      <section className="my-apps__hero">
        <h1>我的应用</h1>
        <p>统一身份认证一次登录，即可打开下列应用</p>
      </section>
      <div className="my-apps__container">{body()}</div>
    </div>
  );
}
