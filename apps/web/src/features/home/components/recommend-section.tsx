import { Empty } from 'antd';
import { Autoplay, Navigation, Pagination } from 'swiper/modules';
import { Swiper, SwiperSlide } from 'swiper/react';
import { paths } from '@/config/paths';
import { fileUrl, getRuntimeConfig } from '@/config/runtime-config';
import { useRecommendedApps } from '../api/home';
import { SectionHeading } from './news-section';

/** Spec section 9: autoplay every 3000 ms, 3 per view. */
export const RECOMMEND_AUTOPLAY_MS = 3000;
/** Spec section 2: card backgrounds cycle among three defaults. */
export const RECOMMEND_BACKGROUNDS = ['/demo/recommend-bg-1.svg', '/demo/recommend-bg-2.svg', '/demo/recommend-bg-3.svg'];

export function appCenterDetailUrl(applicationUuid: string): string {
  return `${getRuntimeConfig().appCenterUrl}/center/detail?uuid=${encodeURIComponent(applicationUuid)}`;
}

/** 应用推荐: the carousel of recommended applications (spec section 2). */
export function RecommendSection() {
  const { data: apps = [] } = useRecommendedApps();
  return (
    <section className="home-section home-section--tinted">
      <div className="home-container">
        <SectionHeading
          title="应用推荐"
          subtitle="精选工业 APP，按需订阅，开箱即用"
          more={{ to: paths.product.getHref(), label: '查看更多' }}
        />
        {apps.length === 0 ? (
          <Empty description="暂无数据" />
        ) : (
          <Swiper
            className="home-recommend"
            modules={[Autoplay, Navigation, Pagination]}
            slidesPerView={1}
            spaceBetween={24}
            breakpoints={{ 640: { slidesPerView: 2 }, 992: { slidesPerView: 3 } }}
            loop
            autoplay={{ delay: RECOMMEND_AUTOPLAY_MS, disableOnInteraction: false }}
            navigation
            pagination={{ clickable: true }}
          >
            {apps.map((app, i) => (
              <SwiperSlide key={app.applicationUuid}>
                <button
                  type="button"
                  className="home-recommend__card"
                  style={{ backgroundImage: `url("${fileUrl(RECOMMEND_BACKGROUNDS[i % RECOMMEND_BACKGROUNDS.length]!)}")` }}
                  onClick={() => window.location.assign(appCenterDetailUrl(app.applicationUuid))}
                >
                  <img src={fileUrl(app.imagePath)} alt="" className="home-recommend__img" />
                  <span className="home-recommend__name">{app.name}</span>
                  <span className="home-recommend__desc">{app.applicationDescription}</span>
                </button>
              </SwiperSlide>
            ))}
          </Swiper>
        )}
      </div>
    </section>
  );
}
