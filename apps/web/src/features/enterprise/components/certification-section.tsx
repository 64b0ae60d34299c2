import { ReloadOutlined } from '@ant-design/icons';
import type { CertificationState, EnterpriseProfile } from '@portal/shared';
import { Button, Col, Grid, Result, Row, Skeleton, Steps, Typography } from 'antd';
import type { ReactNode } from 'react';
import { parseTime } from '@/lib/time';
import { useCertification } from '../api/certification';
import { reasonLabels, rejectedApplication } from '../lib/certification-form';
import { CertificationForm } from './certification-form';
import { CertificationStatusTag } from './certification-status-tag';
import { CertificationTimeline } from './certification-timeline';

const day = (time: string | null | undefined) => parseTime(time, '{y}-{m}-{d} {h}:{i}') ?? '';

/** What the status means for this reader, in the settling-in guide's words (/settled, step 2). */
function statusText(state: CertificationState, canApply: boolean): ReactNode {
  const latest = state.applications[0];
  switch (state.status) {
    case 'certified':
      return `企业已于 ${day(state.certifiedAt)} 通过认证，可使用租户管理、应用订阅与标识注册等全部服务。`;
    case 'pending':
      return `认证申请已于 ${day(latest?.submittedAt)} 提交，平台将在 1–3 个工作日内完成审核，结果通过短信和站内消息通知。审核期间不能重复提交。`;
    case 'rejected': {
      const labels = latest ? reasonLabels(latest) : [];
      return (
        <>
          认证申请未通过审核{labels.length > 0 && `（${labels.join('、')}）`}。
          {canApply ? '请根据驳回原因修改后重新提交。' : '请联系企业管理员修改后重新提交。'}
        </>
      );
    }
    default:
      return canApply
        ? '提交营业执照等材料完成企业认证，平台将在 1–3 个工作日内完成审核；认证通过后可使用应用订阅与标识注册等全部服务。'
        : '企业尚未认证，请联系企业管理员提交认证材料。认证通过后可使用应用订阅与标识注册等全部服务。';
  }
}

/** The three steps of the flow, marked at the enterprise's status. */
function StatusSteps({ state }: { state: CertificationState }) {
  // On a phone the three steps stay in one row, their titles under the icons.
  const wide = Grid.useBreakpoint().md ?? true;
  const current = { none: 0, pending: 1, rejected: 1, certified: 2 }[state.status];
  const status = state.status === 'rejected' ? 'error' : state.status === 'certified' ? 'finish' : 'process';
  return (
    <Steps
      size="small"
      responsive={false}
      titlePlacement={wide ? 'horizontal' : 'vertical'}
      current={current}
      status={status}
      className="certification-status__steps"
      items={[
        { title: '提交材料' },
        state.status === 'rejected' ? { title: '审核驳回' } : { title: '平台审核', content: '1–3 个工作日' },
        { title: '认证完成' },
      ]}
    />
  );
}

/**
 * 企业认证: the status with its steps, the submission form for enterprise:manage holders while the
 * enterprise is 未认证 or 已驳回, and 认证记录 (every application with its decision and materials).
 */
export function CertificationSection({ profile }: { profile: EnterpriseProfile }) {
  const certification = useCertification();
  const state = certification.data;
  const canApply = profile.editable;

  if (certification.isError && !state) {
    return (
      <Result
        status="warning"
        title="企业认证信息加载失败"
        extra={
          <Button type="primary" icon={<ReloadOutlined />} onClick={() => void certification.refetch()}>
            重新加载
          </Button>
        }
      />
    );
  }
  if (!state) return <Skeleton active paragraph={{ rows: 8 }} />;

  const rejected = rejectedApplication(state);
  const showForm = canApply && (state.status === 'none' || state.status === 'rejected');
  const history = (
    <section className="certification-panel certification-panel--history" aria-labelledby="certification-history-title">
      <h3 id="certification-history-title" className="certification-panel__title">
        认证记录
      </h3>
      <CertificationTimeline applications={state.applications} />
    </section>
  );

  return (
    <div className="certification-section">
      <section className={`certification-status certification-status--${state.status}`} aria-label="认证状态">
        <div className="certification-status__head">
          <Typography.Text strong>认证状态</Typography.Text>
          <CertificationStatusTag status={state.status} />
        </div>
        <p className="certification-status__text">{statusText(state, canApply)}</p>
        <StatusSteps state={state} />
      </section>
      {showForm ? (
        <Row gutter={[24, 24]}>
          <Col xs={24} xl={14}>
            <section className="certification-panel" aria-labelledby="certification-form-title">
              <h3 id="certification-form-title" className="certification-panel__title">
                {rejected ? '修改并重新提交' : '提交认证材料'}
              </h3>
              {/* A new rejection starts the form again from that application. */}
              <CertificationForm key={rejected?.id ?? 'new'} profile={profile} rejected={rejected} />
            </section>
          </Col>
          <Col xs={24} xl={10}>
            {history}
          </Col>
        </Row>
      ) : (
        history
      )}
    </div>
  );
}
