import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { fileUrl, useRuntimeConfig } from '@/config/runtime-config';
import { FallbackImage } from '@/components/fallback-image';
import { HomeIcon } from './home-icon';
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
          {more.label} <HomeIcon name="right" />
        </Link>
      )}
    </div>
  );
}

/** 暂无数据: a section with nothing to show (antd's simple empty image, without loading antd's Empty). */
export function HomeEmpty() {
  return (
    <div className="home-empty" role="status">
      <svg width="64" height="41" viewBox="0 0 64 41" aria-hidden="true">
        <g transform="translate(0 1)" fill="none" fillRule="evenodd">
          <ellipse fill="#f5f5f5" cx="32" cy="33" rx="32" ry="7" />
          <g fillRule="nonzero" stroke="#d9d9d9">
            <path d="M55 12.76L44.854 1.258C44.367.474 43.656 0 42.907 0H21.093c-.749 0-1.46.474-1.947 1.257L9 12.761V22h46v-9.24z" />
            <path
              d="M41.613 15.931c0-1.605.994-2.93 2.227-2.931H55v18.137C55 33.26 53.68 35 52.05 35h-40.1C10.32 35 9 33.259 9 31.137V13h11.16c1.233 0 2.227 1.323 2.227 2.928v.022c0 1.605 1.005 2.901 2.237 2.901h14.752c1.232 0 2.237-1.308 2.237-2.913v-.007z"
              fill="#fafafa"
            />
          </g>
        </g>
      </svg>
      <p>暂无数据</p>
    </div>
  );
}

/** The first 3 published news, the first highlighted (spec section 2). */
export function NewsSection() {
  const { data: news } = useLatestNews();
  const config = useRuntimeConfig();
  const [lead, ...rest] = news ?? [];
  return (
    <section className="home-section" aria-label="新闻资讯">
      <div className="home-container">
        <SectionHeading title="新闻资讯" subtitle="掌握工业互联网最新动态" more={{ to: paths.news.getHref(), label: '更多资讯' }} />
        {!news ? (
          <NewsPlaceholder />
        ) : !lead ? (
          <HomeEmpty />
        ) : (
          <div className="home-news">
            <a className="home-news__lead" href={paths.newsDetail.getHref(lead.uuid)} target="_blank" rel="noopener noreferrer">
              {lead.thumbnail && <FallbackImage className="home-news__lead-img" src={fileUrl(config, lead.thumbnail)} alt={lead.title} />}
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

/** While the news load: the lead and two list items at their final sizes, so nothing below moves. */
function NewsPlaceholder() {
  return (
    <div className="home-news home-news--placeholder" aria-busy="true">
      <div className="home-news__lead" />
      <ul className="home-news__list">
        {[0, 1].map((i) => (
          <li key={i}>
            <div className="home-news__item-placeholder">
              <span className="home-date" />
              <div>
                <span className="home-placeholder-line home-placeholder-line--title" />
                <span className="home-placeholder-line" />
                <span className="home-placeholder-line home-placeholder-line--short" />
              </div>
            </div>
          </li>
        ))}
      </ul>
    </div>
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
