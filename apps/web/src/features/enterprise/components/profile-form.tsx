import {
  ADDRESS_MAX,
  CONTACT_NAME_MAX,
  type CertificationStatus,
  ENTERPRISE_NAME_MAX,
  type EnterpriseProfile,
  EnterpriseMessage,
  INTRODUCTION_MAX,
  LEGAL_REPRESENTATIVE_MAX,
} from '@portal/shared';
import { Button, Cascader, Col, Form, Input, Row } from 'antd';
import { useState } from 'react';
import { ImageUpload } from '@/components/image-upload';
import { notify } from '@/lib/notify';
import { useRegions, useSaveEnterpriseProfile } from '../api/enterprise-profile';
import {
  INDUSTRY_OPTIONS,
  type ProfileFormValues,
  normalizeCreditCode,
  profileBody,
  profileFieldOfMessage,
  profileForm,
  profileRules,
} from '../lib/profile-form';

/** The cascaders' popups fit a phone's width (their long 大类 names wrap). */
const CASCADER_CLASSES = { popup: { root: 'enterprise-cascader' } };

/** Why 企业名称 and 统一社会信用代码 cannot be edited here. */
function lockedHint(status: CertificationStatus): string {
  return status === 'pending'
    ? `${EnterpriseMessage.certifiedFieldsLocked}（审核中）`
    : `${EnterpriseMessage.certifiedFieldsLocked}；如需变更，请联系平台客服`;
}

/**
 * 基本信息's edit form (enterprise:manage). The shared rules check every field before sending, the
 * server checks again and its refusal shows under the field it names; the name and the credit code
 * are locked while they are under review or certified.
 */
export function ProfileForm({ profile, onDone }: { profile: EnterpriseProfile; onDone(): void }) {
  const [form] = Form.useForm<ProfileFormValues>();
  const regions = useRegions();
  const save = useSaveEnterpriseProfile();
  const [saving, setSaving] = useState(false);
  const locked = profile.certifiedFieldsLocked;

  const submit = async (values: ProfileFormValues) => {
    setSaving(true);
    try {
      notify.success(await save.mutateAsync(profileBody(values)));
      onDone();
    } catch (err) {
      const message = err instanceof Error && err.message ? err.message : '保存失败';
      const field = profileFieldOfMessage(message);
      if (field) form.setFields([{ name: field, errors: [message] }]);
      else notify.error(message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Form<ProfileFormValues>
      form={form}
      name="enterprise-profile"
      layout="vertical"
      autoComplete="off"
      initialValues={profileForm(profile, regions.data)}
      onFinish={(values) => void submit(values)}
      className="enterprise-profile__form"
    >
      <Row gutter={24}>
        <Col xs={24} lg={12}>
          <Form.Item
            name="name"
            label="企业名称"
            required
            rules={locked ? [] : profileRules.name}
            extra={locked ? lockedHint(profile.certificationStatus) : undefined}
          >
            <Input maxLength={ENTERPRISE_NAME_MAX} disabled={locked} />
          </Form.Item>
        </Col>
        <Col xs={24} lg={12}>
          <Form.Item
            name="creditCode"
            label="统一社会信用代码"
            rules={locked ? [] : profileRules.creditCode}
            normalize={normalizeCreditCode}
            extra={locked ? lockedHint(profile.certificationStatus) : '18 位，字母自动转为大写；申请企业认证时必填'}
          >
            <Input disabled={locked} placeholder="如 91320300MA1XXXXXXX" className="enterprise-profile__code" />
          </Form.Item>
        </Col>
        <Col xs={24} lg={12}>
          <Form.Item name="legalRepresentative" label="法定代表人" required rules={profileRules.legalRepresentative}>
            <Input maxLength={LEGAL_REPRESENTATIVE_MAX} />
          </Form.Item>
        </Col>
        <Col xs={24} lg={12}>
          <Form.Item name="industry" label="所属行业" rules={profileRules.industry} extra="国民经济行业分类（GB/T 4754）门类与大类">
            <Cascader options={INDUSTRY_OPTIONS} placeholder="请选择门类 / 大类" showSearch classNames={CASCADER_CLASSES} />
          </Form.Item>
        </Col>
        <Col xs={24} lg={12}>
          <Form.Item name="region" label="所在地区">
            <Cascader
              options={regions.data ?? []}
              fieldNames={{ label: 'name', value: 'code', children: 'children' }}
              loading={regions.isPending}
              placeholder="请选择省 / 市"
              showSearch
              classNames={CASCADER_CLASSES}
            />
          </Form.Item>
        </Col>
        <Col xs={24} lg={12}>
          <Form.Item name="address" label="注册地址" rules={profileRules.address}>
            <Input maxLength={ADDRESS_MAX} />
          </Form.Item>
        </Col>
        <Col xs={24} lg={12}>
          <Form.Item name="contactName" label="联系人" rules={profileRules.contactName}>
            <Input maxLength={CONTACT_NAME_MAX} />
          </Form.Item>
        </Col>
        <Col xs={24} lg={12}>
          <Form.Item
            name="contactPhone"
            label="联系电话"
            rules={profileRules.contactPhone}
            extra="手机号或带区号的固定电话，如 0516-87654321"
          >
            <Input inputMode="tel" maxLength={24} />
          </Form.Item>
        </Col>
        <Col xs={24}>
          <Form.Item name="introduction" label="企业简介" rules={profileRules.introduction}>
            <Input.TextArea maxLength={INTRODUCTION_MAX} showCount autoSize={{ minRows: 3, maxRows: 8 }} />
          </Form.Item>
        </Col>
        <Col xs={24}>
          <Form.Item name="logo" label="企业 Logo">
            <ImageUpload hint="方形图片，显示在企业信息中；PNG、JPEG、GIF 或 WebP，不超过 5 MB" />
          </Form.Item>
        </Col>
      </Row>
      <div className="enterprise__footer">
        <Button onClick={onDone}>取消</Button>
        <Button type="primary" htmlType="submit" loading={saving}>
          保存
        </Button>
      </div>
    </Form>
  );
}
