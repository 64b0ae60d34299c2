import type { SsoApplicationRow, SsoAppGrants } from '@portal/shared';
import { Alert, Button, Select, Skeleton, Switch, Typography } from 'antd';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { useOrgOptions } from '@/api/get-org-options';
import { notify } from '@/lib/notify';
import { throttle } from '@/lib/throttle';
import { ACCOUNT_SEARCH_LIMIT, useAccountSearch } from '../api/account-search';
import { useSaveSsoAppGrants, useSsoAppGrants } from '../api/sso-app-grants';
import { grantsBody, grantsNobody, sameGrants, withAdded } from '../lib/grant-set';

/** Spec section 9: input throttled at 300 ms. */
const SEARCH_THROTTLE_MS = 300;

interface Subject {
  id: number;
  label: string;
}

/** One list of granted subjects (账号组, 角色 or 账号): its members, each with 移除, and the picker that adds one. */
function SubjectList({
  title,
  kind,
  subjects,
  picker,
  onRemove,
}: {
  title: string;
  kind: string;
  subjects: readonly Subject[];
  picker: ReactNode;
  onRemove(id: number): void;
}) {
  return (
    <section className="sso-grants__list" aria-label={`已授权的${title}`}>
      <h3>
        {title}
        <span className="sso-grants__count">{subjects.length}</span>
      </h3>
      {picker}
      {subjects.length === 0 ? (
        <Typography.Text type="secondary" className="sso-grants__none">
          未授权{kind}
        </Typography.Text>
      ) : (
        <ul>
          {subjects.map((s) => (
            <li key={s.id}>
              <span title={s.label}>{s.label}</span>
              <Button type="link" size="small" danger aria-label={`移除${kind}：${s.label}`} onClick={() => onRemove(s.id)}>
                移除
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

const accountLabel = (a: { name: string; username: string }) => `${a.name}（${a.username}）`;

/**
 * The grants of one application, edited as a draft: 企业全员, and the lists of account groups, roles
 * and accounts. 保存 sends the whole set; 撤销修改 goes back to the saved one.
 */
export function GrantsEditor({ app, onDirtyChange }: { app: SsoApplicationRow; onDirtyChange(dirty: boolean): void }) {
  const saved = useSsoAppGrants(app.id);
  const options = useOrgOptions();
  const save = useSaveSsoAppGrants();
  const [draft, setDraft] = useState<SsoAppGrants | null>(null);
  const [accountsOpen, setAccountsOpen] = useState(false);
  const [keyword, setKeyword] = useState('');
  const accounts = useAccountSearch(keyword, accountsOpen);
  const search = useMemo(() => throttle((text: string) => setKeyword(text.trim()), SEARCH_THROTTLE_MS), []);
  const grants = draft ?? saved.data;
  const dirty = draft !== null && saved.data !== undefined && !sameGrants(draft, saved.data);

  useEffect(() => onDirtyChange(dirty), [dirty, onDirtyChange]);
  useEffect(() => () => search.cancel(), [search]);

  if (!grants) {
    return saved.isError ? <Alert type="error" showIcon title="授权信息加载失败，请刷新重试" /> : <Skeleton active />;
  }

  const edit = (change: (g: SsoAppGrants) => SsoAppGrants) => setDraft(change(grants));
  const granted = (refs: readonly { id: number }[]) => new Set(refs.map((r) => r.id));
  const groupIds = granted(grants.groups);
  const roleIds = granted(grants.roles);
  const accountIds = granted(grants.accounts);
  const groups = options.data?.groups ?? [];
  const roles = options.data?.roles ?? [];
  const found = accounts.data ?? [];

  const submit = async () => {
    try {
      notify.success(await save.mutateAsync({ id: app.id, body: grantsBody(grants) }));
      setDraft(null);
    } catch {
      // The API client has shown the server's reason; the draft stays for another try.
    }
  };

  return (
    <div className="sso-grants">
      <div className="sso-grants__all">
        <Switch
          id="sso-grants-all"
          checked={grants.allMembers}
          onChange={(allMembers) => edit((g) => ({ ...g, allMembers }))}
          aria-describedby="sso-grants-all-note"
        />
        <label htmlFor="sso-grants-all">企业全员</label>
        <Typography.Text type="secondary" id="sso-grants-all-note">
          开启后本企业的所有账号都可以登录该应用
        </Typography.Text>
      </div>
      {grantsNobody(grants) && (
        <Alert type="warning" showIcon title="未授权任何人（默认无人可以登录该应用）" className="sso-grants__empty" />
      )}
      {grants.allMembers && (
        <Alert type="info" showIcon title="已授权企业全员：下列授权在关闭“企业全员”后继续有效" className="sso-grants__empty" />
      )}
      <div className="sso-grants__lists">
        <SubjectList
          title="账号组"
          kind="账号组"
          subjects={grants.groups.map((g) => ({ id: g.id, label: g.name }))}
          onRemove={(id) => edit((g) => ({ ...g, groups: g.groups.filter((x) => x.id !== id) }))}
          picker={
            <Select<number>
              aria-label="添加账号组"
              placeholder="添加账号组"
              value={null}
              showSearch={{ optionFilterProp: 'label' }}
              loading={options.isPending}
              notFoundContent="没有可添加的账号组"
              options={groups.filter((x) => !groupIds.has(x.id)).map((x) => ({ value: x.id, label: x.name }))}
              onChange={(id) => {
                const group = groups.find((x) => x.id === id);
                if (group) edit((g) => ({ ...g, groups: withAdded(g.groups, [{ id: group.id, name: group.name }]) }));
              }}
            />
          }
        />
        <SubjectList
          title="角色"
          kind="角色"
          subjects={grants.roles.map((r) => ({ id: r.id, label: r.name }))}
          onRemove={(id) => edit((g) => ({ ...g, roles: g.roles.filter((x) => x.id !== id) }))}
          picker={
            <Select<number>
              aria-label="添加角色"
              placeholder="添加角色"
              value={null}
              showSearch={{ optionFilterProp: 'label' }}
              loading={options.isPending}
              notFoundContent="没有可添加的角色"
              options={roles.filter((x) => !roleIds.has(x.id)).map((x) => ({ value: x.id, label: x.name }))}
              onChange={(id) => {
                const role = roles.find((x) => x.id === id);
                if (role) edit((g) => ({ ...g, roles: withAdded(g.roles, [{ id: role.id, name: role.name }]) }));
              }}
            />
          }
        />
        <SubjectList
          title="账号"
          kind="账号"
          subjects={grants.accounts.map((a) => ({ id: a.id, label: accountLabel(a) }))}
          onRemove={(id) => edit((g) => ({ ...g, accounts: g.accounts.filter((x) => x.id !== id) }))}
          picker={
            <Select<number>
              aria-label="添加账号"
              placeholder="搜索账号、姓名或手机号"
              value={null}
              showSearch={{ filterOption: false, onSearch: search }}
              onOpenChange={setAccountsOpen}
              loading={accounts.isFetching}
              notFoundContent={accounts.isFetching ? '搜索中…' : '没有可添加的账号'}
              options={found.filter((a) => !accountIds.has(a.id)).map((a) => ({ value: a.id, label: accountLabel(a) }))}
              popupRender={(menu) => (
                <>
                  {menu}
                  {found.length >= ACCOUNT_SEARCH_LIMIT && (
                    <div className="sso-grants__more">仅显示前 {ACCOUNT_SEARCH_LIMIT} 个匹配的账号，可输入关键字缩小范围</div>
                  )}
                </>
              )}
              onChange={(id) => {
                const account = found.find((a) => a.id === id);
                if (account)
                  edit((g) => ({
                    ...g,
                    accounts: withAdded(g.accounts, [{ id: account.id, name: account.name, username: account.username }]),
                  }));
              }}
            />
          }
        />
      </div>
      <div className="sso-grants__footer">
        {dirty && <Typography.Text type="warning">有未保存的修改</Typography.Text>}
        <Button disabled={!dirty || save.isPending} onClick={() => setDraft(null)}>
          撤销修改
        </Button>
        <Button type="primary" disabled={!dirty} loading={save.isPending} onClick={() => void submit()}>
          保存
        </Button>
      </div>
    </div>
  );
}
