import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { APP_URL_MAX, ATTRIBUTE_LABELS, Authority, RELEASABLE_ATTRIBUTES, SsoRules, SubscriptionMessage } from '@portal/shared';
import {
  Alert,
  AutoComplete,
  Button,
  Checkbox,
  Col,
  Divider,
  Form,
  type FormRule,
  Input,
  Modal,
  Radio,
  Row,
  Space,
  Switch,
  Table,
  type TableColumnsType,
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
import { tenantRule, trimmed } from '@/lib/form-rules';
import { notify } from '@/lib/notify';
import {
  type AdminApplication,
  type ApplicationInput,
  type ApplicationStatus,
  applicationInput,
  useAdminApplications,
  useCreateApplication,
  useDeleteApplication,
  useReorderApplications,
  useUpdateApplication,
} from '../api/applications';
import { moved } from '../lib/reorder';
import { RichTextEditor } from './rich-text-editor';
import './content-admin.css';

/** Spec section 9: the home carousel shows at most 6 recommended applications. */
export const HOME_CAROUSEL_MAX = 6;

export const ApplicationFormMessage = {
  nameRequired: '请输入应用名称',
  nameTooLong: '应用名称不能超过 64 个字符',
  descriptionRequired: '请输入应用简介',
  descriptionTooLong: '应用简介不能超过 500 个字符',
  imageRequired: '请上传应用图片',
  categoryRequired: '请输入应用分类',
  categoryTooLong: '应用分类不能超过 32 个字符',
  providerRequired: '请输入提供方',
  providerTooLong: '提供方不能超过 100 个字符',
} as const;

const EMPTY_APPLICATION: ApplicationInput = {
  name: '',
  applicationDescription: '',
  imagePath: '',
  iconPath: '',
  category: '',
  provider: '',
  content: '',
  recommended: true,
  status: 'published',
  serviceUrl: '',
  logoutUrl: '',
  attributes: [],
};

const ATTRIBUTE_OPTIONS = RELEASABLE_ATTRIBUTES.map((a) => ({ value: a, label: ATTRIBUTE_LABELS[a] }));
/** 服务地址 is optional (empty: not on single sign-on); a given one follows 应用列表's rule (shared with the server). */
const serviceUrlProblem = (value: string) => (value ? SsoRules.servicePrefix(value) : undefined);
/** 注销地址 and 返回属性 belong to an application on single sign-on: they need its 服务地址 first (as the server says). */
const needsServiceUrl: FormRule = ({ getFieldValue }) => ({
  validator: (_rule, value: unknown) => {
    const given = Array.isArray(value) ? value.length > 0 : trimmed(value) !== '';
    return given && !trimmed(getFieldValue('serviceUrl')) ? Promise.reject(new Error(SubscriptionMessage.serviceFirst)) : Promise.resolve();
  },
});

function ApplicationDialog({
  editing,
  categories,
  onClose,
}: {
  editing: AdminApplication | 'new' | null;
  categories: string[];
  onClose(): void;
}) {
  const [form] = Form.useForm<ApplicationInput>();
  const create = useCreateApplication();
  const update = useUpdateApplication();
  const existing = editing !== null && editing !== 'new' ? editing : null;

  const submit = async () => {
    let values: ApplicationInput;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    const input: ApplicationInput = {
      ...values,
      name: values.name.trim(),
      applicationDescription: values.applicationDescription.trim(),
      category: values.category.trim(),
      provider: values.provider.trim(),
      iconPath: values.iconPath ?? '',
      content: values.content ?? '',
      serviceUrl: (values.serviceUrl ?? '').trim(),
      logoutUrl: (values.logoutUrl ?? '').trim(),
      attributes: values.attributes ?? [],
    };
    try {
      const msg = existing ? await update.mutateAsync({ uuid: existing.applicationUuid, input }) : await create.mutateAsync(input);
      notify.success(msg);
      onClose();
    } catch {
      // shown by the API client; the dialog stays open
    }
  };

  return (
    <Modal
      title={existing ? `编辑应用「${existing.name}」` : '新建应用'}
      open={editing !== null}
      onCancel={onClose}
      onOk={() => void submit()}
      okText="保存"
      cancelText="取消"
      confirmLoading={create.isPending || update.isPending}
      width={{ xs: '100%', md: 860 }}
      destroyOnHidden
      mask={{ closable: false }}
    >
      <Form form={form} layout="vertical" initialValues={existing ? applicationInput(existing) : EMPTY_APPLICATION} clearOnDestroy>
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item
              name="name"
              label="应用名称"
              rules={[
                { required: true, whitespace: true, message: ApplicationFormMessage.nameRequired },
                { max: 64, message: ApplicationFormMessage.nameTooLong },
              ]}
            >
              <Input placeholder="如：设备看板" maxLength={64} />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item
              name="category"
              label="分类"
              rules={[
                { required: true, whitespace: true, message: ApplicationFormMessage.categoryRequired },
                { max: 32, message: ApplicationFormMessage.categoryTooLong },
              ]}
            >
              <AutoComplete
                placeholder="如：数据分析"
                options={categories.map((c) => ({ value: c }))}
                filterOption={(input, option) => String(option?.value ?? '').includes(input)}
              />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item
              name="provider"
              label="提供方"
              rules={[
                { required: true, whitespace: true, message: ApplicationFormMessage.providerRequired },
                { max: 100, message: ApplicationFormMessage.providerTooLong },
              ]}
            >
              <Input placeholder="如：平台运营中心" maxLength={100} />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item
          name="applicationDescription"
          label="应用简介"
          rules={[
            { required: true, whitespace: true, message: ApplicationFormMessage.descriptionRequired },
            { max: 500, message: ApplicationFormMessage.descriptionTooLong },
          ]}
        >
          <Input.TextArea rows={3} maxLength={500} showCount placeholder="首页推荐卡片与应用中心列表上显示" />
        </Form.Item>
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item name="imagePath" label="应用图片" rules={[{ required: true, message: ApplicationFormMessage.imageRequired }]}>
              <ImageUpload shape="wide" hint="首页推荐卡片的配图，建议 4:3" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="iconPath" label="应用图标">
              <ImageUpload hint="可选，方形图标" />
            </Form.Item>
          </Col>
        </Row>
        <Row gutter={16}>
          <Col xs={12} md={12}>
            <Form.Item name="recommended" label="首页推荐" valuePropName="checked" extra={`首页轮播展示排在最前的 ${HOME_CAROUSEL_MAX} 个`}>
              <Switch checkedChildren="推荐" unCheckedChildren="不推荐" />
            </Form.Item>
          </Col>
          <Col xs={12} md={12}>
            <Form.Item name="status" label="状态">
              <Radio.Group
                optionType="button"
                options={[
                  { value: 'published', label: '上架' },
                  { value: 'offline', label: '下架' },
                ]}
              />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name="content" label="应用详情">
          <RichTextEditor placeholder="应用中心详情页的介绍（功能、场景、截图…）" />
        </Form.Item>
        <Divider titlePlacement="start">单点登录</Divider>
        <Alert
          className="content-admin__tip"
          type="info"
          showIcon
          title="填写服务地址后，企业可在应用中心申请使用此应用；审核通过后，企业员工经授权即可通过统一身份认证登录。留空则不接入单点登录，企业不能申请。"
        />
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item
              name="serviceUrl"
              label="服务地址"
              rules={[tenantRule(serviceUrlProblem)]}
              extra="应用的访问地址前缀，以此开头的地址才能获得票据；须为 https（仅 localhost 与 127.0.0.1 可使用 http）"
            >
              <Input placeholder="https://app.example.com/" inputMode="url" maxLength={APP_URL_MAX} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="logoutUrl"
              label="注销地址"
              rules={[tenantRule(SsoRules.logoutUrl), needsServiceUrl]}
              dependencies={['serviceUrl']}
              extra="单点登出时向此地址发送注销通知；留空则发往签发票据时的服务地址"
            >
              <Input placeholder="https://app.example.com/logout" inputMode="url" maxLength={APP_URL_MAX} />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item
          name="attributes"
          label="返回属性"
          rules={[needsServiceUrl]}
          dependencies={['serviceUrl']}
          extra="票据校验（CAS 3.0）时随账号一并返回给应用的属性"
        >
          <Checkbox.Group options={ATTRIBUTE_OPTIONS} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * 推荐应用: every application of the application center in display order; recommended ones fill the
 * home carousel. Create and edit in a dialog, switch recommendation and listing, move up and down,
 * delete once withdrawn.
 */
export function RecommendAdminPage() {
  const config = useRuntimeConfig();
  const apps = useAdminApplications();
  const update = useUpdateApplication();
  const remove = useDeleteApplication();
  const reorder = useReorderApplications();
  const [editing, setEditing] = useState<AdminApplication | 'new' | null>(null);
  const canEdit = usePermission()([Authority.ContentRecommend]);
  const wide = Grid.useBreakpoint().md ?? true;
  const list = useMemo(() => apps.data ?? [], [apps.data]);
  const categories = useMemo(() => [...new Set(list.map((a) => a.category))], [list]);
  // Which applications the home carousel shows: recommended, listed, first six in order.
  const carousel = useMemo(
    () =>
      new Set(
        list
          .filter((a) => a.recommended && a.status === 'published')
          .slice(0, HOME_CAROUSEL_MAX)
          .map((a) => a.applicationUuid),
      ),
    [list],
  );

  const toggle = async (app: AdminApplication, patch: Partial<ApplicationInput>) => {
    try {
      notify.success(await update.mutateAsync({ uuid: app.applicationUuid, input: { ...applicationInput(app), ...patch } }));
    } catch {
      // shown by the API client
    }
  };
  const move = (index: number, delta: -1 | 1) => {
    reorder.mutate(moved(list, index, delta).map((a) => a.applicationUuid));
  };
  const confirmDelete = (app: AdminApplication) =>
    confirmAction({
      title: '删除应用',
      content:
        app.status === 'published'
          ? `「${app.name}」仍在上架，须先下架再删除。确定要尝试删除吗？`
          : `确定删除「${app.name}」吗？删除后不可恢复。`,
      okText: '删除',
      danger: true,
      run: () => remove.mutateAsync(app.applicationUuid),
    });

  const columns: TableColumnsType<AdminApplication> = [
    {
      title: '顺序',
      key: 'order',
      width: 110,
      render: (_: unknown, _row, index) => (
        <OrderCell index={index} count={list.length} disabled={!canEdit || reorder.isPending} onMove={(delta) => move(index, delta)} />
      ),
    },
    {
      title: '应用',
      dataIndex: 'name',
      render: (name: string, row) => (
        <div className="content-admin__title-cell">
          <img className="content-admin__thumb" src={fileUrl(config, row.imagePath)} alt="" loading="lazy" />
          <div className="content-admin__title-text">
            <Space size={4}>
              <Typography.Text strong>{name}</Typography.Text>
              {carousel.has(row.applicationUuid) && <Tag color="gold">首页轮播</Tag>}
              {row.serviceUrl && <Tag color="blue">单点登录</Tag>}
            </Space>
            <Typography.Text type="secondary" ellipsis className="content-admin__summary">
              {row.applicationDescription}
            </Typography.Text>
          </div>
        </div>
      ),
    },
    { title: '分类', dataIndex: 'category', width: 110 },
    { title: '提供方', dataIndex: 'provider', width: 160, ellipsis: true },
    {
      title: '推荐',
      dataIndex: 'recommended',
      width: 90,
      render: (recommended: boolean, row) => (
        <Switch
          size="small"
          checked={recommended}
          disabled={!canEdit}
          aria-label={`${row.name} 首页推荐`}
          onChange={(checked) => void toggle(row, { recommended: checked })}
        />
      ),
    },
    {
      title: '上架',
      dataIndex: 'status',
      width: 90,
      render: (status: ApplicationStatus, row) => (
        <Switch
          size="small"
          checked={status === 'published'}
          disabled={!canEdit}
          aria-label={`${row.name} 上架`}
          onChange={(checked) => void toggle(row, { status: checked ? 'published' : 'offline' })}
        />
      ),
    },
    rowActionsColumn({ wide, canEdit, onEdit: setEditing, onDelete: confirmDelete }),
  ];

  return (
    <ConsolePage
      className="content-admin"
      filters={
        <Alert
          type="info"
          showIcon
          title={`首页「应用推荐」轮播展示排在最前的 ${HOME_CAROUSEL_MAX} 个已上架的推荐应用；应用中心列出全部已上架应用。上架中的应用须先下架再删除。`}
        />
      }
      actions={
        <>
          <Button icon={<ReloadOutlined />} onClick={() => void apps.refetch()} loading={apps.isFetching}>
            刷新
          </Button>
          {canEdit && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
              新建应用
            </Button>
          )}
        </>
      }
    >
      <Table<AdminApplication>
        rowKey="applicationUuid"
        columns={columns}
        dataSource={list}
        loading={apps.isPending}
        pagination={false}
        scroll={{ x: 960 }}
        size="middle"
        locale={{ emptyText: '暂无数据' }}
      />
      <ApplicationDialog editing={editing} categories={categories} onClose={() => setEditing(null)} />
    </ConsolePage>
  );
}
