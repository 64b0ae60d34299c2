import { SafetyCertificateOutlined } from '@ant-design/icons';
import { Authority, CERTIFICATION_STATUS_LABELS, type CertificationStatus } from '@portal/shared';
import { useQuery } from '@tanstack/react-query';
import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';
import { getMenusQueryOptions } from '@/api/get-menus';
import { ConsolePage } from '@/components/console-page';
import { usePermission } from '@/components/permission';

/** 企业信息's 企业认证 tab. */
export const CERTIFICATION_HREF = '/console/enterprise?tab=certification';

export const CLOSED_TITLE = '企业认证通过后开放标识管理';

const HINTS: Record<CertificationStatus, string> = {
  none: '当前企业未认证。请先提交企业认证材料，审核通过后即可管理标识前缀、模板和标识记录。',
  pending: '当前企业认证待审核，审核一般需要 1–3 个工作日，通过后即可使用。',
  rejected: '当前企业认证已驳回。请按驳回原因修改材料后重新提交认证。',
  // The session said certified but the server refused: its status has changed since the console opened.
  certified: '企业认证状态已变化，请刷新页面后重试。',
};

/**
 * What an identifier page shows to an enterprise that is not certified, instead of its tables:
 * why, the status, and the way to 企业认证 for those who may open 企业信息.
 */
export function CertificationRequired({ status }: { status: CertificationStatus }) {
  // The session is read once when the console opens; an approval since then opens the page on this visit.
  useQuery({ ...getMenusQueryOptions(), refetchOnMount: 'always' });
  const navigate = useNavigate();
  const canOpenEnterprise = usePermission()([Authority.Enterprise]);
  return (
    <ConsolePage className="identifier-admin">
      <Result
        icon={<SafetyCertificateOutlined />}
        status="info"
        title={CLOSED_TITLE}
        subTitle={
          <>
            {status !== 'certified' && <p>认证状态：{CERTIFICATION_STATUS_LABELS[status]}</p>}
            <p>{HINTS[status]}</p>
            {!canOpenEnterprise && <p>请联系本企业管理员完成企业认证。</p>}
          </>
        }
        extra={
          canOpenEnterprise && (
            <Button type="primary" onClick={() => void navigate(CERTIFICATION_HREF)}>
              去认证
            </Button>
          )
        }
      />
    </ConsolePage>
  );
}
