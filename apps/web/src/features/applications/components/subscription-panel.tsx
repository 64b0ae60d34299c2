import { Authority, type MyAppSubscription } from '@portal/shared';
import { Button, ConfigProvider, Skeleton, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { SubscriptionStatusTag } from '@/components/subscription-status-tag';
import { paths } from '@/config/paths';
import { useRuntimeConfig } from '@/config/runtime-config';
import { theme } from '@/config/theme';
import { type Session, useSession, useSessionKnown } from '@/hooks/use-session';
import { centralLoginUrl } from '@/lib/auth';
import { useMySubscription } from '../api/subscription';
import { dayOf } from '../lib/subscription';
import { ApplyDialog } from './apply-dialog';

interface PanelApp {
  uuid: string;
  name: string;
}

/** The panel's frame: the state (a button or a tag) and what it means, then what the user can do next. */
function Panel({ status, text, children }: { status: ReactNode; text: ReactNode; children?: ReactNode }) {
  return (
    <section className="apps-subscribe" aria-label="申请使用">
      <div className="apps-subscribe__status">{status}</div>
      <div className="apps-subscribe__text">{text}</div>
      {children && <div className="apps-subscribe__actions">{children}</div>}
    </section>
  );
}

/** A console page as an address of the console (its own app, reached through the configured address). */
function useConsoleHref() {
  const config = useRuntimeConfig();
  return (path: string) => new URL(path, config.tenantManageUrl).href;
}

/** For an enterprise that is not certified yet, the way to 企业认证 (certification opens subscriptions). */
function CertificationLink({ session }: { session: Session }) {
  const consoleHref = useConsoleHref();
  const uncertified = session.enterpriseId !== null && session.certificationStatus !== 'certified';
  if (!uncertified || !session.authorities.includes(Authority.Enterprise)) return null;
  return (
    <Button type="link" href={consoleHref(paths.enterprise.getHref('certification'))}>
      前往企业认证
    </Button>
  );
}

/** Why the user cannot apply, as the server says (非管理员, 未认证…). */
const blocked = (reason: string) => <Typography.Text type="secondary">{reason || '当前账号不能申请使用此应用'}</Typography.Text>;

function SubscribedPanel({ subscription, session }: { subscription: MyAppSubscription; session: Session }) {
  const consoleHref = useConsoleHref();
  const day = subscription.decidedAt ? `已于 ${dayOf(subscription.decidedAt)} ` : '已';
  const canAuthorize = session.authorities.includes(Authority.AppAuthorization);
  return (
    <Panel
      status={<SubscriptionStatusTag status="approved" />}
      text={
        <>
          <p>贵企业{day}订阅此应用，它已在控制台的「应用列表」中。</p>
          {canAuthorize ? (
            <p>在「应用授权」中选择可以使用它的员工，员工即可通过统一身份认证登录。</p>
          ) : (
            <p>
              如需使用，请联系企业管理员为您授权；授权后可在<Link to={paths.myApps.getHref()}>「我的应用」</Link>中打开。
            </p>
          )}
        </>
      }
    >
      {canAuthorize && (
        <>
          <Button type="primary" href={consoleHref(paths.appAuthorization.getHref())}>
            前往应用授权
          </Button>
          {session.authorities.includes(Authority.AppList) && <Button href={consoleHref(paths.appList.getHref())}>查看应用列表</Button>}
        </>
      )}
    </Panel>
  );
}

/**
 * 申请使用 on an application's detail: only the browser shows it (it is the signed-in
 * user's), so its antd parts (the dialog, its form) generate their styles instead of relying on the
 * public pages' build-time stylesheet.
 */
export function SubscriptionPanel({ app }: { app: PanelApp }) {
  return (
    <ConfigProvider theme={theme}>
      <SubscriptionState app={app} />
    </ConfigProvider>
  );
}

/**
 * What the panel shows: a visitor is offered the central login; a signed-in user sees the enterprise's subscription: none yet (申请使用, or why they cannot), 待审核, 已订阅
 * (with the way to 应用授权), or 已驳回 / 已撤销 with the operator's note and 重新申请.
 */
function SubscriptionState({ app }: { app: PanelApp }) {
  const config = useRuntimeConfig();
  const session = useSession();
  // Wait for the session check, so a signed-in user never sees the visitor's button flash.
  const sessionKnown = useSessionKnown();
  const subscription = useMySubscription(app.uuid, session !== null);
  const [applying, setApplying] = useState(false);

  if (!session) {
    if (!sessionKnown) return <Skeleton.Button active size="large" />;
    return (
      <Panel
        status={
          <Button type="primary" size="large" href={centralLoginUrl(paths.productDetail.getHref(app.uuid), config)}>
            登录后申请
          </Button>
        }
        text={<Typography.Text type="secondary">企业管理员登录后，可为本企业申请使用此应用。</Typography.Text>}
      />
    );
  }
  if (subscription.isPending) return <Skeleton.Button active size="large" />;
  if (subscription.isError) {
    return (
      <Panel
        status={
          <Button size="large" onClick={() => void subscription.refetch()}>
            重试
          </Button>
        }
        text={<Typography.Text type="secondary">订阅状态加载失败</Typography.Text>}
      />
    );
  }

  const current = subscription.data;
  const applyButton = (label: string) =>
    current.canApply ? (
      <Button type="primary" size="large" onClick={() => setApplying(true)}>
        {label}
      </Button>
    ) : (
      <Button size="large" disabled>
        {label}
      </Button>
    );
  const dialog = <ApplyDialog app={app} open={applying} onClose={() => setApplying(false)} />;

  switch (current.status) {
    case 'approved':
      return <SubscribedPanel subscription={current} session={session} />;
    case 'pending':
      return (
        <Panel
          status={
            <Button size="large" disabled>
              待审核
            </Button>
          }
          text={
            <Typography.Text type="secondary">
              {current.createdAt ? `已于 ${dayOf(current.createdAt)} 提交申请，` : '申请已提交，'}平台审核后将通知企业管理员。
            </Typography.Text>
          }
        />
      );
    case 'rejected':
    case 'revoked': {
      const what = current.status === 'rejected' ? '驳回了申请' : '撤销了订阅';
      const text = (
        <>
          <p>{current.decidedAt ? `平台已于 ${dayOf(current.decidedAt)} ${what}。` : `平台${what}。`}</p>
          {current.decisionNote && <p className="apps-subscribe__note">原因：{current.decisionNote}</p>}
          {!current.canApply && blocked(current.blockedReason)}
        </>
      );
      return (
        <>
          <Panel status={<SubscriptionStatusTag status={current.status} />} text={text}>
            {applyButton('重新申请')}
            {!current.canApply && <CertificationLink session={session} />}
          </Panel>
          {dialog}
        </>
      );
    }
    default:
      if (!current.canApply) {
        return (
          <Panel status={applyButton('申请使用')} text={blocked(current.blockedReason)}>
            <CertificationLink session={session} />
          </Panel>
        );
      }
      return (
        <>
          <Panel
            status={applyButton('申请使用')}
            text={<Typography.Text type="secondary">提交申请，平台审核通过后即可为本企业员工开通。</Typography.Text>}
          />
          {dialog}
        </>
      );
  }
}
