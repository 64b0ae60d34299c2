import type { RecommendItem } from '@portal/shared';
import { fileUrl, getRuntimeConfig } from '@/config/runtime-config';

/** Spec section 9: autoplay every 3000 ms, 3 per view. */
export const RECOMMEND_AUTOPLAY_MS = 3000;
/** The carousel's accessible name, the same before and after Swiper takes over. */
export const RECOMMEND_CAROUSEL_LABEL = '推荐应用';
/** Spec section 2: card backgrounds cycle among three defaults. */
export const RECOMMEND_BACKGROUNDS = ['/demo/recommend-bg-1.svg', '/demo/recommend-bg-2.svg', '/demo/recommend-bg-3.svg'];

export function appCenterDetailUrl(applicationUuid: string): string {
  return `${getRuntimeConfig().appCenterUrl}/center/detail?uuid=${encodeURIComponent(applicationUuid)}`;
}

/** One recommended application; a click opens its page in the application center. */
export function RecommendCard({ app, index }: { app: RecommendItem; index: number }) {
  return (
    <button
      type="button"
      className="home-recommend__card"
      style={{ backgroundImage: `url("${fileUrl(RECOMMEND_BACKGROUNDS[index % RECOMMEND_BACKGROUNDS.length]!)}")` }}
      onClick={() => window.location.assign(appCenterDetailUrl(app.applicationUuid))}
    >
      <img src={fileUrl(app.imagePath)} alt="" className="home-recommend__img" />
      <span className="home-recommend__name">{app.name}</span>
      <span className="home-recommend__desc">{app.applicationDescription}</span>
    </button>
  );
}
