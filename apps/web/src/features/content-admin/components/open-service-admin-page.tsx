import { ExportOutlined, ReloadOutlined } from '@ant-design/icons';
import {
  Authority,
  OPEN_SERVICE_ICONS,
  OPEN_SERVICE_SORT_MAX,
  OPEN_SERVICE_STATUS_LABELS,
  OPEN_SERVICE_SUMMARY_MAX,
  OPEN_SERVICE_TITLE_MAX,
  OpenServiceMessage,
  OpenServiceRules,
  type OpenServiceIcon,
  type OpenServiceToolAdmin,
  type OpenServiceToolStatus,
} from '@portal/shared';
import {
  Alert,
  Button,
  Col,
  Drawer,
  Form,
  Grid,
  Input,
  InputNumber,
  Radio,
  Row,
  Select,
  Space,
  Table,
  type TableColumnsType,
  Tag,
  Typography,
} from 'antd';
import { useMemo, useState } from 'react';
import { confirmAction } from '@/components/confirm-action';
import { ConsolePage } from '@/components/console-page';
import { usePermission } from '@/components/permission';
import { TOOL_ICON_LABELS, ToolIcon } from '@/components/tool-icon';
import { useRuntimeConfig } from '@/config/runtime-config';
import { notify } from '@/lib/notify';
import { openServiceToolBody, useAdminOpenServiceTools, useUpdateOpenServiceTool } from '../api/open-service-tools';
import { type OpenServiceToolFormValues, toToolBody, toToolForm } from '../lib/open-service-form';
import { RichTextEditor, isEmptyHtml } from './rich-text-editor';
import './content-admin.css';

const STATUS_COLORS: Record<OpenServiceToolStatus, string> = { online: 'success', offline: 'default' };

/** A form rule from the shared rule of a field (the server runs the same on every write). */
const shared = <T,>(rule: (value: T) => string | undefined) => ({
  validator: (_rule: unknown, value: T) => {
    const problem = rule(value);
    return problem ? Promise.reject(new Error(problem)) : Promise.resolve();
  },
});

const ICON_OPTIONS = OPEN_SERVICE_ICONS.map((icon) => ({ value: icon, label: TOOL_ICON_LABELS[icon] }));

/** An icon choice drawn with its preview (the option's text stays its name, for search and screen readers). */
function IconChoice({ icon }: { icon: OpenServiceIcon }) {
  return (
    <span className="open-service-admin__icon-option">
      <span className="open-service-admin__icon open-service-admin__icon--small">
        <ToolIcon name={icon} />
      </span>
      {TOOL_ICON_LABELS[icon]}
    </span>
  );
}

/** Edit one tool in a drawer: title, summary, icon, order, 上线/下线 and the rich-text detail. */
function ToolFormDrawer({ tool, onClose }: { tool: OpenServiceToolAdmin | null; onClose(): void }) {
  const [form] = Form.useForm<OpenServiceToolFormValues>();
  const update = useUpdateOpenServiceTool();
  const icon = Form.useWatch('icon', form) as OpenServiceIcon | undefined;

  const save = async () => {
    if (!tool) return;
    let values: OpenServiceToolFormValues;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    try {
      notify.success(await update.mutateAsync({ id: tool.id, body: toToolBody(values) }));
      onClose();
    } catch {
      // shown by the API client; the drawer stays open
    }
  };

  return (
    <Drawer
      title={tool ? `编辑工具 ${tool.id}「${tool.title}」` : '编辑工具'}
      open={tool !== null}
      size="min(960px, 100vw)"
      onClose={onClose}
      destroyOnHidden
      mask={{ closable: false }}
      footer={
        <div className="article-form__footer">
          <Button onClick={onClose}>取消</Button>
          <Button type="primary" onClick={() => void save()} loading={update.isPending}>
            保存
          </Button>
        </div>
      }
    >
      {tool && (
        <Form form={form} layout="vertical" initialValues={toToolForm(tool)} scrollToFirstError clearOnDestroy>
          <Row gutter={16}>
            <Col xs={24} md={16}>
              <Form.Item
                name="title"
                label="工具名称"
                required
                rules={[shared((value: string | undefined) => OpenServiceRules.title(value ?? ''))]}
              >
                <Input placeholder="如：统一身份认证集成" maxLength={OPEN_SERVICE_TITLE_MAX} showCount />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item
                name="sort"
                label="排序"
                extra="数字小的排在前面"
                required
                rules={[shared((value: number | null | undefined) => OpenServiceRules.sort(value ?? Number.NaN))]}
              >
                <InputNumber min={0} max={OPEN_SERVICE_SORT_MAX} precision={0} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item
            name="summary"
            label="工具简介"
            required
            rules={[shared((value: string | undefined) => OpenServiceRules.summary(value ?? ''))]}
          >
            <Input.TextArea rows={3} maxLength={OPEN_SERVICE_SUMMARY_MAX} showCount placeholder="开放服务中心卡片与详情页标题下显示" />
          </Form.Item>
          <Row gutter={16}>
            <Col xs={24} md={12}>
              <Form.Item label="图标" required>
                <Space align="center" className="open-service-admin__icon-field">
                  <span className="open-service-admin__icon" aria-hidden="true">
                    {icon && <ToolIcon name={icon} />}
                  </span>
                  <Form.Item name="icon" noStyle rules={[shared((value: string | undefined) => OpenServiceRules.icon(value ?? ''))]}>
                    <Select
                      aria-label="图标"
                      options={ICON_OPTIONS}
                      optionRender={(option) => <IconChoice icon={option.value as OpenServiceIcon} />}
                      labelRender={(selected) => <IconChoice icon={selected.value as OpenServiceIcon} />}
                      className="open-service-admin__icon-select"
                    />
                  </Form.Item>
                </Space>
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="status" label="状态" extra="下线的工具不在开放服务中心显示，其链接显示“工具不存在或已下线”">
                <Radio.Group
                  optionType="button"
                  options={[
                    { value: 'online', label: OPEN_SERVICE_STATUS_LABELS.online },
                    { value: 'offline', label: OPEN_SERVICE_STATUS_LABELS.offline },
                  ]}
                />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item
            name="body"
            label="工具介绍"
            required
            extra="建议包含：工具是什么、核心能力、快速开始、开发文档"
            // An editor left empty holds `<p></p>`: nothing to show, so refused like an empty body.
            rules={[
              shared((value: string | undefined) =>
                isEmptyHtml(value) ? OpenServiceMessage.bodyRequired : OpenServiceRules.body(value ?? ''),
              ),
            ]}
          >
            <RichTextEditor placeholder="工具介绍：是什么、核心能力、快速开始、开发文档…" />
          </Form.Item>
        </Form>
      )}
    </Drawer>
  );
}

/**
 * 开放服务: the six tools of the open-service centre (ids 01–06 fixed, spec section 9) in
 * display order; edit a tool in a drawer, take it online or offline. Saving changes the public
 * centre at once.
 */
export function OpenServiceAdminPage() {
  const config = useRuntimeConfig();
  const tools = useAdminOpenServiceTools();
  const update = useUpdateOpenServiceTool();
  const [editing, setEditing] = useState<OpenServiceToolAdmin | null>(null);
  const canEdit = usePermission()([Authority.ContentOpenService]);
  const wide = Grid.useBreakpoint().md ?? true;
  const list = useMemo(() => [...(tools.data ?? [])].sort((a, b) => a.sort - b.sort || a.id.localeCompare(b.id)), [tools.data]);

  const confirmStatus = (tool: OpenServiceToolAdmin) => {
    const goOnline = tool.status === 'offline';
    confirmAction({
      title: goOnline ? '上线工具' : '下线工具',
      content: goOnline
        ? `上线后「${tool.title}」出现在开放服务中心，其链接可以打开。确定上线吗？`
        : `下线后「${tool.title}」不再出现在开放服务中心，已分享的链接将提示工具不存在或已下线。确定下线吗？`,
      okText: goOnline ? '上线' : '下线',
      danger: !goOnline,
      run: () => update.mutateAsync({ id: tool.id, body: { ...openServiceToolBody(tool), status: goOnline ? 'online' : 'offline' } }),
    });
  };

  const columns: TableColumnsType<OpenServiceToolAdmin> = [
    {
      title: '序号',
      dataIndex: 'id',
      width: 90,
      render: (id: string, row) => (
        <div className="content-admin__title-text">
          <Typography.Text strong>{id}</Typography.Text>
          <Typography.Text type="secondary" className="open-service-admin__sort">
            排序 {row.sort}
          </Typography.Text>
        </div>
      ),
    },
    {
      title: '图标',
      dataIndex: 'icon',
      width: 72,
      render: (icon: OpenServiceIcon) => (
        <span className="open-service-admin__icon" role="img" aria-label={TOOL_ICON_LABELS[icon]}>
          <ToolIcon name={icon} />
        </span>
      ),
    },
    { title: '标题', dataIndex: 'title', width: 200, render: (title: string) => <Typography.Text strong>{title}</Typography.Text> },
    {
      title: '简介',
      dataIndex: 'summary',
      render: (summary: string) => (
        <Typography.Paragraph type="secondary" ellipsis={{ rows: 2, tooltip: summary }} className="open-service-admin__summary">
          {summary}
        </Typography.Paragraph>
      ),
    },
    {
      title: '状态',
      dataIndex: 'status',
      width: 90,
      render: (status: OpenServiceToolStatus) => <Tag color={STATUS_COLORS[status]}>{OPEN_SERVICE_STATUS_LABELS[status]}</Tag>,
    },
    // Already China time (yyyy-MM-dd HH:mm:ss).
    { title: '更新时间', dataIndex: 'updatedAt', width: 170 },
    {
      title: '操作',
      key: 'actions',
      width: 190,
      fixed: wide ? 'right' : undefined,
      render: (_: unknown, row) => (
        <Space size={0} className="content-admin__row-actions">
          {canEdit && (
            <>
              <Button type="link" size="small" onClick={() => setEditing(row)}>
                编辑
              </Button>
              <Button type="link" size="small" danger={row.status === 'online'} onClick={() => confirmStatus(row)}>
                {row.status === 'online' ? '下线' : '上线'}
              </Button>
            </>
          )}
          {row.status === 'online' && (
            <Button
              type="link"
              size="small"
              href={`${config.openServiceUrl}?toolId=${row.id}`}
              target="_blank"
              rel="noopener noreferrer"
              icon={<ExportOutlined />}
              iconPlacement="end"
            >
              查看
            </Button>
          )}
        </Space>
      ),
    },
  ];

  return (
    <ConsolePage
      className="content-admin"
      filters={
        <Alert
          type="info"
          showIcon
          title="开放服务中心按排序展示已上线的工具；工具编号 01–06 固定，首页「开发者工具」卡片按编号链接到各工具。保存后门户立即更新。"
        />
      }
      actions={
        <Button icon={<ReloadOutlined />} onClick={() => void tools.refetch()} loading={tools.isFetching}>
          刷新
        </Button>
      }
    >
      <Table<OpenServiceToolAdmin>
        rowKey="id"
        columns={columns}
        dataSource={list}
        loading={tools.isPending}
        pagination={false}
        scroll={{ x: 1000 }}
        size="middle"
        rowClassName={(row) => (row.status === 'online' ? '' : 'content-admin__row--off')}
        locale={{ emptyText: '暂无数据' }}
      />
      <ToolFormDrawer tool={editing} onClose={() => setEditing(null)} />
    </ConsolePage>
  );
}
