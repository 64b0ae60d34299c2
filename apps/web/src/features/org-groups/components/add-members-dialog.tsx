import type { AccountGroupRow } from '@portal/shared';
import { Form, Modal, Select, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { throttle } from '@/lib/throttle';
import { notify } from '@/lib/notify';
import { CANDIDATE_LIMIT, useAddGroupMembers, useGroupCandidates } from '../api/group-members';

/** Spec section 9: input throttled at 300 ms. */
const SEARCH_THROTTLE_MS = 300;

interface PickedAccount {
  value: number;
  label: string;
}

/**
 * 添加成员: searches the enterprise's accounts that are not in the group yet (by 账号, 姓名 or
 * 手机号, on the server) and adds the picked ones at once.
 */
export function AddMembersDialog({ group, open, onClose }: { group: AccountGroupRow; open: boolean; onClose(): void }) {
  const [keyword, setKeyword] = useState('');
  const [picked, setPicked] = useState<PickedAccount[]>([]);
  const candidates = useGroupCandidates(group.id, keyword, open);
  const add = useAddGroupMembers();
  const search = useMemo(() => throttle((text: string) => setKeyword(text.trim()), SEARCH_THROTTLE_MS), []);
  const rows = candidates.data ?? [];

  const submit = async () => {
    if (picked.length === 0) return;
    try {
      notify.success(await add.mutateAsync({ groupId: group.id, accountIds: picked.map((p) => p.value) }));
      onClose();
    } catch {
      // The API client has shown the server's reason; the dialog stays open.
    }
  };

  return (
    <Modal
      title={`添加成员到「${group.name}」`}
      open={open}
      onCancel={onClose}
      onOk={() => void submit()}
      okText="添加"
      cancelText="取消"
      okButtonProps={{ disabled: picked.length === 0 }}
      confirmLoading={add.isPending}
      width={{ xs: '100%', sm: 520 }}
      destroyOnHidden
      afterClose={() => {
        search.cancel();
        setKeyword('');
        setPicked([]);
        add.reset();
      }}
      mask={{ closable: false }}
    >
      <Form layout="vertical">
        <Form.Item
          label="账号"
          htmlFor="add-members-accounts"
          extra={
            rows.length >= CANDIDATE_LIMIT ? (
              <Typography.Text type="secondary">仅显示前 {CANDIDATE_LIMIT} 个匹配的账号，可输入账号、姓名或手机号缩小范围</Typography.Text>
            ) : (
              '可输入账号、姓名或手机号搜索，可多选'
            )
          }
        >
          <Select<PickedAccount[]>
            id="add-members-accounts"
            mode="multiple"
            labelInValue
            allowClear
            aria-label="选择账号"
            placeholder="搜索并选择账号"
            value={picked}
            onChange={(next) => setPicked(next)}
            showSearch={{ filterOption: false, onSearch: search }}
            loading={candidates.isFetching}
            notFoundContent={candidates.isFetching ? '搜索中…' : '没有可添加的账号'}
            options={rows.map((a) => ({ value: a.id, label: `${a.name}（${a.username}）` }))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
