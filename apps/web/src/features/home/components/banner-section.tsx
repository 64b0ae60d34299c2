import type { HomeBlocks, LinkBlock } from '@portal/shared';
import { Button } from 'antd';
import { Link } from 'react-router';
import { Autoplay, Pagination } from 'swiper/modules';
import { Swiper, SwiperSlide } from 'swiper/react';
import { fileUrl } from '@/config/runtime-config';

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

export function BannerSection({ blocks }: { blocks: HomeBlocks | undefined }) {
  const banners = blocks?.banners ?? [];
  return (
    <section className="home-banner" aria-label="横幅">
      {banners.length > 0 && (
        <Swiper modules={[Autoplay, Pagination]} loop={banners.length > 1} autoplay={{ delay: 5000 }} pagination={{ clickable: true }}>
          {banners.map((b) => (
            <SwiperSlide key={b.title}>
              <div className="home-banner__slide" style={{ backgroundImage: `url("${fileUrl(b.icon)}")` }}>
                <div className="home-banner__text">
                  <h2>{b.title}</h2>
                  <p>{b.subtitle}</p>
                  <BlockLink block={b}>
                    <Button type="primary" size="large">
                      了解更多
                    </Button>
                  </BlockLink>
                </div>
              </div>
            </SwiperSlide>
          ))}
        </Swiper>
      )}
      <div className="home-kpis">
        {(blocks?.kpis ?? []).map((k) => (
          <div className="home-kpi" key={k.name}>
            <img src={fileUrl(k.image)} alt="" width={40} height={40} />
            <div>
              <strong>
                {k.kpi}
                <small>{k.uom}</small>
              </strong>
              <span>{k.name}</span>
            </div>
          </div>
        ))}
      </div>
    </section>
  );
}
