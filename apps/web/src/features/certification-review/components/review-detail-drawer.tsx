import {
  APPLICANT_ROLE_LABELS,
  type ApplicantRole,
  CERTIFICATION_STATUS_LABELS,
  type CertificationApplication,
  type CertificationReviewDetail,
  type EnterpriseProfile,
  type PrivateFileRef,
} from '@portal/shared';
import { Button, Descriptions, Drawer, Empty, Space, Tabs, Tag, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { confirmAction } from '@/components/confirm-action';
import { MaterialViewer } from '@/components/material-viewer';
import { useCertificationReview, useDecideCertification } from '../api/certification-reviews';
import { APPROVAL_BODY, reasonLabel } from '../lib/rejection';
import { APPLICATION_STATUS_COLORS, APPLICATION_STATUS_LABELS } from '../lib/review-query';
import { RejectDialog } from './reject-dialog';

const ROLE_LABELS: Record<ApplicantRole, string> = { legal: APPLICANT_ROLE_LABELS.legal, agent: '经办人（持授权书）' };
const none = <Typography.Text type="secondary">—</Typography.Text>;
const orNone = (text: string | null | undefined): ReactNode => text || none;

const statusTag = (status: CertificationApplication['status']) => (
  <Tag color={APPLICATION_STATUS_COLORS[status]}>{APPLICATION_STATUS_LABELS[status]}</Tag>
);

/** The reasons of a rejection, as their labels. */
const reasonsText = (application: CertificationApplication) => application.reasons.map(reasonLabel).join('、');

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="certification-review__section" aria-label={title}>
      <h3 className="certification-review__section-title">{title}</h3>
      {children}
    </section>
  );
}

/** What the applicant submitted beside what the enterprise's profile says now; differences are marked. */
function Comparison({ application, profile }: { application: CertificationApplication; profile: EnterpriseProfile }) {
  const rows = [
    { label: '企业名称', submitted: application.enterpriseName, current: profile.name },
    { label: '统一社会信用代码', submitted: application.creditCode, current: profile.creditCode },
    { label: '法定代表人', submitted: application.legalRepresentative, current: profile.legalRepresentative },
  ];
  return (
    <table className="certification-review__compare">
      <thead>
        <tr>
          <th scope="col">项目</th>
          <th scope="col">申请提交</th>
          <th scope="col">企业信息</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.label}>
            <th scope="row">{row.label}</th>
            <td>{orNone(row.submitted)}</td>
            <td>
              {orNone(row.current)}
              {row.submitted !== row.current && (
                <Tag color="warning" className="certification-review__mismatch">
                  不一致
                </Tag>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Decision({ application }: { application: CertificationApplication }) {
  return (
    <Descriptions size="small" bordered column={1}>
      <Descriptions.Item label="结果">{statusTag(application.status)}</Descriptions.Item>
      <Descriptions.Item label="审核人">{orNone(application.reviewerName)}</Descriptions.Item>
      <Descriptions.Item label="审核时间">{orNone(application.decidedAt)}</Descriptions.Item>
      {application.status === 'rejected' && (
        <>
          <Descriptions.Item label="驳回原因">{orNone(reasonsText(application))}</Descriptions.Item>
          <Descriptions.Item label="说明">{orNone(application.comment)}</Descriptions.Item>
        </>
      )}
    </Descriptions>
  );
}

function History({ applications }: { applications: CertificationApplication[] }) {
  if (applications.length === 0) return <Typography.Text type="secondary">无历史申请</Typography.Text>;
  return (
    <ol className="certification-review__history">
      {applications.map((a) => (
        <li key={a.id}>
          <Space size={8} wrap>
            {statusTag(a.status)}
            <span>提交于 {a.submittedAt}</span>
            {a.applicantName && <Typography.Text type="secondary">申请人 {a.applicantName}</Typography.Text>}
          </Space>
          {a.decidedAt && (
            <div className="certification-review__meta">
              {a.reviewerName || '—'} 审核于 {a.decidedAt}
            </div>
          )}
          {a.status === 'rejected' && (
            <div className="certification-review__meta">
              驳回原因：{reasonsText(a) || '—'}
              {a.comment ? `；${a.comment}` : ''}
            </div>
          )}
        </li>
      ))}
    </ol>
  );
}

function Materials({ application }: { application: CertificationApplication }) {
  const viewer = (file: PrivateFileRef | null, missing: string) =>
    file ? <MaterialViewer file={file} /> : <Empty className="certification-review__no-material" description={missing} />;
  return (
    <Tabs
      items={[
        { key: 'licence', label: '营业执照', children: viewer(application.licence, '未上传营业执照') },
        ...(application.applicantRole === 'agent' || application.authorization
          ? [{ key: 'authorization', label: '授权书', children: viewer(application.authorization, '未上传授权书') }]
          : []),
      ]}
    />
  );
}

function DetailBody({ detail }: { detail: CertificationReviewDetail }) {
  const { application, profile } = detail;
  const earlier = detail.history.filter((a) => a.id !== application.id);
  return (
    <div className="certification-review__detail">
      <div className="certification-review__facts">
        <Section title="申请信息">
          <Comparison application={application} profile={profile} />
        </Section>
        <Section title="申请人">
          <Descriptions size="small" bordered column={1}>
            <Descriptions.Item label="姓名">{orNone(application.applicantName)}</Descriptions.Item>
            <Descriptions.Item label="手机号">{orNone(detail.applicantPhone)}</Descriptions.Item>
            <Descriptions.Item label="身份">{ROLE_LABELS[application.applicantRole]}</Descriptions.Item>
            <Descriptions.Item label="提交时间">{application.submittedAt}</Descriptions.Item>
          </Descriptions>
        </Section>
        {application.status !== 'pending' && (
          <Section title="审核结果">
            <Decision application={application} />
          </Section>
        )}
        <Section title="企业信息">
          <Descriptions size="small" bordered column={1}>
            <Descriptions.Item label="认证状态">{CERTIFICATION_STATUS_LABELS[profile.certificationStatus]}</Descriptions.Item>
            <Descriptions.Item label="注册地址">{orNone(profile.address)}</Descriptions.Item>
            <Descriptions.Item label="所属行业">{orNone(profile.industryLabel)}</Descriptions.Item>
            <Descriptions.Item label="所在地区">{orNone(profile.regionLabel)}</Descriptions.Item>
            <Descriptions.Item label="联系人">{orNone(profile.contactName)}</Descriptions.Item>
            <Descriptions.Item label="联系电话">{orNone(profile.contactPhone)}</Descriptions.Item>
          </Descriptions>
        </Section>
        <Section title={`历史申请（${earlier.length}）`}>
          <History applications={earlier} />
        </Section>
      </div>
      <div className="certification-review__materials">
        <Section title="认证材料">
          <Materials application={application} />
        </Section>
      </div>
    </div>
  );
}

/**
 * 审核 / 查看 one application: the submitted fields beside the enterprise's profile, the
 * applicant, earlier applications and the materials in a viewer; 通过 or 驳回 while it is pending.
 * A drawer on a desktop, the whole screen on a phone.
 */
export function ReviewDetailDrawer({ id, onClose }: { id: number | null; onClose(): void }) {
  const detail = useCertificationReview(id);
  const decide = useDecideCertification();
  const [rejecting, setRejecting] = useState(false);
  const application = detail.data?.application;
  const pending = application?.status === 'pending';

  const approve = (target: CertificationApplication) =>
    confirmAction({
      title: '通过认证',
      content: `确定通过「${target.enterpriseName}」的企业认证吗？通过后该企业成为已认证企业，申请人将收到消息和短信通知。`,
      okText: '通过',
      run: () => decide.mutateAsync({ id: target.id, body: APPROVAL_BODY }),
    });

  return (
    <Drawer
      title={
        <Space size={8} wrap>
          <span>{application ? `认证审核：${application.enterpriseName}` : '认证审核'}</span>
          {application && statusTag(application.status)}
        </Space>
      }
      open={id !== null}
      size="min(1200px, 100vw)"
      onClose={onClose}
      destroyOnHidden
      loading={detail.isPending && id !== null}
      className="certification-review__drawer"
      footer={
        application && pending ? (
          <div className="certification-review__decision">
            <Button danger onClick={() => setRejecting(true)}>
              驳回
            </Button>
            <Button type="primary" onClick={() => approve(application)}>
              通过
            </Button>
          </div>
        ) : null
      }
    >
      {detail.data ? (
        <DetailBody detail={detail.data} />
      ) : detail.isError ? (
        <Empty description={detail.error.message || '认证申请加载失败'} />
      ) : null}
      <RejectDialog application={rejecting && application ? application : null} onClose={() => setRejecting(false)} />
    </Drawer>
  );
}
