import { Navigate, useLocation, useParams } from 'react-router';

/** `/redirect/{path*}` → `/{path}` with the same query and hash (used to refresh a tag). */
export function RedirectPage() {
  const { '*': rest = '' } = useParams();
  const { search, hash } = useLocation();
  return <Navigate to={`/${rest}${search}${hash}`} replace />;
}
