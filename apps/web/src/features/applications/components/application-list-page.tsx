import { useState } from 'react';
import { Link } from 'react-router';
import { AntEmpty, AntSegmented, AntSkeleton, AntTag } from '@/components/antd-markup';
import { FallbackImage } from '@/components/fallback-image';
import { paths } from '@/config/paths';
import { fileUrl, useRuntimeConfig } from '@/config/runtime-config';
import { useApplications } from '../api/applications';
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
        <AntSegmented className="apps__filter" label="应用分类" options={categories} value={category} onChange={setCategory} />
        {isPending ? (
          <AntSkeleton />
        ) : shown.length === 0 ? (
          <AntEmpty description="暂无数据" />
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
                      <AntTag>{app.category}</AntTag>
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
