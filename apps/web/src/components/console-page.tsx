import type { ReactNode } from 'react';
import './console-page.css';

/**
 * The frame of a console page inside the shell's content area: a toolbar row (filters on the left,
 * actions on the right) above the content, with the page's own padding (like vue-element-admin's
 * `app-container`).
 */
export function ConsolePage({
  filters,
  actions,
  children,
  className,
}: {
  filters?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <div className={`console-page${className ? ` ${className}` : ''}`}>
      {(filters || actions) && (
        <div className="console-page__toolbar">
          {filters && <div className="console-page__filters">{filters}</div>}
          {actions && <div className="console-page__actions">{actions}</div>}
        </div>
      )}
      {children}
    </div>
  );
}
