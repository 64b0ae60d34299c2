import { ArrowLeftOutlined } from '@ant-design/icons';
import { Button, Empty, Result, Segmented, Skeleton, Tag } from 'antd';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { paths } from '@/config/paths';
import { fileUrl, useRuntimeConfig } from '@/config/runtime-config';
import { FallbackImage } from '@/components/fallback-image';
import { canSanitizeHtml, sanitizeHtml } from '@/lib/sanitize';
import { useApplicationDetail, useApplications } from '../api/applications';
import { SubscriptionPanel } from './subscription-panel';
import './applications.css';

const ALL = '全部';

/** /product: the application center's list (the header's 应用推荐, the carousel's 查看更多). */
export function ApplicationListPage() {
  const config = useRuntimeConfig();
  const { data: apps = [], isPending } = useApplications();
  const [category, setCategory] = useState(ALL);
  const categories = [ALL, ...new Set(apps.map((a) => a.category))];
  const shown = category === ALL ? apps : apps.filter((a) => a.category === category);
  return (
    <div className="apps">
      <section className="apps__hero">
        <h1>应用推荐</h1>
        <p>精选工业 APP，覆盖设备管理、运维服务、数据分析与标识解析</p>
      </section>
      <div className="apps__container">
        <Segmented className="apps__filter" options={categories} value={category} onChange={(v) => setCategory(String(v))} />
        {isPending ? (
          <Skeleton active />
        ) : shown.length === 0 ? (
          <Empty description="暂无数据" />
        ) : (
          <ul className="apps__grid" aria-label="应用">
            {shown.map((app) => (
              <li key={app.applicationUuid}>
                <Link className="apps__card" to={paths.productDetail.getHref(app.applicationUuid)}>
                  <FallbackImage className="apps__img" src={fileUrl(config, app.imagePath)} alt={app.name} />
                  <div className="apps__body">
                    <strong>{app.name}</strong>
                    <p>{app.applicationDescription}</p>
                    <div className="apps__meta">
                      <Tag color="blue">{app.category}</Tag>
                      <span>{app.provider}</span>
                    </div>
                  </div>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

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
