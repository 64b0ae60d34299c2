import { FileAddOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { Authority, type IdentifierPrefix, type IdentifierTemplate } from '@portal/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Badge, Button, Empty, Grid, Space, Table, type TableColumnsType, Tabs, Tag, Tooltip, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { confirmAction } from '@/components/confirm-action';
import { ConsolePage } from '@/components/console-page';
import { Permission, usePermission } from '@/components/permission';
import { useSession } from '@/hooks/use-session';
import { queryKeys } from '@/lib/query-keys';
import { usePendingPrefixRequestCount } from '../api/prefix-requests';
import { useDeletePrefix, usePrefixes } from '../api/prefixes';
import { useDeleteTemplate, useTemplates } from '../api/templates';
import { useIdentifierGate } from '../hooks/use-identifier-gate';
import { isCertificationRefusal } from '../lib/certification-refusal';
import { CertificationRequired } from './certification-required';
import { PrefixDialog } from './prefix-dialog';
import { PrefixRequestDialog } from './prefix-request-dialog';
import { PrefixRequestList } from './prefix-request-list';
import { RecordMigrationDialog } from './record-migration-dialog';
import { type TemplateFormTarget, TemplateFormDrawer } from './template-form-drawer';
import { TemplateVersionsDrawer } from './template-versions-drawer';
import './identifier-admin.css';

// The API client shows the server's reason for a refusal (e.g. records still use the template).
const confirmDelete = (title: string, content: string, run: () => Promise<string>) =>
  confirmAction({ title, content, okText: '删除', danger: true, run });

type PageTab = 'prefixes' | 'requests';

/**
 * 前缀与模板: the identifier prefixes the user may see and, for the chosen prefix, its metadata
 * templates with their versions. Platform operators see every enterprise's prefixes and assign,
 * edit and delete them, and decide the enterprises' 前缀申请; enterprise administrators see their own
 * prefixes, manage the templates and 申请标识前缀, and move a template's records to its latest version
 * (批量迁移). Closed until the enterprise is certified.
 */
export function TemplateAdminPage() {
  const gate = useIdentifierGate();
  return gate.open ? <TemplateAdmin /> : <CertificationRequired status={gate.status} />;
}

function TemplateAdmin() {
  // Page state lives here, not in the URL: the tab stays alive while hidden and must keep it.
  const [tab, setTab] = useState<PageTab>('prefixes');
  const [requesting, setRequesting] = useState(false);
  const [chosen, setChosen] = useState<string | null>(null);
  const [editingPrefix, setEditingPrefix] = useState<IdentifierPrefix | 'new' | null>(null);
  const [editingTemplate, setEditingTemplate] = useState<TemplateFormTarget | null>(null);
  const [history, setHistory] = useState<IdentifierTemplate | null>(null);
  const [migrating, setMigrating] = useState<IdentifierTemplate | null>(null);
  const prefixes = usePrefixes();
  const templates = useTemplates();
  const removePrefix = useDeletePrefix();
  const removeTemplate = useDeleteTemplate();
  const pendingRequests = usePendingPrefixRequestCount();
  const queryClient = useQueryClient();
  const session = useSession();
  const can = usePermission();
  const operator = can([Authority.IdentifierAll]);
  const canTemplates = can([Authority.IdentifierTemplate]);
  // 批量迁移 changes many records at once: identifier:record:manage, as the server enforces.
  const canMigrate = can([Authority.IdentifierRecordManage]);
  // Operators assign prefixes directly; an enterprise asks for one.
  const canRequest = canTemplates && !operator;
  const wide = Grid.useBreakpoint().md ?? true;

  const prefixList = useMemo(() => prefixes.data ?? [], [prefixes.data]);
  // The chosen prefix, or the first one until the user picks another (or the chosen one is gone).
  const current = prefixList.find((p) => p.prefix === chosen) ?? prefixList[0];
  const templateList = useMemo(() => (templates.data ?? []).filter((t) => t.prefix === current?.prefix), [templates.data, current]);

  if ([prefixes.error, templates.error, pendingRequests.error].some(isCertificationRefusal)) {
    return <CertificationRequired status={session?.certificationStatus ?? 'none'} />;
  }

  const prefixColumns: TableColumnsType<IdentifierPrefix> = [
    { title: '标识前缀', dataIndex: 'prefix', width: 130, render: (prefix: string) => <Typography.Text strong>{prefix}</Typography.Text> },
    { title: '名称', dataIndex: 'name', ellipsis: { showTitle: true } },
    ...(operator
      ? ([
          { title: '所属企业', dataIndex: 'enterpriseName', width: 240, ellipsis: { showTitle: true } },
        ] satisfies TableColumnsType<IdentifierPrefix>)
      : []),
    { title: '模板数', dataIndex: 'templateCount', width: 80, align: 'right' },
    { title: '标识数', dataIndex: 'recordCount', width: 90, align: 'right' },
    { title: '分配时间', dataIndex: 'createdAt', width: 170 },
    ...(operator
      ? ([
          {
            title: '操作',
            key: 'actions',
            width: 120,
            fixed: wide ? 'right' : undefined,
            render: (_: unknown, row) => (
              <Space size={0} className="identifier-admin__row-actions">
                <Button type="link" size="small" onClick={() => setEditingPrefix(row)}>
                  编辑
                </Button>
                <Button
                  type="link"
                  size="small"
                  danger
                  onClick={() =>
                    confirmDelete('删除标识前缀', `确定删除前缀 ${row.prefix} 吗？前缀下须没有模板和标识。`, () =>
                      removePrefix.mutateAsync(row.prefix),
                    )
                  }
                >
                  删除
                </Button>
              </Space>
            ),
          },
        ] satisfies TableColumnsType<IdentifierPrefix>)
      : []),
  ];

  const templateColumns: TableColumnsType<IdentifierTemplate> = [
    { title: '模板名称', dataIndex: 'name', render: (name: string) => <Typography.Text strong>{name}</Typography.Text> },
    {
      title: '版本',
      dataIndex: 'version',
      width: 120,
      render: (version: number, row) => (
        <Space size={4}>
          <Tag color="blue">v{version}</Tag>
          <Typography.Link onClick={() => setHistory(row)}>历史</Typography.Link>
        </Space>
      ),
    },
    {
      title: '数据项',
      dataIndex: 'items',
      width: 150,
      render: (items: IdentifierTemplate['items']) => {
        const active = items.filter((i) => i.state === 1);
        const retired = items.length - active.length;
        return (
          <Tooltip title={active.map((i) => i.name).join('、')}>
            <span>
              {active.length} 项在用{retired > 0 ? `，${retired} 项停用` : ''}
            </span>
          </Tooltip>
        );
      },
    },
    { title: '标识数', dataIndex: 'recordCount', width: 90, align: 'right' },
    { title: '更新时间', dataIndex: 'updatedAt', width: 170 },
    {
      title: '操作',
      key: 'actions',
      width: canMigrate ? 200 : 120,
      fixed: wide ? 'right' : undefined,
      render: (_: unknown, row) =>
        current && (
          <Space size={0} className="identifier-admin__row-actions" wrap>
            {canTemplates && (
              <Button type="link" size="small" onClick={() => setEditingTemplate({ prefix: current, template: row })}>
                编辑
              </Button>
            )}
            {/* Records written with older versions move to the latest one in bulk. */}
            {canMigrate && row.version > 1 && row.recordCount > 0 && (
              <Button type="link" size="small" onClick={() => setMigrating(row)}>
                批量迁移
              </Button>
            )}
            {canTemplates && (
              <Button
                type="link"
                size="small"
                danger
                onClick={() =>
                  confirmDelete('删除模板', `确定删除模板「${row.name}」及其全部版本吗？有标识使用的模板不能删除。`, () =>
                    removeTemplate.mutateAsync(row.id),
                  )
                }
              >
                删除
              </Button>
            )}
          </Space>
        ),
    },
  ];

  const prefixesAndTemplates = (
    <>
      <section className="identifier-admin__section" aria-label="标识前缀">
        <h3 className="identifier-admin__section-title">标识前缀</h3>
        <Table<IdentifierPrefix>
          rowKey="prefix"
          columns={prefixColumns}
          dataSource={prefixList}
          loading={prefixes.isPending}
          pagination={false}
          scroll={{ x: operator ? 1000 : 700 }}
          size="middle"
          rowSelection={{
            type: 'radio',
            selectedRowKeys: current ? [current.prefix] : [],
            onChange: (keys) => setChosen(String(keys[0])),
            columnWidth: 40,
          }}
          onRow={(row) => ({ onClick: () => setChosen(row.prefix), className: 'identifier-admin__clickable' })}
          locale={{
            emptyText: (
              <Empty
                description={
                  operator
                    ? '暂无数据'
                    : canRequest
                      ? '本企业尚未分配标识前缀，可点击“申请标识前缀”提交申请'
                      : '本企业尚未分配标识前缀，请联系平台运营人员'
                }
                image={Empty.PRESENTED_IMAGE_SIMPLE}
              />
            ),
          }}
        />
      </section>

      {current && (
        <section className="identifier-admin__section" aria-label="元数据模板">
          <div className="identifier-admin__section-head">
            <h3 className="identifier-admin__section-title">
              元数据模板 <Typography.Text type="secondary">{`${current.prefix} ${current.name}`}</Typography.Text>
            </h3>
            <Permission codes={[Authority.IdentifierTemplate]}>
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditingTemplate({ prefix: current })}>
                新建模板
              </Button>
            </Permission>
          </div>
          <Table<IdentifierTemplate>
            rowKey="id"
            columns={templateColumns}
            dataSource={templateList}
            loading={templates.isPending}
            pagination={false}
            scroll={{ x: 860 }}
            size="middle"
            locale={{ emptyText: '暂无数据' }}
          />
        </section>
      )}
    </>
  );

  return (
    <ConsolePage
      className="identifier-admin"
      filters={
        <Typography.Paragraph type="secondary" className="identifier-admin__intro">
          {operator
            ? '标识前缀由平台运营人员分配给企业，或审批企业的前缀申请；企业在自己的前缀下定义元数据模板，标识按模板填写数据项。'
            : '标识前缀由平台运营人员分配，也可申请标识前缀、经平台审批后分配。请在前缀下定义元数据模板，标识按模板填写数据项。'}
        </Typography.Paragraph>
      }
      actions={
        <>
          <Button
            icon={<ReloadOutlined />}
            onClick={() =>
              void Promise.all([
                prefixes.refetch(),
                templates.refetch(),
                queryClient.invalidateQueries({ queryKey: queryKeys.identifiers.prefixRequests.all }),
              ])
            }
            loading={prefixes.isFetching || templates.isFetching}
          >
            刷新
          </Button>
          <Permission codes={[Authority.IdentifierAll]}>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditingPrefix('new')}>
              分配前缀
            </Button>
          </Permission>
          {canRequest && (
            <Button type="primary" icon={<FileAddOutlined />} onClick={() => setRequesting(true)}>
              申请标识前缀
            </Button>
          )}
        </>
      }
    >
      <Tabs
        activeKey={tab}
        onChange={(key) => setTab(key as PageTab)}
        items={[
          { key: 'prefixes', label: '前缀与模板', children: prefixesAndTemplates },
          {
            key: 'requests',
            label: (
              <Badge count={pendingRequests.data ?? 0} size="small" offset={[8, -2]}>
                前缀申请
              </Badge>
            ),
            children: <PrefixRequestList operator={operator} />,
          },
        ]}
      />

      {operator && <PrefixDialog editing={editingPrefix} onClose={() => setEditingPrefix(null)} />}
      {canRequest && (
        <PrefixRequestDialog
          open={requesting}
          onClose={() => setRequesting(false)}
          onSubmitted={() => {
            setRequesting(false);
            setTab('requests');
          }}
        />
      )}
      <TemplateFormDrawer target={editingTemplate} onClose={() => setEditingTemplate(null)} />
      <TemplateVersionsDrawer template={history} onClose={() => setHistory(null)} />
      {canMigrate && <RecordMigrationDialog template={migrating} onClose={() => setMigrating(null)} />}
    </ConsolePage>
  );
}
