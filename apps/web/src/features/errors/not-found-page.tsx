import { Button, Result } from 'antd';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { logout } from '@/lib/auth';
import './error-page.css';

/** Spec section 2: page titled 页面不存在 with a back button that logs out. */
export function NotFoundPage() {
  return (
    <main className="error-page">
      <Result
        status="404"
        title={<h1 className="error-page__title">页面不存在</h1>}
        subTitle="您访问的页面不存在或已被移除，请检查地址是否正确。"
        extra={
          <Button type="primary" size="large" onClick={logout}>
            返回
          </Button>
        }
      />
    </main>
  );
}

/**
 * Any other path (spec section 2: redirects to /404). The server answers such a path with HTTP 404 and
 * this page; once in the browser the address becomes /404.
 */
export function UnknownPathPage() {
  const navigate = useNavigate();
  useEffect(() => {
    void navigate(paths.notFound.getHref(), { replace: true });
  }, [navigate]);
  return <NotFoundPage />;
}
