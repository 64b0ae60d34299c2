import { Authority, type CertificationStatus } from '@portal/shared';
import { Alert } from 'antd';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { useSession } from '@/hooks/use-session';
import './certification-banner.css';

type Uncertified = Exclude<CertificationStatus, 'certified'>;

const TITLES: Record<Uncertified, string> = {
  none: '企业尚未完成认证',
  pending: '企业认证审核中',
  rejected: '企业认证被驳回',
};

function description(status: Uncertified, canApply: boolean): string {
  if (status === 'pending') return '平台将在 1–3 个工作日内完成审核，结果通过短信和站内消息通知；认证通过前，标识管理与应用订阅暂不可用。';
  const who = canApply ? '请' : '请联系企业管理员';
  if (status === 'rejected') return `${who}根据驳回原因修改材料后重新提交；认证通过前，标识管理与应用订阅暂不可用。`;
  return `${canApply ? '' : '请联系企业管理员'}提交营业执照等材料完成认证后，即可使用标识管理与应用订阅等全部服务。`;
}

/**
 * 企业认证: every member of an uncertified enterprise sees, above each console page, that it is not
 * certified yet (or under review, or rejected), with a link to 企业认证 for those who may open it. Not on
 * 企业信息 itself, which shows the status in full. The status is the session's (the menus answer).
 */
export function CertificationBanner({ pathname }: { pathname: string }) {
  const session = useSession();
  if (!session || session.enterpriseId === null) return null;
  const status = session.certificationStatus;
  if (status === 'certified' || pathname === paths.enterprise.path) return null;
  const canOpen = session.authorities.includes(Authority.Enterprise);
  const canApply = session.authorities.includes(Authority.EnterpriseManage);
  return (
    <Alert
      banner
      showIcon
      type={status === 'pending' ? 'info' : status === 'rejected' ? 'error' : 'warning'}
      className="console-certification-banner"
      title={TITLES[status]}
      description={description(status, canApply)}
      action={
        canOpen ? (
          <Link to={paths.enterprise.getHref('certification')} className="console-certification-banner__link">
            {status === 'pending' ? '查看进度' : '去认证'}
          </Link>
        ) : undefined
      }
    />
  );
}
