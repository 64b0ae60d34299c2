import { PASSKEY_NAME_MAX, type Passkey, passkeyNameProblem } from '@portal/shared';
import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Empty, Input, Modal, Popconfirm, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { useReauth } from '@/components/reauth-dialog';
import { notify } from '@/lib/notify';
import { queryKeys } from '@/lib/query-keys';
import { chinaTimeText } from '@/lib/time';
import { addPasskey, PasskeyCeremonyError, removePasskey, renamePasskey, useMyPasskeys } from '../api/my-passkeys';

/** A passkey's name, asked when adding one and when renaming it. */
function NameDialog(props: {
  title: string;
  initial: string;
  open: boolean;
  busy: boolean;
  onOk: (name: string) => void;
  onCancel: () => void;
}) {
  const [name, setName] = useState(props.initial);
  const [error, setError] = useState<string>();
  const submit = () => {
    const problem = passkeyNameProblem(name);
    if (problem) return setError(problem);
    props.onOk(name.trim());
  };
  return (
    <Modal
      title={props.title}
      open={props.open}
      onOk={submit}
      onCancel={props.onCancel}
      okText="确定"
      cancelText="取消"
      confirmLoading={props.busy}
      destroyOnHidden
    >
      <label className="personal-info__passkey-label" htmlFor="passkey-name">
        通行密钥名称
      </label>
      <Input
        id="passkey-name"
        value={name}
        maxLength={PASSKEY_NAME_MAX}
        placeholder="如：办公电脑、手机"
        status={error ? 'error' : undefined}
        aria-describedby={error ? 'passkey-name-error' : undefined}
        onChange={(e) => {
          setName(e.target.value);
          setError(undefined);
        }}
        onPressEnter={submit}
        autoFocus
      />
      {error && (
        <Typography.Text type="danger" id="passkey-name-error">
          {error}
        </Typography.Text>
      )}
    </Modal>
  );
}

function PasskeyItem({ passkey, onRemove, onRename }: { passkey: Passkey; onRemove: () => Promise<void>; onRename: () => void }) {
  return (
    <li className="personal-info__session" aria-label={passkey.name}>
      <div className="personal-info__session-main">
        <Typography.Text strong>{passkey.name}</Typography.Text>
        <span className="personal-info__session-meta">
          添加于 {chinaTimeText(passkey.createdAt)} · {passkey.lastUsedAt ? `最近使用 ${chinaTimeText(passkey.lastUsedAt)}` : '尚未使用'}
        </span>
      </div>
      <Button size="small" onClick={onRename}>
        重命名
      </Button>
      <Popconfirm
        title="移除通行密钥"
        description="移除后，该设备上的通行密钥将不能再登录此账号。"
        okText="移除"
        cancelText="取消"
        okButtonProps={{ danger: true }}
        onConfirm={onRemove}
      >
        <Button size="small" danger>
          移除
        </Button>
      </Popconfirm>
    </li>
  );
}

/**
 * 通行密钥: the account's passkeys (name, added, last used); 添加通行密钥 and 移除 are sensitive changes
 * behind 验证身份 when the login is not recent; renaming is not.
 */
export function MyPasskeysSection({ open }: { open: boolean }) {
  const passkeys = useMyPasskeys(open);
  const queryClient = useQueryClient();
  const { run, dialog } = useReauth();
  const [naming, setNaming] = useState<{ id?: number; initial: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const supported = browserSupportsWebAuthn();
  const reload = () => queryClient.invalidateQueries({ queryKey: queryKeys.sessions.myPasskeys });

  const save = async (name: string) => {
    setBusy(true);
    try {
      const id = naming?.id;
      notify.success(id === undefined ? await run(() => addPasskey(name)) : await renamePasskey(id, name));
      setNaming(null);
      void reload();
    } catch (err) {
      // Cancelled 验证身份, or the API client has shown the server's reason; the authenticator's own refusal is said here.
      if (err instanceof PasskeyCeremonyError) notify.error('未完成通行密钥的创建，请重试');
    } finally {
      setBusy(false);
    }
  };
  const remove = async (id: number) => {
    try {
      notify.success(await run(() => removePasskey(id)));
      void reload();
    } catch {
      // Cancelled 验证身份, or the API client has shown the server's reason.
    }
  };

  return (
    <section className="personal-info__two-factor" aria-labelledby="personal-info-passkeys">
      <div className="personal-info__sessions-head">
        <Typography.Title level={5} id="personal-info-passkeys">
          通行密钥
        </Typography.Title>
        {supported && (
          <Button size="small" type="primary" onClick={() => setNaming({ initial: '' })}>
            添加通行密钥
          </Button>
        )}
      </div>
      <Typography.Paragraph type="secondary" className="personal-info__passkey-hint">
        {supported
          ? '使用设备的指纹、面容或锁屏密码登录，无需输入密码；企业要求二次验证时也可用它完成验证。'
          : '当前浏览器不支持通行密钥，请使用最新版的 Chrome、Edge 或 Safari。'}
      </Typography.Paragraph>
      {passkeys.data ? (
        passkeys.data.length > 0 ? (
          <ul className="personal-info__session-list" aria-label="我的通行密钥">
            {passkeys.data.map((p) => (
              <PasskeyItem key={p.id} passkey={p} onRemove={() => remove(p.id)} onRename={() => setNaming({ id: p.id, initial: p.name })} />
            ))}
          </ul>
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="尚未添加通行密钥" />
        )
      ) : passkeys.isError ? (
        <Typography.Text type="secondary">通行密钥加载失败</Typography.Text>
      ) : (
        <Skeleton active paragraph={{ rows: 1 }} title={false} />
      )}
      {naming && (
        <NameDialog
          title={naming.id === undefined ? '添加通行密钥' : '重命名通行密钥'}
          initial={naming.initial}
          open
          busy={busy}
          onOk={(name) => void save(name)}
          onCancel={() => setNaming(null)}
        />
      )}
      {dialog}
    </section>
  );
}
