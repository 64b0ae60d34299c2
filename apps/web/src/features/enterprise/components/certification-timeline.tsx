import { CheckCircleFilled, ClockCircleOutlined, CloseCircleFilled, FileTextOutlined } from '@ant-design/icons';
import { APPLICANT_ROLE_LABELS, type CertificationApplication, type PrivateFileRef } from '@portal/shared';
import { Button, Empty, Tag, Timeline, type TimelineItemProps } from 'antd';
import { parseTime } from '@/lib/time';
import { reasonLabels } from '../lib/certification-form';
import { viewFile } from './certification-file-field';

/** The applicant's role without the upload hint of the form's label (经办人（需上传授权书） → 经办人). */
const roleName = (app: CertificationApplication) => APPLICANT_ROLE_LABELS[app.applicantRole].replace(/（.*）$/, '');

function Material({ title, file }: { title: string; file: PrivateFileRef }) {
  return (
    <li className="certification-timeline__file">
      <FileTextOutlined aria-hidden="true" />
      <span className="certification-timeline__file-name" title={file.name}>
        {title}：{file.name}
      </span>
      <Button type="link" size="small" onClick={() => viewFile(file)} aria-label={`查看${title} ${file.name}`}>
        查看
      </Button>
    </li>
  );
}

function submittedItem(app: CertificationApplication): TimelineItemProps {
  return {
    key: `${app.id}-submitted`,
    color: 'blue',
    content: (
      <div className="certification-timeline__event">
        <div className="certification-timeline__head">
          <strong>提交认证申请</strong>
          <time>{parseTime(app.submittedAt, '{y}-{m}-{d} {h}:{i}')}</time>
        </div>
        <p className="certification-timeline__meta">
          申请人 {app.applicantName || '—'}（{roleName(app)}）
        </p>
        <dl className="certification-timeline__facts">
          <div>
            <dt>企业名称</dt>
            <dd>{app.enterpriseName}</dd>
          </div>
          <div>
            <dt>统一社会信用代码</dt>
            <dd>{app.creditCode}</dd>
          </div>
          <div>
            <dt>法定代表人</dt>
            <dd>{app.legalRepresentative}</dd>
          </div>
        </dl>
        {(app.licence || app.authorization) && (
          <ul className="certification-timeline__files" aria-label="申请材料">
            {app.licence && <Material title="营业执照" file={app.licence} />}
            {app.authorization && <Material title="授权书" file={app.authorization} />}
          </ul>
        )}
      </div>
    ),
  };
}

function decidedItem(app: CertificationApplication): TimelineItemProps {
  const approved = app.status === 'approved';
  const labels = reasonLabels(app);
  return {
    key: `${app.id}-decided`,
    color: approved ? 'green' : 'red',
    icon: approved ? <CheckCircleFilled /> : <CloseCircleFilled />,
    content: (
      <div className="certification-timeline__event">
        <div className="certification-timeline__head">
          <strong>{approved ? '审核通过' : '审核驳回'}</strong>
          <time>{parseTime(app.decidedAt, '{y}-{m}-{d} {h}:{i}')}</time>
        </div>
        <p className="certification-timeline__meta">审核人 {app.reviewerName || '—'}</p>
        {labels.length > 0 && (
          <div className="certification-timeline__reasons">
            <span>驳回原因：</span>
            {labels.map((label) => (
              <Tag key={label} color="error" variant="outlined">
                {label}
              </Tag>
            ))}
          </div>
        )}
        {app.comment && <p className="certification-timeline__comment">审核意见：{app.comment}</p>}
      </div>
    ),
  };
}

function pendingItem(app: CertificationApplication): TimelineItemProps {
  return {
    key: `${app.id}-pending`,
    color: 'gray',
    icon: <ClockCircleOutlined />,
    content: (
      <div className="certification-timeline__event">
        <div className="certification-timeline__head">
          <strong>等待平台审核</strong>
        </div>
        <p className="certification-timeline__meta">平台将在 1–3 个工作日内完成审核，结果通过短信和站内消息通知</p>
      </div>
    ),
  };
}

/** 认证记录: every application, newest first, each with its decision above its submission. */
export function CertificationTimeline({ applications }: { applications: readonly CertificationApplication[] }) {
  if (applications.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无认证记录" />;
  const items = applications.flatMap((app) => [app.status === 'pending' ? pendingItem(app) : decidedItem(app), submittedItem(app)]);
  return <Timeline className="certification-timeline" items={items} />;
}
