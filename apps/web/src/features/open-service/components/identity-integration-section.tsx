import { Authority } from '@portal/shared';
import { Suspense } from 'react';
import { AntSkeleton } from '@/components/antd-markup';
import { lazyWithAntd } from '@/components/lazy-with-antd';
import { useRuntimeConfig } from '@/config/runtime-config';
import { useSession, useSessionKnown } from '@/hooks/use-session';
import { centralLoginUrl } from '@/lib/auth';
import { usePageUrl } from '@/lib/page-url';
import { consoleAppListUrl } from '../lib/links';

// An administrator's own applications, configurations and self-test: loaded only for them, in the
// browser, with antd and its provider (the page itself renders no antd).
const IdentityIntegration = lazyWithAntd(() => import('./identity-integration').then((m) => m.IdentityIntegration));

const TITLE = '接入我的应用';

/**
 * Tool 03's live part: an enterprise administrator (app:list) sees the enterprise's
 * applications with ready-to-copy client configuration and 接入自检; anyone else the way to it. Who
 * is signed in is known in the browser only, so the server (and the hydrating render) draw a
 * placeholder.
 */
export function IdentityIntegrationSection() {
  const sessionKnown = useSessionKnown();
  const session = useSession();
  const config = useRuntimeConfig();
  const page = usePageUrl();

  const body = () => {
    if (!sessionKnown) return <AntSkeleton title={false} rows={3} />;
    if (!session) {
      return (
        <div className="open-service__prompt">
          <p>
            以企业管理员身份登录后，这里会列出本企业在「应用列表」中登记的应用、它们的接入参数与 Java、Node.js、Python
            客户端配置，并可对每个应用一键运行接入自检。
          </p>
          <a className="portal-btn portal-btn--primary" href={centralLoginUrl(page, config)}>
            以企业管理员身份登录
          </a>
        </div>
      );
    }
    if (!session.authorities.includes(Authority.AppList)) {
      return (
        <div className="open-service__prompt">
          <p>当前账号（{session.name}）不是企业管理员，无法查看本企业应用的接入参数。请联系企业管理员，或使用企业管理员账号登录后再来。</p>
        </div>
      );
    }
    return (
      <Suspense fallback={<AntSkeleton rows={6} />}>
        <IdentityIntegration appListUrl={consoleAppListUrl(config)} />
      </Suspense>
    );
  };

  return (
    <section className="open-service__live" aria-labelledby="identity-integration-title">
      <h2 id="identity-integration-title">{TITLE}</h2>
      {body()}
    </section>
  );
}
