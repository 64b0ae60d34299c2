import { ExportOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { Authority } from '@portal/shared';
import {
  Alert,
  Button,
  Col,
  Form,
  Input,
  Modal,
  Radio,
  Row,
  Space,
  Switch,
  Table,
  type TableColumnsType,
  Tabs,
  Tag,
  Typography,
  Grid,
} from 'antd';
import { useMemo, useState } from 'react';
import { confirmAction } from '@/components/confirm-action';
import { OrderCell } from './order-cell';
import { rowActionsColumn } from './row-actions-column';
import { ConsolePage } from '@/components/console-page';
import { ImageUpload } from '@/components/image-upload';
import { usePermission } from '@/components/permission';
import { fileUrl, useRuntimeConfig } from '@/config/runtime-config';
import { notify } from '@/lib/notify';
import {
  type AdminHomeBlock,
  type HomeBlockInput,
  type HomeBlockKind,
  homeBlockInput,
  useAdminHomeBlocks,
  useCreateHomeBlock,
  useDeleteHomeBlock,
  useReorderHomeBlocks,
  useUpdateHomeBlock,
} from '../api/home-blocks';
import { moved } from '../lib/reorder';
import { KPI_NUMBER, KPI_NUMBER_MESSAGE, LINK_URL_MESSAGE, isLinkUrl } from '../lib/url-rules';
import './content-admin.css';

export const HOME_BLOCK_KINDS: { kind: HomeBlockKind; name: string; hint: string }[] = [
  { kind: 'banner', name: '横幅', hint: '首页顶部轮播，每 5 秒切换；至少保留一个启用的横幅。图片建议 1920×480。' },
  { kind: 'kpi', name: '指标', hint: '横幅下方的平台指标，每行 4 个，最多 8 个。' },
  { kind: 'link', name: '快捷入口', hint: '「供需互助」区的入口卡片。' },
  { kind: 'award', name: '荣誉资质', hint: '「荣誉资质」区的奖项与认证，链接可不填。' },
];
const KIND_NAMES = Object.fromEntries(HOME_BLOCK_KINDS.map((k) => [k.kind, k.name])) as Record<HomeBlockKind, string>;

export const HomeBlockFormMessage = {
  titleRequired: '请输入标题',
  kpiNameRequired: '请输入指标名称',
  titleTooLong: '标题不能超过 100 个字符',
  subtitleTooLong: '副标题不能超过 300 个字符',
  imageRequired: '请上传图片',
  linkRequired: '请输入链接地址',
  linkTooLong: '链接地址不能超过 500 个字符',
  kpiRequired: '请输入指标数值',
  uomTooLong: '单位不能超过 16 个字符',
} as const;

const emptyBlock = (kind: HomeBlockKind): HomeBlockInput =>
  kind === 'kpi'
    ? { kind, title: '', icon: '', kpi: '', uom: '', enabled: true }
    : { kind, title: '', subtitle: '', icon: '', linkUrl: '', openUrlFlag: 0, enabled: true };

function HomeBlockDialog({ editing, onClose }: { editing: AdminHomeBlock | HomeBlockKind | null; onClose(): void }) {
  const [form] = Form.useForm<HomeBlockInput>();
  const create = useCreateHomeBlock();
  const update = useUpdateHomeBlock();
  const existing = editing !== null && typeof editing === 'object' ? editing : null;
  const kind: HomeBlockKind = existing ? existing.kind : typeof editing === 'string' ? editing : 'banner';
  const isKpi = kind === 'kpi';

  const submit = async () => {
    let values: HomeBlockInput;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    const input: HomeBlockInput = { ...values, kind, title: values.title.trim() };
    try {
      const msg = existing ? await update.mutateAsync({ id: existing.id, input }) : await create.mutateAsync(input);
      notify.success(msg);
      onClose();
    } catch {
      // shown by the API client; the dialog stays open
    }
  };

  return (
    <Modal
      title={`${existing ? '编辑' : '新建'}${KIND_NAMES[kind]}`}
      open={editing !== null}
      onCancel={onClose}
      onOk={() => void submit()}
      okText="保存"
      cancelText="取消"
      confirmLoading={create.isPending || update.isPending}
      width={{ xs: '100%', md: 640 }}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={existing ? homeBlockInput(existing) : emptyBlock(kind)} clearOnDestroy>
        <Form.Item
          name="title"
          label={isKpi ? '指标名称' : '标题'}
          rules={[
            {
              required: true,
              whitespace: true,
              message: isKpi ? HomeBlockFormMessage.kpiNameRequired : HomeBlockFormMessage.titleRequired,
            },
            { max: 100, message: HomeBlockFormMessage.titleTooLong },
          ]}
        >
          <Input maxLength={100} placeholder={isKpi ? '如：接入设备' : '如：工业互联网平台 赋能智能制造'} />
        </Form.Item>
        {isKpi ? (
          <Row gutter={16}>
            <Col span={12}>
              <Form.Item
                name="kpi"
                label="指标数值"
                rules={[
                  { required: true, whitespace: true, message: HomeBlockFormMessage.kpiRequired },
                  { pattern: KPI_NUMBER, message: KPI_NUMBER_MESSAGE },
                ]}
              >
                <Input maxLength={17} placeholder="如：130 或 2.1" inputMode="decimal" />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item name="uom" label="单位" rules={[{ max: 16, message: HomeBlockFormMessage.uomTooLong }]}>
                <Input maxLength={16} placeholder="如：万台" />
              </Form.Item>
            </Col>
          </Row>
        ) : (
          <>
            <Form.Item name="subtitle" label="副标题" rules={[{ max: 300, message: HomeBlockFormMessage.subtitleTooLong }]}>
              <Input.TextArea rows={2} maxLength={300} showCount placeholder={kind === 'award' ? '如：颁发单位' : '一句话说明'} />
            </Form.Item>
            <Form.Item
              name="linkUrl"
              label="链接地址"
              extra="http(s) 地址，或以 / 开头的站内路径（如 /settled）"
              rules={[
                { required: kind !== 'award', whitespace: true, message: HomeBlockFormMessage.linkRequired },
                { max: 500, message: HomeBlockFormMessage.linkTooLong },
                {
                  validator: (_rule, value: string | undefined) =>
                    !value?.trim() || isLinkUrl(value) ? Promise.resolve() : Promise.reject(new Error(LINK_URL_MESSAGE)),
                },
              ]}
            >
              <Input maxLength={500} placeholder="/settled 或 https://…" />
            </Form.Item>
            <Form.Item name="openUrlFlag" label="打开方式">
              <Radio.Group
                options={[
                  { value: 0, label: '当前窗口' },
                  { value: 1, label: '新窗口' },
                ]}
              />
            </Form.Item>
          </>
        )}
        <Form.Item
          name="icon"
          label={kind === 'banner' ? '背景图片' : '图标'}
          rules={[{ required: true, message: HomeBlockFormMessage.imageRequired }]}
        >
          <ImageUpload shape={kind === 'banner' ? 'wide' : 'square'} hint={kind === 'banner' ? '建议 1920×480' : '建议 80×80 方形图标'} />
        </Form.Item>
        <Form.Item name="enabled" label="启用" valuePropName="checked" extra="停用的区块保留在这里，不在首页显示">
          <Switch checkedChildren="启用" unCheckedChildren="停用" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function KindTable({
  kind,
  blocks,
  canEdit,
  onEdit,
}: {
  kind: HomeBlockKind;
  blocks: AdminHomeBlock[];
  canEdit: boolean;
  onEdit(b: AdminHomeBlock): void;
}) {
  const config = useRuntimeConfig();
  const update = useUpdateHomeBlock();
  const remove = useDeleteHomeBlock();
  const reorder = useReorderHomeBlocks();
  const wide = Grid.useBreakpoint().md ?? true;
  const isKpi = kind === 'kpi';

  const toggle = async (block: AdminHomeBlock, enabled: boolean) => {
    try {
      notify.success(await update.mutateAsync({ id: block.id, input: { ...homeBlockInput(block), enabled } }));
    } catch {
      // shown by the API client (e.g. the last enabled banner)
    }
  };
  const confirmDelete = (block: AdminHomeBlock) =>
    confirmAction({
      title: `删除${KIND_NAMES[kind]}`,
      content: `确定删除「${block.title}」吗？删除后不可恢复；只想暂时不显示可以停用。`,
      okText: '删除',
      danger: true,
      run: () => remove.mutateAsync(block.id),
    });

  const columns: TableColumnsType<AdminHomeBlock> = [
    {
      title: '顺序',
      key: 'order',
      width: 110,
      render: (_: unknown, _row, index) => (
        <OrderCell
          index={index}
          count={blocks.length}
          disabled={!canEdit || reorder.isPending}
          onMove={(delta) => reorder.mutate({ kind, ids: moved(blocks, index, delta).map((b) => b.id) })}
        />
      ),
    },
    {
      title: isKpi ? '指标' : '标题',
      dataIndex: 'title',
      render: (title: string, row) => (
        <div className="content-admin__title-cell">
          <img
            className={`content-admin__thumb content-admin__thumb--${kind === 'banner' ? 'banner' : 'square'}`}
            src={fileUrl(config, row.icon)}
            alt=""
            loading="lazy"
          />
          <div className="content-admin__title-text">
            <Typography.Text strong>{title}</Typography.Text>
            {isKpi ? (
              <Typography.Text type="secondary">
                {row.kpi}
                {row.uom}
              </Typography.Text>
            ) : (
              row.subtitle && (
                <Typography.Text type="secondary" ellipsis className="content-admin__summary">
                  {row.subtitle}
                </Typography.Text>
              )
            )}
          </div>
        </div>
      ),
    },
    ...(isKpi
      ? []
      : ([
          {
            title: '链接',
            dataIndex: 'linkUrl',
            width: 260,
            render: (url: string, row) =>
              url ? (
                <Space size={4}>
                  <Typography.Text className="content-admin__link-text" ellipsis={{ tooltip: url }}>
                    {url}
                  </Typography.Text>
                  {row.openUrlFlag === 1 && (
                    <Tag icon={<ExportOutlined />} color="processing">
                      新窗口
                    </Tag>
                  )}
                </Space>
              ) : (
                <Typography.Text type="secondary">无</Typography.Text>
              ),
          },
        ] satisfies TableColumnsType<AdminHomeBlock>)),
    {
      title: '启用',
      dataIndex: 'enabled',
      width: 80,
      render: (enabled: boolean, row) => (
        <Switch
          size="small"
          checked={enabled}
          disabled={!canEdit}
          aria-label={`${row.title} 启用`}
          onChange={(on) => void toggle(row, on)}
        />
      ),
    },
    rowActionsColumn({ wide, canEdit, onEdit: onEdit, onDelete: confirmDelete }),
  ];

  return (
    <Table<AdminHomeBlock>
      rowKey="id"
      columns={columns}
      dataSource={blocks}
      pagination={false}
      scroll={{ x: isKpi ? 640 : 900 }}
      size="middle"
      rowClassName={(row) => (row.enabled ? '' : 'content-admin__row--off')}
      locale={{ emptyText: '暂无数据' }}
    />
  );
}

/**
 * 首页配置: the public home's banners, KPI tiles, quick links and awards, one tab each, in display
 * order with an enabled switch; create and edit in a dialog, move up and down, delete.
 */
export function HomeBlocksAdminPage() {
  const blocks = useAdminHomeBlocks();
  const [kind, setKind] = useState<HomeBlockKind>('banner');
  const [editing, setEditing] = useState<AdminHomeBlock | HomeBlockKind | null>(null);
  const canEdit = usePermission()([Authority.ContentHome]);
  const byKind = useMemo(() => {
    const all = blocks.data ?? [];
    return Object.fromEntries(
      HOME_BLOCK_KINDS.map(({ kind: k }) => [k, all.filter((b) => b.kind === k).sort((a, b) => a.sort - b.sort || a.id - b.id)]),
    ) as Record<HomeBlockKind, AdminHomeBlock[]>;
  }, [blocks.data]);
  const current = HOME_BLOCK_KINDS.find((k) => k.kind === kind) ?? HOME_BLOCK_KINDS[0]!;

  return (
    <ConsolePage
      className="content-admin"
      actions={
        <>
          <Button icon={<ReloadOutlined />} onClick={() => void blocks.refetch()} loading={blocks.isFetching}>
            刷新
          </Button>
          {canEdit && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(kind)}>
              新建{current.name}
            </Button>
          )}
        </>
      }
      filters={<Alert type="info" showIcon title={`${current.hint}保存后首页立即更新（多实例部署时最长 30 秒）。`} />}
    >
      <Tabs
        activeKey={kind}
        onChange={(k) => setKind(k as HomeBlockKind)}
        items={HOME_BLOCK_KINDS.map((k) => ({
          key: k.kind,
          label: `${k.name}（${byKind[k.kind].length}）`,
          children: blocks.isPending ? (
            <Table loading columns={[]} dataSource={[]} pagination={false} />
          ) : (
            <KindTable kind={k.kind} blocks={byKind[k.kind]} canEdit={canEdit} onEdit={setEditing} />
          ),
        }))}
      />
      <HomeBlockDialog editing={editing} onClose={() => setEditing(null)} />
    </ConsolePage>
  );
}
