import { FEDERATION_DOMAIN_STATUS_LABELS, type FederationDomainStatus } from '@portal/shared';
import { Tag, Typography } from 'antd';

const COLORS: Record<FederationDomainStatus, string> = { pending: 'gold', approved: 'green', refused: 'red' };

/**
 * The saved email domains with their review by a platform operator: identity-first login sends an
 * address to the provider only once its domain is 已批准 (a new domain waits as 待审核).
 */
export function DomainReviews({ reviews }: { reviews: { domain: string; status: FederationDomainStatus }[] | undefined }) {
  if (!reviews || reviews.length === 0) return null;
  return (
    <section className="auth-sources__domain-reviews" aria-label="邮箱域名审核">
      <Typography.Text strong>邮箱域名审核</Typography.Text>
      <ul className="auth-sources__domain-review-list">
        {reviews.map((r) => (
          <li key={r.domain}>
            <Typography.Text code>{r.domain}</Typography.Text>
            <Tag color={COLORS[r.status]}>{FEDERATION_DOMAIN_STATUS_LABELS[r.status]}</Tag>
          </li>
        ))}
      </ul>
      <Typography.Text type="secondary" className="auth-sources__meta">
        新增的邮箱域名由平台运营审核，批准后登录页才会将该域名的邮箱跳转到此身份提供方；子域名需单独添加。
      </Typography.Text>
    </section>
  );
}
