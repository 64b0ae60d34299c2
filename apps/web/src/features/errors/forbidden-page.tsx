import { Button, Result } from 'antd';
import { useRuntimeConfig } from '@/config/runtime-config';
import { useSiteInfo } from '@/api/get-site-info';
import './error-page.css';

/**
 * Spec section 2: 当前账号无权限, an all-rights-reserved line with the group's name, a return link. The
 * message is the page's heading; the line is in Chinese like the rest of the site.
 */
export function ForbiddenPage() {
  const config = useRuntimeConfig();
  const mainHref = config.mainUrl + config.mainVisitPrefix;
  const { data: site } = useSiteInfo();
  const groupName = site?.copyright.replace(/^©\s*\d{4}\s*/, '').replace(/\s*版权所有$/, '') ?? '工程机械集团有限公司';
  return (
    <main className="error-page">
      <Result
        status="403"
        title={<h1 className="error-page__title">当前账号无权限</h1>}
        subTitle=""
        extra={
          <Button type="primary" size="large" href={mainHref}>
            返回首页
          </Button>
        }
      />
      <footer className="error-page__footer">
        © {new Date().getFullYear()} <a href={mainHref}>{groupName}</a> 版权所有
      </footer>
    </main>
  );
}
