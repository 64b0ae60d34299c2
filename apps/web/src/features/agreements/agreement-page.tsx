import { Tabs } from 'antd';
import { useLocation, useNavigate } from 'react-router';
import { StaticPage } from '@/components/static-page';

const TABS = [
  { key: '/privacy', label: '隐私协议' },
  { key: '/service', label: '服务协议' },
];

/** /privacy and /service show the same agreement page (spec section 2); the path picks the tab. */
export function AgreementPage() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  return (
    <div className="agreement-page">
      <Tabs
        centered
        activeKey={pathname}
        onChange={(key) => navigate(key, { replace: true })}
        items={TABS.map((t) => ({ key: t.key, label: t.label, children: <StaticPage path={t.key} /> }))}
        style={{ paddingTop: 16 }}
      />
    </div>
  );
}
