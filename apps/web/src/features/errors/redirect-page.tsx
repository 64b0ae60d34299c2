import { siteRedirectPath } from '@portal/shared';
import { Navigate, useLocation, useParams } from 'react-router';
import { paths } from '@/config/paths';

/** Any origin serves: the check only keeps paths that stay on the origin they are resolved against. */
const SAME_SITE = 'http://site.invalid';

/**
 * `/redirect/{path*}` → `/{path}` with the same query and hash (used to refresh a tag). A path that
 * would leave the site (`//host`, `/\host`, an encoded `%2F%2Fhost`) is no page of it: 页面不存在.
 */
export function RedirectPage() {
  const { '*': rest = '' } = useParams();
  const { search, hash } = useLocation();
  const target = siteRedirectPath(`/${rest}${search}${hash}`, SAME_SITE);
  return <Navigate to={target ?? paths.notFound.getHref()} replace />;
}
