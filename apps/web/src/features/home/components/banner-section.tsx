import type { HomeBlocks, KpiTile, LinkBlock } from '@portal/shared';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import '@/components/layouts/portal-button.css';
import { fileUrl, useRuntimeConfig } from '@/config/runtime-config';

/** Each banner shows 5 s, then the next (the last is followed by the first). */
export const BANNER_AUTOPLAY_MS = 5000;
/** The KPI strip reserves room for this many tiles while the home blocks load. */
const KPI_PLACEHOLDERS = 4;

/** openUrlFlag 1 opens linkUrl in a new window (spec section 3); site paths stay in the app. */
export function BlockLink({ block, className, children }: { block: LinkBlock; className?: string; children: React.ReactNode }) {
  if (block.openUrlFlag === 1) {
    return (
      <a className={className} href={block.linkUrl} target="_blank" rel="noopener noreferrer">
        {children}
      </a>
    );
  }
  if (block.linkUrl.startsWith('/')) {
    return (
      <Link className={className} to={block.linkUrl}>
        {children}
      </Link>
    );
  }
  return (
    <a className={className} href={block.linkUrl}>
      {children}
    </a>
  );
}

/**
 * The banner carousel: the slides cross-fade every 5 s, the dots choose one, hovering or focusing
 * pauses it. Its height is fixed, so the page does not move while the banners load.
 */
export function BannerCarousel({ banners }: { banners: LinkBlock[] }) {
  const config = useRuntimeConfig();
  const [active, setActive] = useState(0);
  const [paused, setPaused] = useState(false);
  const count = banners.length;
  const current = count > 0 ? active % count : 0;

  // Runs only in the browser; the first render (server and hydration) always shows the first slide.
  useEffect(() => {
    if (count < 2 || paused) return;
    const timer = window.setTimeout(() => setActive((current + 1) % count), BANNER_AUTOPLAY_MS);
    return () => window.clearTimeout(timer);
  }, [current, count, paused]);

  return (
    <div
      className="home-banner__carousel"
      role="group"
      aria-roledescription="carousel"
      aria-label="横幅轮播"
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      {banners.map((b, i) => {
        const shown = i === current;
        return (
          <div
            key={b.title}
            className={`home-banner__slide${shown ? ' is-active' : ''}`}
            style={{ backgroundImage: `url("${fileUrl(config, b.icon)}")` }}
            role="group"
            aria-roledescription="slide"
            aria-label={`${i + 1} / ${count}`}
            aria-hidden={!shown}
            inert={!shown}
          >
            <div className="home-banner__text">
              <h2>{b.title}</h2>
              <p>{b.subtitle}</p>
              <BlockLink block={b} className="portal-btn portal-btn--primary portal-btn--large">
                了解更多
              </BlockLink>
            </div>
          </div>
        );
      })}
      {count > 1 && (
        <div className="home-banner__dots">
          {banners.map((b, i) => (
            <button
              key={b.title}
              type="button"
              className={`home-banner__dot${i === current ? ' is-active' : ''}`}
              aria-label={`第 ${i + 1} 张：${b.title}`}
              aria-current={i === current}
              onClick={() => setActive(i)}
            />
          ))}
        </div>
      )}
    </div>
  );
}

function KpiTiles({ kpis }: { kpis: KpiTile[] | undefined }) {
  const config = useRuntimeConfig();
  if (kpis?.length === 0) return null;
  return (
    <div className="home-kpis">
      {kpis
        ? kpis.map((k) => (
            <div className="home-kpi" key={k.name}>
              <img src={fileUrl(config, k.image)} alt="" width={40} height={40} />
              <div>
                <strong>
                  {k.kpi}
                  <small>{k.uom}</small>
                </strong>
                <span>{k.name}</span>
              </div>
            </div>
          ))
        : // While the blocks load: tiles of the same size, so nothing below moves when they arrive.
          Array.from({ length: KPI_PLACEHOLDERS }, (_, i) => (
            <div className="home-kpi home-kpi--placeholder" key={i} aria-hidden="true">
              <span className="home-kpi__img-placeholder" />
              <div>
                <strong>&nbsp;</strong>
                <span>&nbsp;</span>
              </div>
            </div>
          ))}
    </div>
  );
}

export function BannerSection({ blocks }: { blocks: HomeBlocks | undefined }) {
  return (
    <section className="home-banner" aria-label="横幅">
      <BannerCarousel banners={blocks?.banners ?? []} />
      <KpiTiles kpis={blocks?.kpis} />
    </section>
  );
}
