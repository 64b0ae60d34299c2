import type { EnterpriseProfile } from '@portal/shared';
import { Avatar, Typography } from 'antd';
import { fileUrl, useRuntimeConfig } from '@/config/runtime-config';
import { parseTime } from '@/lib/time';
import { CertificationStatusTag } from './certification-status-tag';

/** The page's head: logo, name and certification status, and the facts a visitor of the page looks for first. */
export function EnterpriseSummary({ profile }: { profile: EnterpriseProfile }) {
  const config = useRuntimeConfig();
  const facts = [
    { label: '统一社会信用代码', value: profile.creditCode },
    { label: '所属行业', value: profile.industryLabel },
    { label: '所在地区', value: profile.regionLabel },
    { label: '认证时间', value: profile.certificationStatus === 'certified' ? parseTime(profile.certifiedAt, '{y}-{m}-{d}') : '' },
  ].filter((f) => f.value);
  return (
    <section className="enterprise-summary" aria-label="企业概况">
      <div className="enterprise-summary__body">
        <Avatar
          shape="square"
          size={{ xs: 48, sm: 48, md: 64, lg: 64, xl: 64, xxl: 64 }}
          className="enterprise-summary__logo"
          src={profile.logo ? fileUrl(config, profile.logo) : undefined}
          alt=""
        >
          {[...profile.name][0] ?? '企'}
        </Avatar>
        <div className="enterprise-summary__text">
          <div className="enterprise-summary__title">
            <Typography.Title level={4}>{profile.name}</Typography.Title>
            <CertificationStatusTag status={profile.certificationStatus} />
          </div>
          {facts.length > 0 ? (
            <dl className="enterprise-summary__facts">
              {facts.map((f) => (
                <div key={f.label}>
                  <dt>{f.label}</dt>
                  <dd>{f.value}</dd>
                </div>
              ))}
            </dl>
          ) : (
            <Typography.Text type="secondary" className="enterprise-summary__empty">
              完善企业信息，便于合作伙伴与平台了解贵企业
            </Typography.Text>
          )}
        </div>
      </div>
    </section>
  );
}
