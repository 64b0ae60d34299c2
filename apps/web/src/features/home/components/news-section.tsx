import { RightOutlined } from '@ant-design/icons';
import { Empty } from 'antd';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { fileUrl } from '@/config/runtime-config';
import { FallbackImage } from '@/components/fallback-image';
import { useLatestNews } from '../api/home';

/** Splits `YYYY-MM-DD…` into the day and the year-month (spec section 2: date split into day and month). */
export function splitDate(publishTime: string): { day: string; month: string } {
  return { day: publishTime.slice(8, 10), month: publishTime.slice(0, 7) };
}

export function SectionHeading({ title, subtitle, more }: { title: string; subtitle: string; more?: { to: string; label: string } }) {
  return (
    <div className="home-heading">
      <div>
        <h2>{title}</h2>
        <p>{subtitle}</p>
      </div>
      {more && (
        <Link className="home-heading__more" to={more.to}>
          {more.label} <RightOutlined />
        </Link>
      )}
    </div>
  );
}

/** The first 3 published news, the first highlighted (spec section 2). */
export function NewsSection() {
  const { data: news = [] } = useLatestNews();
  const [lead, ...rest] = news;
  return (
    <section className="home-section">
      <div className="home-container">
        <SectionHeading title="新闻资讯" subtitle="掌握工业互联网最新动态" more={{ to: paths.news.getHref(), label: '更多资讯' }} />
        {!lead ? (
          <Empty description="暂无数据" />
        ) : (
          <div className="home-news">
            <a className="home-news__lead" href={paths.newsDetail.getHref(lead.uuid)} target="_blank" rel="noopener noreferrer">
              {lead.thumbnail && <FallbackImage className="home-news__lead-img" src={fileUrl(lead.thumbnail)} alt={lead.title} />}
              <div className="home-news__lead-text">
                <DateBadge publishTime={lead.publishTime} />
                <div>
                  <h3>{lead.title}</h3>
                  <p>{lead.summary}</p>
                </div>
              </div>
            </a>
            <ul className="home-news__list">
              {rest.map((item) => (
                <li key={item.uuid}>
                  <a href={paths.newsDetail.getHref(item.uuid)} target="_blank" rel="noopener noreferrer">
                    <DateBadge publishTime={item.publishTime} />
                    <div>
                      <h3>{item.title}</h3>
                      <p>{item.summary}</p>
                    </div>
                  </a>
                </li>
              ))}
            </ul>
          </div>
        )}
      </div>
    </section>
  );
}

function DateBadge({ publishTime }: { publishTime: string }) {
  const { day, month } = splitDate(publishTime);
  return (
    <time className="home-date" dateTime={publishTime.slice(0, 10)}>
      <strong>{day}</strong>
      <span>{month}</span>
    </time>
  );
}
