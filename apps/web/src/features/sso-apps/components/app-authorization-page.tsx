import { SSO_APPLICATION_STATUS_LABELS, type SsoApplicationRow } from '@portal/shared';
import { Empty, Modal, Select, Skeleton, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useLocation } from 'react-router';
import { ConsolePage } from '@/components/console-page';
import { paths } from '@/config/paths';
import { throttle } from '@/lib/throttle';
import { useSsoApps } from '../api/sso-apps';
import { AppIcon } from './app-icon';
import { GrantsEditor } from './grants-editor';
import './sso-apps.css';

/** Spec section 9: input throttled at 300 ms. */
const SEARCH_THROTTLE_MS = 300;
/** Most applications one search offers in the picker. */
const APP_PICKER_LIMIT = 50;

/** What 应用列表's 授权 sends along: the application to open here. */
export interface AuthorizeLinkState {
  app: SsoApplicationRow;
}

const linkedApp = (state: unknown): SsoApplicationRow | null =>
  state && typeof state === 'object' && 'app' in state ? (state as AuthorizeLinkState).app : null;

/**
 * 应用授权: pick one of the enterprise's applications, then decide who may sign in to it:
 * 企业全员, or account groups, roles and single accounts. Nobody may by default. 保存 replaces the
 * whole set; the CAS checks it at the next sign-in and at every ticket validation.
 */
export function AppAuthorizationPage() {
  const [keyword, setKeyword] = useState('');
  const [picked, setPicked] = useState<SsoApplicationRow | null>(null);
  const [dirty, setDirty] = useState(false);
  const apps = useSsoApps({ offset: 0, limit: APP_PICKER_LIMIT, ...(keyword ? { keyword } : {}) });
  // The unfiltered list (the same query while nothing is searched): until one is picked, its first application is shown.
  const all = useSsoApps({ offset: 0, limit: APP_PICKER_LIMIT });
  const search = useMemo(() => throttle((text: string) => setKeyword(text.trim()), SEARCH_THROTTLE_MS), []);
  const rows = apps.data?.rows ?? [];
  const allRows = all.data?.rows ?? [];
  // The picked application as the lists last showed it (an edit in 应用列表 shows here too).
  const app = picked ? (rows.find((r) => r.id === picked.id) ?? allRows.find((r) => r.id === picked.id) ?? picked) : (allRows[0] ?? null);

  // The application to switch to once the user agrees to drop unsaved changes.
  const [switching, setSwitching] = useState<SsoApplicationRow | null>(null);
  const choose = (next: SsoApplicationRow) => {
    if (next.id === app?.id) return;
    if (dirty) setSwitching(next);
    else setPicked(next);
  };
  const pick = (id: number) => {
    const next = rows.find((r) => r.id === id);
    if (next) choose(next);
  };

  // 应用列表's 授权 opens this page on its application: once per arrival, as the page stays alive between them.
  const location = useLocation();
  const linked = location.pathname === paths.appAuthorization.path ? linkedApp(location.state) : null;
  const [arrival, setArrival] = useState<string | null>(null);
  if (linked && arrival !== location.key) {
    setArrival(location.key);
    choose(linked);
  }

  return (
    <ConsolePage
      className="sso-apps sso-grants"
      filters={
        <div className="sso-grants__picker">
          <label htmlFor="sso-grants-app">应用</label>
          <Select<number>
            id="sso-grants-app"
            aria-label="选择应用"
            placeholder="搜索并选择应用"
            value={app?.id}
            onChange={pick}
            showSearch={{ filterOption: false, onSearch: search }}
            onOpenChange={(open) => {
              if (!open) search('');
            }}
            loading={apps.isFetching}
            notFoundContent={apps.isFetching ? '搜索中…' : '没有匹配的应用'}
            options={[...rows, ...(app && !rows.some((r) => r.id === app.id) ? [app] : [])].map((r) => ({
              value: r.id,
              label: r.name,
            }))}
            optionRender={(option) => {
              const row = rows.find((r) => r.id === option.value);
              return (
                <span className="sso-grants__option">
                  <span>{option.label}</span>
                  {row?.status === 'disabled' && <Tag>{SSO_APPLICATION_STATUS_LABELS.disabled}</Tag>}
                </span>
              );
            }}
          />
        </div>
      }
    >
      {app ? (
        <section className="sso-grants__panel" aria-label={`${app.name}的授权`}>
          <header className="sso-grants__app">
            <AppIcon name={app.name} icon={app.icon} size={40} />
            <div className="sso-grants__app-text">
              <Typography.Title level={5}>{app.name}</Typography.Title>
              <Typography.Text type="secondary">{app.category || app.servicePrefixes[0]}</Typography.Text>
            </div>
            {app.status === 'disabled' && <Tag>已停用：授权在启用后生效</Tag>}
          </header>
          <GrantsEditor key={app.id} app={app} onDirtyChange={setDirty} />
        </section>
      ) : all.isPending ? (
        <Skeleton active />
      ) : (
        <Empty description="暂无应用，请先在应用列表中新增应用" />
      )}
      <Modal
        title="放弃未保存的修改？"
        open={switching !== null}
        okText="放弃并切换"
        cancelText="取消"
        onOk={() => {
          setDirty(false);
          setPicked(switching);
          setSwitching(null);
        }}
        onCancel={() => setSwitching(null)}
      >
        「{app?.name ?? ''}」的授权有修改尚未保存，切换应用将放弃这些修改。
      </Modal>
    </ConsolePage>
  );
}
