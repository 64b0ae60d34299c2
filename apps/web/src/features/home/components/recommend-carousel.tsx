import type { RecommendItem } from '@portal/shared';
import { A11y, Autoplay, Navigation, Pagination } from 'swiper/modules';
import { Swiper, SwiperSlide } from 'swiper/react';
import 'swiper/css';
import 'swiper/css/pagination';
import { RECOMMEND_AUTOPLAY_MS, RECOMMEND_CAROUSEL_LABEL, RecommendCard } from './recommend-card';

const PREV = 'home-recommend__arrow--prev';
const NEXT = 'home-recommend__arrow--next';
const DOTS = 'home-recommend__pagination';

/**
 * The recommended-application carousel (spec sections 2 and 9): 3 per view, loop, autoplay, arrows
 * and dots. Swiper loads only when the section comes near the viewport (see recommend-section.tsx).
 * The arrows sit beside the dots under the cards, not over them, where they covered the titles.
 */
export function RecommendCarousel({ apps }: { apps: RecommendItem[] }) {
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
      // Selectors, not elements set before init: a breakpoint (the phone's one slide) starts again from
      // these parameters, and elements put on the live ones were lost there (no dots on a phone).
      navigation={{ prevEl: `.${PREV}`, nextEl: `.${NEXT}` }}
      pagination={{ el: `.${DOTS}`, clickable: true }}
    >
      {apps.map((app, i) => (
        <SwiperSlide key={app.applicationUuid}>
          <RecommendCard app={app} index={i} />
        </SwiperSlide>
      ))}
      <div slot="container-end" className="home-recommend__controls">
        <button type="button" className={`home-recommend__arrow ${PREV}`} aria-label="上一个" />
        <div className={DOTS} />
        <button type="button" className={`home-recommend__arrow ${NEXT}`} aria-label="下一个" />
      </div>
    </Swiper>
  );
}
