import { DESCRIPTION_MAX, NAME_MAX, type RoleRow, TenantRules } from '@portal/shared';
import { Alert, Button, Descriptions, Drawer, Form, Input, Tag, Typography } from 'antd';
import { tenantRule } from '@/lib/form-rules';
import { notify } from '@/lib/notify';
import { useCreateRole, useUpdateRole } from '../api/roles';
import { AuthorityTree, GrantedAuthorities } from './authority-tree';

/** What the drawer shows: a role to look at, a custom role to edit, or a new one. */
export type RoleDrawerTarget = { mode: 'view'; role: RoleRow } | { mode: 'edit'; role: RoleRow } | { mode: 'create' };

interface RoleFormValues {
  code: string;
  name: string;
  description: string;
  authorities: string[];
}

const EMPTY_ROLE: RoleFormValues = { code: 'ROLE_', name: '', description: '', authorities: [] };

/** A role's facts and authorities, read-only (system roles, or a custom role before editing). */
function RoleView({ role }: { role: RoleRow }) {
  return (
    <>
      <Descriptions
        column={1}
        size="small"
        className="org-roles__facts"
        items={[
          {
            key: 'name',
            label: '名称',
            children: (
              <>
                {role.name} {role.system && <Tag color="gold">系统</Tag>}
              </>
            ),
          },
          { key: 'code', label: '编码', children: <Typography.Text code>{role.code}</Typography.Text> },
          { key: 'description', label: '描述', children: role.description || '—' },
          { key: 'accounts', label: '账号数', children: role.accountCount },
        ]}
      />
      <Typography.Title level={5} className="org-roles__section-title">
        权限
      </Typography.Title>
      {role.authorities.length === 0 ? (
        <Typography.Text type="secondary">该角色没有控制台权限</Typography.Text>
      ) : (
        <GrantedAuthorities authorities={role.authorities} />
      )}
    </>
  );
}

/** Create or edit a custom role: 名称, 编码 (fixed once created), 描述 and 权限 from the tree. */
function RoleForm({ target, onClose }: { target: Exclude<RoleDrawerTarget, { mode: 'view' }>; onClose(): void }) {
  const [form] = Form.useForm<RoleFormValues>();
  const create = useCreateRole();
  const update = useUpdateRole();
  const role = target.mode === 'edit' ? target.role : null;
  const error = (role ? update.error : create.error)?.message;

  const submit = async () => {
    let values: RoleFormValues;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    const body = { name: values.name.trim(), description: (values.description ?? '').trim(), authorities: values.authorities ?? [] };
    try {
      notify.success(
        role ? await update.mutateAsync({ id: role.id, body }) : await create.mutateAsync({ ...body, code: values.code.trim() }),
      );
      onClose();
    } catch {
      // The server's reason shows above the form (and as the API client's toast); the drawer stays open.
    }
  };

  return (
    <Form
      form={form}
      layout="vertical"
      onFinish={() => void submit()}
      initialValues={role ? { code: role.code, name: role.name, description: role.description, authorities: role.authorities } : EMPTY_ROLE}
    >
      {error && <Alert type="error" showIcon title={error} className="org-roles__form-error" />}
      <Form.Item name="name" label="名称" required rules={[tenantRule(TenantRules.roleName)]}>
        <Input placeholder="如：质检员" maxLength={NAME_MAX} showCount />
      </Form.Item>
      <Form.Item
        name="code"
        label="编码"
        required={!role}
        extra={role ? '编码创建后不能修改' : '以 ROLE_ 开头，大写字母、数字或下划线，创建后不能修改'}
        normalize={(value: string) => value.toUpperCase()}
        rules={role ? [] : [tenantRule(TenantRules.roleCode)]}
      >
        <Input placeholder="ROLE_QUALITY" maxLength={64} disabled={Boolean(role)} className="org-roles__code-input" />
      </Form.Item>
      <Form.Item name="description" label="描述" rules={[tenantRule(TenantRules.description)]}>
        <Input.TextArea placeholder="角色的职责" maxLength={DESCRIPTION_MAX} showCount autoSize={{ minRows: 2, maxRows: 5 }} />
      </Form.Item>
      <Form.Item name="authorities" label="权限" extra="勾选上级即授予其下全部权限">
        <AuthorityTree />
      </Form.Item>
      <div className="org-roles__drawer-footer">
        <Button onClick={onClose}>取消</Button>
        <Button type="primary" htmlType="submit" loading={create.isPending || update.isPending}>
          保存
        </Button>
      </div>
    </Form>
  );
}

const TITLES = { view: '查看角色', edit: '编辑角色', create: '新建角色' } as const;

/** 角色管理's drawer: a role's authorities, or the form of a custom role. */
export function RoleDrawer({ target, onClose }: { target: RoleDrawerTarget | null; onClose(): void }) {
  const title = target ? (target.mode === 'create' ? TITLES.create : `${TITLES[target.mode]}「${target.role.name}」`) : '';
  return (
    <Drawer
      title={title}
      open={target !== null}
      size="min(560px, 100vw)"
      onClose={onClose}
      destroyOnHidden
      mask={{ closable: target?.mode === 'view' }}
    >
      {target?.mode === 'view' && <RoleView role={target.role} />}
      {target && target.mode !== 'view' && <RoleForm target={target} onClose={onClose} />}
    </Drawer>
  );
}
