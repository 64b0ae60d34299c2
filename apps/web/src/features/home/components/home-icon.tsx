import sprite from '@/assets/site-icons.svg?no-inline';

/** The icons of the home page: one cached SVG file, not JavaScript (the paths are antd's icons). */
export type HomeIconName =
  | 'appstore'
  | 'safety'
  | 'smile'
  | 'api'
  | 'safety-certificate'
  | 'sync'
  | 'mobile'
  | 'control'
  | 'deployment-unit'
  | 'cluster'
  | 'experiment'
  | 'thunderbolt'
  | 'customer-service'
  | 'vertical-align-top'
  | 'right';

/** An icon in the current text colour, 1em square (like an antd icon). */
export function HomeIcon({ name }: { name: HomeIconName }) {
  return (
    <svg className="home-icon" aria-hidden="true" focusable="false">
      <use href={`${sprite}#${name}`} />
    </svg>
  );
}
