import { useSiteInfo } from '@/api/get-site-info';
import { PRODUCT_TITLE } from '@/config/paths';
import { useHomeBlocks } from '../api/home';
import { BannerSection } from './banner-section';
import { FloatTools } from './float-tools';
import { NewsSection } from './news-section';
import { RecommendSection } from './recommend-section';
import { AboutSection, AdvantagesSection, AwardsAndSupplySections, DevToolsSection, ResourceMapSection } from './showcase-sections';
import './home.css';

/** Home (spec sections 1 and 2). */
export function HomePage() {
  const { data: blocks } = useHomeBlocks();
  const { data: site } = useSiteInfo();
  return (
    <div className="home">
      {/* The page's heading is the site's name; the banners below change and are its sections. */}
      <h1 className="visually-hidden">{site?.name ?? PRODUCT_TITLE}</h1>
      <BannerSection blocks={blocks} />
      <NewsSection />
      <RecommendSection />
      <ResourceMapSection />
      <AwardsAndSupplySections blocks={blocks} />
      <AboutSection />
      <AdvantagesSection />
      <DevToolsSection />
      {site && <FloatTools phone={site.phone} />}
    </div>
  );
}
