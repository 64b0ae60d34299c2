import type { RecommendItem, RuntimeConfig } from '@portal/shared';
import { fileUrl, useRuntimeConfig } from '@/config/runtime-config';

/** Spec section 9: autoplay every 3000 ms, 3 per view. */
export const RECOMMEND_AUTOPLAY_MS = 3000;
/** The carousel's accessible name, the same before and after Swiper takes over. */
export const RECOMMEND_CAROUSEL_LABEL = '推荐应用';
/** Spec section 2: card backgrounds cycle among three defaults. */
export const RECOMMEND_BACKGROUNDS = ['/demo/recommend-bg-1.svg', '/demo/recommend-bg-2.svg', '/demo/recommend-bg-3.svg'];

export function appCenterDetailUrl(config: RuntimeConfig, applicationUuid: string): string {
  return `${config.appCenterUrl}/center/detail?uuid=${encodeURIComponent(applicationUuid)}`;
}

/** One recommended application; a click opens its page in the application center. */
export function RecommendCard({ app, index }: { app: RecommendItem; index: number }) {
  const config = useRuntimeConfig();
  return (
    <button
      type="button"
      className="home-recommend__card"
      style={{ backgroundImage: `url("${fileUrl(config, RECOMMEND_BACKGROUNDS[index % RECOMMEND_BACKGROUNDS.length]!)}")` }}
      onClick={() => window.location.assign(appCenterDetailUrl(config, app.applicationUuid))}
    >
      <img src={fileUrl(config, app.imagePath)} alt="" className="home-recommend__img" />
      <span className="home-recommend__name">{app.name}</span>
      <span className="home-recommend__desc">{app.applicationDescription}</span>
    </button>
  );
}
