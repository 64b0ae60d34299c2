import { EditOutlined, ReloadOutlined } from '@ant-design/icons';
import type { EnterpriseProfile } from '@portal/shared';
import { Button, Result, Skeleton, Tabs } from 'antd';
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { ConsolePage } from '@/components/console-page';
import { paths } from '@/config/paths';
import { useEnterpriseProfile } from '../api/enterprise-profile';
import { CertificationSection } from './certification-section';
import { EnterpriseSummary } from './enterprise-summary';
import { ProfileForm } from './profile-form';
import { ProfileView } from './profile-view';
import './enterprise.css';

type EnterpriseTab = 'basic' | 'certification';

const tabOf = (search: string): EnterpriseTab => (new URLSearchParams(search).get('tab') === 'certification' ? 'certification' : 'basic');

/**
 * The open tab follows the URL (`?tab=certification` is a link others can share). The page stays alive
 * while another console page is shown: then it keeps the tab it had rather than reading that page's URL.
 */
function useEnterpriseTab(): [EnterpriseTab, (tab: EnterpriseTab) => void] {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const here = pathname === paths.enterprise.path;
  const [kept, setKept] = useState<EnterpriseTab>(() => tabOf(search));
  const tab = here ? tabOf(search) : kept;
  if (tab !== kept) setKept(tab);
  const open = (next: EnterpriseTab) =>
    void navigate(paths.enterprise.getHref(next === 'certification' ? next : undefined), { replace: true });
  return [tab, open];
}

function ProfileSection({ profile }: { profile: EnterpriseProfile }) {
  const [editing, setEditing] = useState(false);
  if (editing && profile.editable) return <ProfileForm profile={profile} onDone={() => setEditing(false)} />;
  return (
    <div className="enterprise-profile">
      {profile.editable && (
        <div className="enterprise-profile__toolbar">
          <Button type="primary" icon={<EditOutlined />} onClick={() => setEditing(true)}>
            编辑
          </Button>
        </div>
      )}
      <ProfileView profile={profile} />
    </div>
  );
}

/**
 * 企业信息: the enterprise's 基本信息, read by every member and edited by enterprise:manage
 * holders, and its 企业认证: the status, the submission of materials and the record of applications.
 */
export function EnterprisePage() {
  const profile = useEnterpriseProfile();
  const [tab, setTab] = useEnterpriseTab();

  if (profile.isError && !profile.data) {
    return (
      <ConsolePage>
        <Result
          status="warning"
          title="企业信息加载失败"
          extra={
            <Button type="primary" icon={<ReloadOutlined />} onClick={() => void profile.refetch()}>
              重新加载
            </Button>
          }
        />
      </ConsolePage>
    );
  }

  return (
    <ConsolePage className="enterprise">
      {profile.data ? (
        <>
          <EnterpriseSummary profile={profile.data} />
          <Tabs
            activeKey={tab}
            onChange={(key) => setTab(key as EnterpriseTab)}
            className="enterprise__tabs"
            items={[
              { key: 'basic', label: '基本信息', children: <ProfileSection profile={profile.data} /> },
              { key: 'certification', label: '企业认证', children: <CertificationSection profile={profile.data} /> },
            ]}
          />
        </>
      ) : (
        <Skeleton active paragraph={{ rows: 10 }} />
      )}
    </ConsolePage>
  );
}
