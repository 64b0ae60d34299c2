import sprite from './layout-icons.svg?no-inline';
import './layout-icon.css';

/** Icons of the public header and footer: one cached SVG file, not JavaScript (antd's icon paths). */
export type LayoutIconName = 'environment' | 'phone' | 'mail' | 'user' | 'down' | 'safety-certificate' | 'menu' | 'left' | 'right';

/** An icon in the current text colour, 1em square (like an antd icon). */
export function LayoutIcon({ name, className }: { name: LayoutIconName; className?: string }) {
  return (
    <svg className={className ? `layout-icon ${className}` : 'layout-icon'} aria-hidden="true" focusable="false">
      <use href={`${sprite}#${name}`} />
    </svg>
  );
}
