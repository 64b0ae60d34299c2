import type { RecommendItem } from '@portal/shared';
import { Autoplay, Navigation, Pagination } from 'swiper/modules';
import { Swiper, SwiperSlide } from 'swiper/react';
import 'swiper/css';
import 'swiper/css/navigation';
import 'swiper/css/pagination';
import { RECOMMEND_AUTOPLAY_MS, RecommendCard } from './recommend-card';

/**
 * The recommended-application carousel (spec sections 2 and 9): 3 per view, loop, autoplay, arrows
 * and dots. Swiper loads only when the section comes near the viewport (see recommend-section.tsx).
 */
export function RecommendCarousel({ apps }: { apps: RecommendItem[] }) {
  return (
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
          <RecommendCard app={app} index={i} />
        </SwiperSlide>
      ))}
    </Swiper>
  );
}
