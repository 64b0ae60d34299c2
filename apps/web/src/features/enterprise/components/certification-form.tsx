import { DownloadOutlined, ExclamationCircleFilled } from '@ant-design/icons';
import {
  APPLICANT_ROLE_LABELS,
  type ApplicantRole,
  type CertificationApplication,
  CertificationMessage,
  ENTERPRISE_NAME_MAX,
  type EnterpriseProfile,
  EnterpriseRules,
  LEGAL_REPRESENTATIVE_MAX,
} from '@portal/shared';
import { Alert, Button, Checkbox, Form, Input, Radio, type FormRule } from 'antd';
import { type ReactNode, useState } from 'react';
import { tenantRule } from '@/lib/form-rules';
import { notify } from '@/lib/notify';
import { downloadAuthorizationTemplate, useSubmitCertification } from '../api/certification';
import {
  type CertificationFormField,
  type CertificationFormValues,
  certificationBody,
  certificationFieldOfMessage,
  certificationForm,
  reasonsByField,
} from '../lib/certification-form';
import { normalizeCreditCode } from '../lib/profile-form';
import { CertificationFileField } from './certification-file-field';

const ROLE_OPTIONS = (Object.keys(APPLICANT_ROLE_LABELS) as ApplicantRole[]).map((r) => ({ value: r, label: APPLICANT_ROLE_LABELS[r] }));

/** A required material or the declaration: refused with the server's message when missing. */
const present =
  (message: string): FormRule =>
  () => ({ validator: (_rule, value: unknown) => (value ? Promise.resolve() : Promise.reject(new Error(message))) });

const rules = {
  enterpriseName: [tenantRule(EnterpriseRules.name)],
  creditCode: [tenantRule(EnterpriseRules.creditCode)],
  legalRepresentative: [tenantRule(EnterpriseRules.legalRepresentative)],
  licence: [present(CertificationMessage.licenceRequired)],
  authorization: [present(CertificationMessage.authorizationRequired)],
  declaration: [present(CertificationMessage.declarationRequired)],
};

/** A rejection reason where it applies: under the field, beside the field's own hint. */
function withReasons(reasons: string[] | undefined, hint?: ReactNode): ReactNode {
  if (!reasons?.length) return hint;
  return (
    <>
      <span className="certification-form__reason">
        <ExclamationCircleFilled aria-hidden="true" /> 驳回原因：{reasons.join('；')}
      </span>
      {hint && <span className="certification-form__hint">{hint}</span>}
    </>
  );
}

/**
 * 企业认证's submission (enterprise:manage, while the enterprise is 未认证 or 已驳回). After a rejection
 * the form starts from the rejected application and shows each reason at the field it concerns, the
 * reasons about the whole application above the form.
 */
export function CertificationForm({ profile, rejected }: { profile: EnterpriseProfile; rejected?: CertificationApplication }) {
  const [form] = Form.useForm<CertificationFormValues>();
  const submit = useSubmitCertification();
  const [sending, setSending] = useState(false);
  const [downloading, setDownloading] = useState(false);
  const role = Form.useWatch('applicantRole', form) ?? certificationForm(profile, rejected).applicantRole;
  const reasons = reasonsByField(rejected);
  const general = [...(reasons.general ?? [])];

  const showProblem = (field: CertificationFormField) => (message: string) => form.setFields([{ name: field, errors: [message] }]);

  const send = async (values: CertificationFormValues) => {
    setSending(true);
    try {
      await submit.mutateAsync(certificationBody(values));
      notify.success('认证申请已提交，平台将在 1–3 个工作日内完成审核');
    } catch (err) {
      const message = err instanceof Error && err.message ? err.message : '提交失败';
      const field = certificationFieldOfMessage(message);
      if (field) showProblem(field)(message);
      else notify.error(message);
    } finally {
      setSending(false);
    }
  };

  const downloadTemplate = async () => {
    setDownloading(true);
    try {
      await downloadAuthorizationTemplate();
    } catch {
      // The API client has shown the server's message.
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Form<CertificationFormValues>
      form={form}
      name="certification"
      layout="vertical"
      autoComplete="off"
      initialValues={certificationForm(profile, rejected)}
      onFinish={(values) => void send(values)}
      className="certification-form"
    >
      {rejected && (general.length > 0 || rejected.comment) && (
        <Alert
          type="error"
          showIcon
          className="certification-form__alert"
          title={general.length > 0 ? `驳回原因：${general.join('；')}` : '审核意见'}
          description={rejected.comment || undefined}
        />
      )}
      <Form.Item
        name="enterpriseName"
        label="企业名称"
        required
        rules={rules.enterpriseName}
        extra={withReasons(reasons.enterpriseName, '与营业执照上的名称一致')}
      >
        <Input maxLength={ENTERPRISE_NAME_MAX} />
      </Form.Item>
      <Form.Item
        name="creditCode"
        label="统一社会信用代码"
        required
        rules={rules.creditCode}
        normalize={normalizeCreditCode}
        extra={withReasons(reasons.creditCode, '营业执照上的 18 位代码，字母自动转为大写')}
      >
        <Input placeholder="如 91320300MA1XXXXXXX" className="enterprise-profile__code" />
      </Form.Item>
      <Form.Item name="legalRepresentative" label="法定代表人" required rules={rules.legalRepresentative}>
        <Input maxLength={LEGAL_REPRESENTATIVE_MAX} />
      </Form.Item>
      <Form.Item
        name="applicantRole"
        label="申请人身份"
        required
        // 缺少授权书 after an application by the legal representative: the applicant was an agent.
        extra={role === 'agent' ? undefined : withReasons(reasons.authorization)}
      >
        <Radio.Group options={ROLE_OPTIONS} />
      </Form.Item>
      <Form.Item
        name="licence"
        label="营业执照"
        required
        rules={rules.licence}
        extra={withReasons(reasons.licence, '加盖公章的营业执照扫描件或照片，信息清晰完整且在有效期内')}
      >
        <CertificationFileField purpose="licence" title="营业执照" onProblem={showProblem('licence')} />
      </Form.Item>
      {role === 'agent' && (
        <>
          <Alert
            type="info"
            showIcon
            className="certification-form__alert"
            title="经办人申请须上传授权书"
            description={
              <>
                <p className="certification-form__alert-text">下载授权书模板，由法定代表人签字并加盖企业公章后，扫描或拍照上传。</p>
                <Button size="small" icon={<DownloadOutlined />} loading={downloading} onClick={() => void downloadTemplate()}>
                  下载授权书模板
                </Button>
              </>
            }
          />
          <Form.Item
            name="authorization"
            label="授权书"
            required
            rules={rules.authorization}
            extra={withReasons(reasons.authorization, '法定代表人签字并加盖公章的授权书')}
          >
            <CertificationFileField purpose="authorization" title="授权书" onProblem={showProblem('authorization')} />
          </Form.Item>
        </>
      )}
      <Form.Item name="declaration" valuePropName="checked" rules={rules.declaration} className="certification-form__declaration">
        <Checkbox>本人承诺所提交的企业信息与材料真实、合法、有效，并授权平台核验；如有虚假，愿承担由此产生的一切法律责任。</Checkbox>
      </Form.Item>
      <div className="enterprise__footer enterprise__footer--start">
        <Button type="primary" htmlType="submit" loading={sending}>
          提交认证
        </Button>
      </div>
    </Form>
  );
}
