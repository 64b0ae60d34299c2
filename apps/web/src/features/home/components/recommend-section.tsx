import type { RecommendItem } from '@portal/shared';
import { useEffect, useState } from 'react';
import { useNearViewport } from '@/components/layouts/use-near-viewport';
import { paths } from '@/config/paths';
import { useRecommendedApps } from '../api/home';
import { HomeEmpty, SectionHeading } from './news-section';
import { RECOMMEND_CAROUSEL_LABEL, RecommendCard } from './recommend-card';
import type * as RecommendCarouselModule from './recommend-carousel';

export { RECOMMEND_AUTOPLAY_MS, RECOMMEND_BACKGROUNDS, appCenterDetailUrl } from './recommend-card';

/** Swiper loads when the carousel is this close to the viewport, well before it is seen. */
export const RECOMMEND_LOAD_MARGIN = '300px 0px';
/** The most cards one view shows (3 per view at 992 px and wider). */
const STATIC_CARDS = 3;

type CarouselModule = typeof RecommendCarouselModule;
let carouselModule: Promise<CarouselModule> | undefined;
const loadCarousel = () => {
  carouselModule ??= import('./recommend-carousel').catch((err: unknown) => {
    carouselModule = undefined;
    throw err;
  });
  return carouselModule;
};

/** A slide as Swiper's accessibility module labels it, so the first view reads the same. */
const slideAria = (i: number, count: number) => ({
  role: 'group',
  'aria-roledescription': 'slide',
  'aria-label': `${i + 1} / ${count}`,
});

/**
 * The carousel's first view without Swiper: the first cards at Swiper's sizes (1, 2 or 3 per view,
 * 24 px apart), its arrows and dots, so the page neither moves nor changes when Swiper takes over. With no
 * apps yet (they are loading) it shows empty cards of the same size.
 */
function StaticCarousel({ apps }: { apps: RecommendItem[] | undefined }) {
  const dots = apps?.length ?? 0;
  return (
    <div
      className="home-recommend home-recommend--static"
      role="group"
      aria-roledescription="carousel"
      aria-label={RECOMMEND_CAROUSEL_LABEL}
      aria-busy={apps ? undefined : true}
    >
      <div className="home-recommend__track">
        {apps
          ? apps.slice(0, STATIC_CARDS).map((app, i) => (
              <div className="home-recommend__slide" key={app.applicationUuid} {...slideAria(i, apps.length)}>
                <RecommendCard app={app} index={i} />
              </div>
            ))
          : Array.from({ length: STATIC_CARDS }, (_, i) => (
              <div className="home-recommend__slide" key={i} {...slideAria(i, STATIC_CARDS)}>
                <div className="home-recommend__card home-recommend__card--placeholder" />
              </div>
            ))}
      </div>
      {dots > 1 && (
        <div className="home-recommend__controls" aria-hidden="true">
          <span className="home-recommend__arrow home-recommend__arrow--prev" />
          <span className="home-recommend__dots">
            {Array.from({ length: dots }, (_, i) => (
              <span key={i} className={`home-recommend__dot${i === 0 ? ' is-active' : ''}`} />
            ))}
          </span>
          <span className="home-recommend__arrow home-recommend__arrow--next" />
        </div>
      )}
    </div>
  );
}

/** 应用推荐: the carousel of recommended applications (spec section 2). */
export function RecommendSection() {
  const { data: apps } = useRecommendedApps();
  const [slotRef, near] = useNearViewport<HTMLDivElement>(RECOMMEND_LOAD_MARGIN);
  const [carousel, setCarousel] = useState<CarouselModule | null>(null);
  const wanted = near && (apps?.length ?? 0) > 0;

  useEffect(() => {
    if (!wanted || carousel) return;
    let live = true;
    loadCarousel().then(
      (m) => {
        if (live) setCarousel(m);
      },
      () => {
        // Offline: the static first view stays, and its cards still open the application center.
      },
    );
    return () => {
      live = false;
    };
  }, [wanted, carousel]);

  return (
    <section className="home-section home-section--tinted" aria-label="应用推荐">
      <div className="home-container">
        <SectionHeading
          title="应用推荐"
          subtitle="精选工业 APP，按需订阅，开箱即用"
          more={{ to: paths.product.getHref(), label: '查看更多' }}
        />
        <div ref={slotRef}>
          {apps?.length === 0 ? (
            <HomeEmpty />
          ) : carousel && apps ? (
            <carousel.RecommendCarousel apps={apps} />
          ) : (
            <StaticCarousel apps={apps} />
          )}
        </div>
      </div>
    </section>
  );
}
