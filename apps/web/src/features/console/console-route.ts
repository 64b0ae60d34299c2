import type { ComponentType, LazyExoticComponent } from 'react';
import type { ServiceRoute } from './lib/filter-routes';

/**
 * A page of the tenant console. The app declares them (`app/console-routes.tsx`); the console shell
 * filters them by the user's authority codes, builds the sidebar, breadcrumb and tabs from them and
 * keeps visited pages alive. Pages take no props: what they show comes from their own queries.
 */
export interface ConsoleRoute extends ServiceRoute {
  /** Route name: the key of the page's kept-alive state (spec section 3, cached views by name). */
  name: string;
  /** The page; absent for a menu group that only holds children. */
  component?: LazyExoticComponent<ComponentType>;
  /** The page is not kept alive when its tab is left (spec section 4: no cache). */
  noCache?: boolean;
  /** Pinned tab: cannot be closed. */
  affix?: boolean;
  /** Reachable by its path but not listed in the sidebar. */
  hidden?: boolean;
  children?: ConsoleRoute[];
}
