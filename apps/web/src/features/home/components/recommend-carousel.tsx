import type { RecommendItem } from '@portal/shared';
import { useRef } from 'react';
import type { Swiper as SwiperInstance } from 'swiper';
import { A11y, Autoplay, Navigation, Pagination } from 'swiper/modules';
import { Swiper, SwiperSlide } from 'swiper/react';
import 'swiper/css';
import 'swiper/css/pagination';
import { RECOMMEND_AUTOPLAY_MS, RECOMMEND_CAROUSEL_LABEL, RecommendCard } from './recommend-card';

/**
 * The recommended-application carousel (spec sections 2 and 9): 3 per view, loop, autoplay, arrows
 * and dots. Swiper loads only when the section comes near the viewport (see recommend-section.tsx).
 * The arrows sit beside the dots under the cards, not over them, where they covered the titles (issue 21).
 */
export function RecommendCarousel({ apps }: { apps: RecommendItem[] }) {
  const prev = useRef<HTMLButtonElement>(null);
  const next = useRef<HTMLButtonElement>(null);
  const dots = useRef<HTMLDivElement>(null);
  // The controls are the carousel's children, so they exist when Swiper initialises.
  const attachControls = (swiper: SwiperInstance) => {
    if (typeof swiper.params.navigation === 'object')
      Object.assign(swiper.params.navigation, { prevEl: prev.current, nextEl: next.current });
    if (typeof swiper.params.pagination === 'object') swiper.params.pagination.el = dots.current;
  };
  return (
    <Swiper
      className="home-recommend"
      modules={[A11y, Autoplay, Navigation, Pagination]}
      // Arrows and dots are named buttons a keyboard reaches; the carousel is named like its first view.
      a11y={{
        containerRole: 'group',
        containerRoleDescriptionMessage: 'carousel',
        containerMessage: RECOMMEND_CAROUSEL_LABEL,
        prevSlideMessage: '上一个',
        nextSlideMessage: '下一个',
        firstSlideMessage: '已是第一个',
        lastSlideMessage: '已是最后一个',
        paginationBulletMessage: '第 {{index}} 个应用',
        slideLabelMessage: '{{index}} / {{slidesLength}}',
      }}
      slidesPerView={1}
      spaceBetween={24}
      breakpoints={{ 640: { slidesPerView: 2 }, 992: { slidesPerView: 3 } }}
      loop
      autoplay={{ delay: RECOMMEND_AUTOPLAY_MS, disableOnInteraction: false }}
      navigation={{ prevEl: null, nextEl: null }}
      pagination={{ el: null, clickable: true }}
      onBeforeInit={attachControls}
    >
      {apps.map((app, i) => (
        <SwiperSlide key={app.applicationUuid}>
          <RecommendCard app={app} index={i} />
        </SwiperSlide>
      ))}
      <div slot="container-end" className="home-recommend__controls">
        <button ref={prev} type="button" className="home-recommend__arrow home-recommend__arrow--prev" aria-label="上一个" />
        <div ref={dots} className="home-recommend__pagination" />
        <button ref={next} type="button" className="home-recommend__arrow home-recommend__arrow--next" aria-label="下一个" />
      </div>
    </Swiper>
  );
}
