import { ArrowLeftOutlined } from '@ant-design/icons';
import { Button, Result, Skeleton, Tag } from 'antd';
import { Link, useSearchParams } from 'react-router';
import { paths } from '@/config/paths';
import { fileUrl, useRuntimeConfig } from '@/config/runtime-config';
import { FallbackImage } from '@/components/fallback-image';
import { canSanitizeHtml, sanitizeHtml } from '@/lib/sanitize';
import { useApplicationDetail } from '../api/applications';
import { SubscriptionPanel } from './subscription-panel';
import './applications.css';

export { ApplicationListPage } from './application-list-page';

/**
 * /product/center/detail?uuid=: the application detail the home carousel opens by default, with
 * 申请使用 for the signed-in user's enterprise.
 */
export function ApplicationDetailPage() {
  const config = useRuntimeConfig();
  const [params] = useSearchParams();
  const uuid = params.get('uuid') ?? '';
  const { data: app, isPending, isError, refetch, isFetching } = useApplicationDetail(uuid);
  if (!uuid || app === null) {
    return <Result status="404" title="应用不存在或已下架" extra={<Link to={paths.product.getHref()}>返回应用推荐</Link>} />;
  }
  if (isError && app === undefined) {
    return (
      <Result
        status="error"
        title="应用加载失败"
        subTitle="网络或服务暂时不可用，请稍后重试。"
        extra={
          <Button type="primary" loading={isFetching} onClick={() => void refetch()}>
            重试
          </Button>
        }
      />
    );
  }
  return (
    <div className="apps__container apps-detail">
      <Link to={paths.product.getHref()} className="apps-detail__back">
        <ArrowLeftOutlined /> 返回应用推荐
      </Link>
      {isPending || !app ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : (
        <article className="apps-detail__paper">
          <FallbackImage className="apps-detail__img" src={fileUrl(config, app.imagePath)} alt={app.name} />
          <div>
            <h1>{app.name}</h1>
            <div className="apps__meta">
              <Tag color="blue">{app.category}</Tag>
              <span>提供方：{app.provider}</span>
            </div>
            <SubscriptionPanel app={{ uuid: app.applicationUuid, name: app.name }} />
            <div
              className="apps-detail__body"
              dangerouslySetInnerHTML={{ __html: canSanitizeHtml ? sanitizeHtml(app.content) : app.content }}
            />
          </div>
        </article>
      )}
    </div>
  );
}
