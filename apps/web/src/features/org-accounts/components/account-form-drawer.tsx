import type { OrgOptions } from '@portal/shared';
import { type AccountRow, EMAIL_MAX, NAME_MAX, TenantRules } from '@portal/shared';
import { Button, Drawer, Form, Input, Select } from 'antd';
import { useState } from 'react';
import { notify } from '@/lib/notify';
import { useCreateAccount, useUpdateAccount } from '../api/accounts';
import { encodePassword } from '../api/encode-password';
import { tenantRule } from '@/lib/form-rules';
import {
  type AccountFormField,
  type AccountFormValues,
  createBody,
  editAccountForm,
  newAccountForm,
  updateBody,
} from '../lib/account-form';
import { showRefusal } from '../lib/form-refusal';
import { InitialPasswordFields } from './initial-password-fields';

/** What the drawer is open for: a new account, or the account to edit. */
export type AccountFormTarget = { account?: AccountRow };

const CREATE_FIELDS: readonly AccountFormField[] = ['username', 'name', 'phone', 'email', 'password'];
const EDIT_FIELDS: readonly AccountFormField[] = ['name', 'phone', 'email'];

/**
 * 新增 / 编辑 an account: 账号 (fixed once created), 姓名, 手机号, 邮箱, 账号组 and 角色, and on 新增
 * the initial password. The shared rules check every field before sending; the server checks again
 * and its refusal shows under the field it names.
 */
export function AccountFormDrawer({
  target,
  options,
  onClose,
}: {
  target: AccountFormTarget | null;
  options: OrgOptions;
  onClose(): void;
}) {
  const [form] = Form.useForm<AccountFormValues>();
  const create = useCreateAccount();
  const update = useUpdateAccount();
  const [saving, setSaving] = useState(false);
  const account = target?.account;
  // An administrator keeps the roles they hold: the console never offers to demote oneself (guard rails).
  const keptRoleIds = account?.self ? new Set(account.roles.map((r) => r.id)) : new Set<number>();

  const submit = async () => {
    let values: AccountFormValues;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    try {
      if (account) {
        notify.success(await update.mutateAsync({ id: account.id, body: updateBody(values) }));
      } else {
        const password = values.passwordMode === 'manual' ? await encodePassword(values.password ?? '') : undefined;
        if (password === null) return;
        notify.success(await create.mutateAsync(createBody(values, password)));
      }
      onClose();
    } catch (err) {
      showRefusal(form, account ? EDIT_FIELDS : CREATE_FIELDS, err);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Drawer
      title={account ? `编辑账号 ${account.username}` : '新增账号'}
      open={target !== null}
      size="min(560px, 100vw)"
      onClose={onClose}
      destroyOnHidden
      mask={{ closable: false }}
      footer={
        <div className="org-accounts__drawer-footer">
          <Button onClick={onClose}>取消</Button>
          <Button type="primary" loading={saving} onClick={() => void submit()}>
            保存
          </Button>
        </div>
      }
    >
      <Form<AccountFormValues>
        form={form}
        layout="vertical"
        clearOnDestroy
        autoComplete="off"
        initialValues={account ? editAccountForm(account) : newAccountForm()}
      >
        <Form.Item
          name="username"
          label="账号"
          required={!account}
          rules={account ? [] : [tenantRule(TenantRules.username)]}
          extra={account ? '账号创建后不能修改' : '3-32 位字母、数字或下划线，以字母开头；创建后不能修改'}
        >
          <Input disabled={Boolean(account)} maxLength={32} />
        </Form.Item>
        <Form.Item name="name" label="姓名" required rules={[tenantRule(TenantRules.personName)]}>
          <Input maxLength={NAME_MAX} />
        </Form.Item>
        <Form.Item name="phone" label="手机号" required rules={[tenantRule(TenantRules.phone)]}>
          <Input inputMode="tel" maxLength={11} />
        </Form.Item>
        <Form.Item name="email" label="邮箱" rules={[tenantRule(TenantRules.email)]}>
          <Input inputMode="email" maxLength={EMAIL_MAX} />
        </Form.Item>
        <Form.Item name="groupIds" label="账号组" extra="账号组的角色也授予组内的账号">
          <Select
            mode="multiple"
            allowClear
            placeholder="选择账号组"
            showSearch={{ optionFilterProp: 'label' }}
            options={options.groups.map((g) => ({ value: g.id, label: g.name }))}
          />
        </Form.Item>
        <Form.Item name="roleIds" label="角色" extra={account?.self ? '不能移除自己账号已有的角色' : undefined}>
          <Select
            mode="multiple"
            allowClear={!account?.self}
            placeholder="选择角色"
            showSearch={{ optionFilterProp: 'label' }}
            options={options.roles.map((r) => ({ value: r.id, label: r.name, disabled: keptRoleIds.has(r.id) }))}
          />
        </Form.Item>
        {!account && <InitialPasswordFields />}
      </Form>
    </Drawer>
  );
}
