import {
  type AuthSourceSummary,
  SYNC_MAPPING_DEFAULTS,
  type SyncJob,
  SyncMessage,
  type SyncRunItem,
  type SyncRunSummary,
} from '@portal/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Modal } from 'antd';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { notify } from '@/lib/notify';
import { type FakeApi, createFakeApi, envelope } from '@/testing/fake-api';
import { fieldErrors } from '@/testing/form';
import { renderWithProviders } from '@/testing/render';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { chooseOption } from '@/testing/select';
import { menusEntry } from '@/testing/session';
import { SYNC_PATH, SyncPage } from '../components/sync-page';
import { CRON_REQUIRED } from '../lib/cron';
import { SOURCE_REQUIRED } from '../lib/sync-job-form';

const fake = vi.hoisted(() => ({ api: undefined as FakeApi | undefined }));
vi.mock('@/lib/api', () => ({ api: () => fake.api }));
vi.mock('@/lib/notify', () => ({ notify: { error: vi.fn(), success: vi.fn() } }));

const API = '/web-api/console/v1/auth/sync';
const SOURCES_API = '/web-api/console/v1/auth/sources';
const NO_COUNTS = { create: 0, update: 0, disable: 0, move: 0, failed: 0 };

const LAST_RUN: SyncRunSummary = {
  id: 7,
  jobId: 3,
  jobName: '每日同步',
  status: 'succeeded',
  trigger: 'schedule',
  counts: { ...NO_COUNTS, create: 3, update: 1 },
  error: '',
  operator: '',
  createdAt: '2026-11-20 02:00:00',
  finishedAt: '2026-11-20 02:00:09',
};
const LDAP_JOB: SyncJob = {
  id: 3,
  sourceId: 1,
  sourceName: '恒岳目录',
  sourceType: 'ldap',
  name: '每日同步',
  mapping: SYNC_MAPPING_DEFAULTS,
  cron: '0 2 * * *',
  leaverRule: 'disable',
  enabled: true,
  nextRunAt: '2026-11-21 02:00:00',
  lastRun: LAST_RUN,
  updatedAt: '2026-11-19 10:00:00',
};
const WECOM_JOB: SyncJob = {
  ...LDAP_JOB,
  id: 4,
  sourceId: 2,
  sourceName: '恒岳企业微信',
  sourceType: 'wecom',
  name: '企业微信通讯录',
  cron: '',
  leaverRule: 'keep',
  enabled: false,
  nextRunAt: null,
  lastRun: null,
};
const source = (id: number, name: string, type: AuthSourceSummary['type']): AuthSourceSummary => ({
  id,
  type,
  name,
  enabled: true,
  endpoint: '',
  linkedAccounts: 0,
  lastSync: null,
  updatedAt: '2026-11-19 10:00:00',
});
const SOURCES = [source(1, '恒岳目录', 'ldap'), source(2, '恒岳企业微信', 'wecom')];

const PREVIEW: SyncRunSummary = {
  ...LAST_RUN,
  id: 11,
  status: 'preview',
  trigger: 'manual',
  counts: { create: 2, update: 1, disable: 1, move: 0, failed: 1 },
  operator: 'admin',
  createdAt: '2026-11-20 10:00:00',
  finishedAt: null,
};
const item = (id: number, fields: Partial<SyncRunItem>): SyncRunItem => ({
  id,
  kind: 'user',
  action: 'create',
  externalId: `ext-${id}`,
  name: '',
  username: '',
  changes: [],
  status: 'planned',
  error: '',
  ...fields,
});
const MISSING_PHONE = '缺少有效的手机号（平台账号须绑定手机号）';
const ITEMS: SyncRunItem[] = [
  item(1, { name: '李欣', username: 'lixin', changes: [{ field: '手机号', from: '', to: '13910000001' }] }),
  item(2, {
    action: 'update',
    name: '赵敏',
    username: 'zhaomin',
    changes: [{ field: '手机号', from: '13910000002', to: '13910000009' }],
  }),
  item(3, { action: 'disable', name: '钱磊', username: 'qianlei', changes: [{ field: '状态', from: '正常', to: '停用' }] }),
  item(4, { name: '周涛', username: 'zhoutao', status: 'failed', error: MISSING_PHONE }),
  item(5, { kind: 'group', name: '研发中心', changes: [{ field: '成员', from: '', to: '李欣、赵敏' }] }),
];
const DONE: SyncRunSummary = { ...PREVIEW, status: 'partial', finishedAt: '2026-11-20 10:00:20' };

beforeEach(() => {
  installRuntimeConfig();
  fake.api = createFakeApi({
    [`GET ${API}/jobs`]: [LDAP_JOB, WECOM_JOB],
    [`GET ${SOURCES_API}`]: SOURCES,
    [`POST ${API}/jobs`]: [{ id: 9 }],
    [`PUT ${API}/jobs/3`]: [],
    [`PUT ${API}/jobs/4`]: [],
    [`POST ${API}/jobs/3/preview`]: [PREVIEW],
    [`GET ${API}/runs/11/items`]: [{ rows: ITEMS, total: 5 }],
    [`POST ${API}/runs/11/execute`]: [DONE],
    [`GET ${API}/runs/11`]: [DONE],
    [`GET ${API}/runs`]: [{ rows: [DONE, LAST_RUN], total: 2 }],
    [`GET ${API}/runs/7`]: [LAST_RUN],
    [`GET ${API}/runs/7/items`]: [{ rows: [], total: 0 }],
  });
  vi.mocked(notify.error).mockClear();
  vi.mocked(notify.success).mockClear();
});
afterEach(() => {
  Modal.destroyAll();
});

function renderPage(url = SYNC_PATH) {
  const router = createMemoryRouter([{ path: SYNC_PATH, element: <SyncPage /> }], { initialEntries: [url] });
  renderWithProviders(<RouterProvider router={router} />, { session: menusEntry(['auth', 'auth:sync']) });
  return router;
}

const button = (root: HTMLElement, name: string) => within(root).getByRole('button', { name: new RegExp(name.split('').join('\\s*')) });
const jobRow = (name: string) => screen.findByRole('row', { name: new RegExp(name) });
const callsTo = (method: 'get' | 'post' | 'put', url: string) => fake.api![method].mock.calls.filter(([u]) => u === url);
const itemQueries = (runId: number) =>
  fake.api!.get.mock.calls.filter(([u]) => u === `${API}/runs/${runId}/items`).map(([, config]) => config?.params);

async function openPreview() {
  renderPage();
  fireEvent.click(button(await jobRow('每日同步'), '预览'));
  const drawer = await screen.findByRole('dialog', { name: '同步预览' });
  await within(drawer).findByText('以下为预览，尚未写入任何数据');
  await within(drawer).findByRole('row', { name: /zhaomin/ });
  return drawer;
}

describe('同步任务', () => {
  it('lists the jobs with source, schedule in words, leaver rule, state, next start and latest result', async () => {
    renderPage();
    const ldap = await jobRow('每日同步');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      '任务名称',
      '认证源',
      '定时',
      '离职处理',
      '状态',
      '下次执行',
      '最近结果',
      '操作',
    ]);
    for (const text of ['恒岳目录', 'LDAP / AD', '每天 02:00', '停用账号', '启用', '2026-11-21 02:00:00', '成功', '新增 3 · 更新 1'])
      expect(within(ldap).getByText(text)).toBeTruthy();
    expect(button(ldap, '停用')).toBeTruthy();

    const wecom = await jobRow('企业微信通讯录');
    for (const text of ['企业微信', '手动', '保留账号（不处理）', '停用', '未同步']) expect(within(wecom).getByText(text)).toBeTruthy();
    fireEvent.click(button(wecom, '启用'));
    await waitFor(() =>
      expect(fake.api!.put).toHaveBeenCalledWith(`${API}/jobs/4`, {
        sourceId: 2,
        name: '企业微信通讯录',
        mapping: SYNC_MAPPING_DEFAULTS,
        cron: '',
        leaverRule: 'keep',
        enabled: true,
      }),
    );
  });

  it('停用 and 删除 ask first', async () => {
    fake.api!.routes[`DELETE ${API}/jobs/3`] = [];
    renderPage();
    fireEvent.click(button(await jobRow('每日同步'), '停用'));
    const disable = await screen.findByRole('dialog', { name: '停用同步任务' });
    expect(within(disable).getByText(/停用后不再定时同步/)).toBeTruthy();
    fireEvent.click(button(disable, '停用'));
    await waitFor(() =>
      expect(fake.api!.put).toHaveBeenCalledWith(`${API}/jobs/3`, expect.objectContaining({ enabled: false, cron: '0 2 * * *' })),
    );

    fireEvent.click(button(await jobRow('每日同步'), '删除'));
    const remove = await screen.findByRole('dialog', { name: '删除同步任务' });
    expect(within(remove).getByText(/已同步的账号和账号组保持不变/)).toBeTruthy();
    fireEvent.click(button(remove, '删除'));
    await waitFor(() => expect(fake.api!.delete).toHaveBeenCalledWith(`${API}/jobs/3`));
  });

  it('keeps the open tab in the URL', async () => {
    const router = renderPage(`${SYNC_PATH}?tab=log`);
    expect((await screen.findByRole('tab', { name: '同步日志' })).getAttribute('aria-selected')).toBe('true');
    fireEvent.click(screen.getByRole('tab', { name: '同步任务' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    fireEvent.click(screen.getByRole('tab', { name: '同步日志' }));
    await waitFor(() => expect(router.state.location.search).toBe('?tab=log'));
  });
});

describe('同步预览', () => {
  it('shows progress while the source is read, then the counts as filter tabs and each change, nothing written', async () => {
    let answer: (value: ReturnType<typeof envelope>) => void = () => undefined;
    fake.api!.post.mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)));
    renderPage();
    fireEvent.click(button(await jobRow('每日同步'), '预览'));
    const drawer = await screen.findByRole('dialog', { name: '同步预览' });
    expect(within(drawer).getByRole('status').textContent).toMatch(/正在读取认证源「恒岳目录」的目录/);
    expect(button(drawer, '执行同步')).toHaveProperty('disabled', true);
    expect(fake.api!.post).toHaveBeenCalledWith(`${API}/jobs/3/preview`, undefined, { silent: true });

    answer(envelope([PREVIEW]));
    expect(await within(drawer).findByText('以下为预览，尚未写入任何数据')).toBeTruthy();
    for (const tab of ['全部', '新增 2', '更新 1', '停用 1', '移动 0', '将失败 1'])
      expect(within(drawer).getByRole('tab', { name: tab })).toBeTruthy();

    const zhaomin = await within(drawer).findByRole('row', { name: /zhaomin/ });
    for (const text of ['账号', '更新', 'zhaomin', '手机号：13910000002 → 13910000009', '待执行'])
      expect(within(zhaomin).getByText(text)).toBeTruthy();
    expect(within(within(drawer).getByRole('row', { name: /lixin/ })).getByText('手机号：13910000001')).toBeTruthy();
    expect(within(within(drawer).getByRole('row', { name: /钱磊/ })).getByText('状态：正常 → 停用')).toBeTruthy();
    const zhoutao = within(drawer).getByRole('row', { name: /周涛/ });
    expect(within(zhoutao).getByText('将失败')).toBeTruthy();
    expect(within(zhoutao).getByText(MISSING_PHONE)).toBeTruthy();
    expect(within(within(drawer).getByRole('row', { name: /研发中心/ })).getByText('账号组')).toBeTruthy();
    expect(itemQueries(11)).toEqual([{ offset: 0, limit: 20 }]);

    fireEvent.click(within(drawer).getByRole('tab', { name: '将失败 1' }));
    await waitFor(() => expect(itemQueries(11).at(-1)).toEqual({ offset: 0, limit: 20, status: 'failed' }));
    fireEvent.click(within(drawer).getByRole('tab', { name: '停用 1' }));
    await waitFor(() => expect(itemQueries(11).at(-1)).toEqual({ offset: 0, limit: 20, action: 'disable' }));
    expect(callsTo('post', `${API}/runs/11/execute`)).toHaveLength(0);
  });

  it('执行同步 asks first, then shows the result and switches to the run’s log', async () => {
    const drawer = await openPreview();
    fireEvent.click(button(drawer, '执行同步'));
    const confirm = await screen.findByRole('dialog', { name: '确认执行同步' });
    expect(within(confirm).getByText(/新增 2、更新 1、停用 1、移动 0，预计失败 1/)).toBeTruthy();
    fireEvent.click(button(confirm, '执行同步'));
    await waitFor(() => expect(fake.api!.post).toHaveBeenCalledWith(`${API}/runs/11/execute`, undefined, { silent: true }));

    const log = await screen.findByRole('dialog', { name: '同步记录：每日同步' });
    expect(within(log).getByText(/部分失败（新增 2 · 更新 1 · 停用 1 · 失败 1）/)).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('tab', { name: '同步日志' }).getAttribute('aria-selected')).toBe('true'));
    expect(notify.error).toHaveBeenCalledWith('同步结束，部分失败：新增 2 · 更新 1 · 停用 1 · 失败 1');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '同步预览' })).toBeNull());
  });

  it('an expired preview says so and offers 重新预览', async () => {
    fake.api!.post.mockImplementation((url: string) =>
      url.endsWith('/execute') ? Promise.reject(new ApiError(SyncMessage.previewExpired, 1, 409)) : Promise.resolve(envelope([PREVIEW])),
    );
    const drawer = await openPreview();
    fireEvent.click(button(drawer, '执行同步'));
    fireEvent.click(button(await screen.findByRole('dialog', { name: '确认执行同步' }), '执行同步'));

    await waitFor(() => expect(fake.api!.post.mock.calls.map(([u]) => u)).toContain(`${API}/runs/11/execute`));
    const alert = (await within(drawer).findByText(SyncMessage.previewExpired)).closest<HTMLElement>('[role="alert"]')!;
    expect(button(drawer, '执行同步')).toHaveProperty('disabled', true);
    fireEvent.click(within(alert).getByRole('button', { name: /重新预览/ }));
    await waitFor(() => expect(callsTo('post', `${API}/jobs/3/preview`)).toHaveLength(2));
    await waitFor(() => expect(within(drawer).queryByText(SyncMessage.previewExpired)).toBeNull());
    await waitFor(() => expect(button(drawer, '执行同步')).toHaveProperty('disabled', false));
  });

  it('a source that cannot be read shows its error text and 重新预览', async () => {
    const refusal = '无法连接到 127.0.0.1:1（连接被拒绝，该端口没有服务在监听）';
    fake.api!.post.mockImplementationOnce(() => Promise.reject(new ApiError(refusal, 1, 400)));
    renderPage();
    fireEvent.click(button(await jobRow('每日同步'), '预览'));
    const drawer = await screen.findByRole('dialog', { name: '同步预览' });
    expect(await within(drawer).findByText('预览失败')).toBeTruthy();
    expect(within(drawer).getByText(refusal)).toBeTruthy();
    fireEvent.click(button(drawer, '重新预览'));
    expect(await within(drawer).findByText('以下为预览，尚未写入任何数据')).toBeTruthy();
  });
});

describe('同步任务 form', () => {
  const openNew = async () => {
    renderPage();
    await jobRow('每日同步');
    fireEvent.click(screen.getByRole('button', { name: /新增任务/ }));
    return screen.findByRole('dialog', { name: '新增同步任务' });
  };

  it('the cron presets fill the field and the schedule reads in words', async () => {
    const drawer = await openNew();
    expect(within(drawer).queryByLabelText('定时表达式')).toBeNull();
    fireEvent.click(within(drawer).getByRole('radio', { name: '定时' }));
    const cron = await within(drawer).findByLabelText<HTMLInputElement>('定时表达式');
    fireEvent.click(button(drawer, '每周一 03:00'));
    await waitFor(() => expect(cron.value).toBe('0 3 * * 1'));
    expect(await within(drawer).findByText('每周一 03:00。')).toBeTruthy();
    fireEvent.click(button(drawer, '每小时'));
    await waitFor(() => expect(cron.value).toBe('0 * * * *'));
    fireEvent.click(button(drawer, '每天 02:00'));
    await waitFor(() => expect(cron.value).toBe('0 2 * * *'));
    expect(await within(drawer).findByText('每天 02:00。')).toBeTruthy();
    expect(within(drawer).getByText('保存后在任务列表显示下次执行时间。')).toBeTruthy();
  });

  it('says what is missing or wrong, offers username options for chat sources, then posts the job', async () => {
    const drawer = await openNew();
    fireEvent.click(within(drawer).getByRole('radio', { name: '定时' }));
    await within(drawer).findByLabelText('定时表达式');
    fireEvent.click(button(drawer, '保存'));
    await waitFor(() => expect(fieldErrors(drawer)).toEqual([SyncMessage.jobNameRequired, SOURCE_REQUIRED, CRON_REQUIRED]));

    fireEvent.change(within(drawer).getByLabelText('任务名称'), { target: { value: ' 企业微信每日 ' } });
    fireEvent.change(within(drawer).getByLabelText('定时表达式'), { target: { value: '0 2 * *' } });
    expect(within(drawer).queryByLabelText('用户名前缀')).toBeNull();
    await chooseOption(within(drawer).getByRole('combobox', { name: '认证源' }), '恒岳企业微信（企业微信）');
    fireEvent.change(await within(drawer).findByLabelText('用户名前缀'), { target: { value: '1wx' } });
    fireEvent.click(button(drawer, '保存'));
    await waitFor(() => expect(fieldErrors(drawer)).toEqual([SyncMessage.prefixInvalid, SyncMessage.cronInvalid]));
    expect(fake.api!.post).not.toHaveBeenCalled();

    fireEvent.change(within(drawer).getByLabelText('用户名前缀'), { target: { value: 'wx_' } });
    fireEvent.click(within(drawer).getByRole('radio', { name: '邮箱前缀' }));
    fireEvent.click(within(drawer).getByRole('switch', { name: '更新邮箱' }));
    fireEvent.change(within(drawer).getByLabelText('定时表达式'), { target: { value: '30 1 * * *' } });
    fireEvent.click(within(drawer).getByRole('radio', { name: '保留账号（不处理）' }));
    expect(within(drawer).getByText(/从不删除账号/)).toBeTruthy();
    fireEvent.click(button(drawer, '保存'));
    await waitFor(() =>
      expect(fake.api!.post).toHaveBeenCalledWith(
        `${API}/jobs`,
        {
          sourceId: 2,
          name: '企业微信每日',
          mapping: { groups: true, usernameFrom: 'email', usernamePrefix: 'wx_', updatePhone: true, updateEmail: false },
          cron: '30 1 * * *',
          leaverRule: 'keep',
          enabled: true,
        },
        { silent: true },
      ),
    );
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '新增同步任务' })).toBeNull());
  });

  it('编辑 starts from the job, shows its next start, and puts a refusal of the server under its field', async () => {
    fake.api!.put.mockImplementationOnce(() => Promise.reject(new ApiError(SyncMessage.jobNameTaken, 1, 409)));
    renderPage();
    fireEvent.click(button(await jobRow('每日同步'), '编辑'));
    const drawer = await screen.findByRole('dialog', { name: '编辑同步任务 每日同步' });
    // The schedule's fields follow the form's watched 执行方式, which settles a render after the drawer opens.
    expect((await within(drawer).findByLabelText<HTMLInputElement>('定时表达式')).value).toBe('0 2 * * *');
    expect(within(drawer).getByText(/当前下次执行：2026-11-21 02:00:00/)).toBeTruthy();
    expect(within(drawer).queryByLabelText('用户名前缀')).toBeNull();
    fireEvent.change(within(drawer).getByLabelText('任务名称'), { target: { value: '企业微信通讯录' } });
    fireEvent.click(within(drawer).getByRole('radio', { name: '手动' }));
    fireEvent.click(button(drawer, '保存'));
    await waitFor(() => expect(fieldErrors(drawer)).toEqual([SyncMessage.jobNameTaken]));
    expect(fake.api!.put).toHaveBeenCalledWith(
      `${API}/jobs/3`,
      expect.objectContaining({ name: '企业微信通讯录', cron: '', sourceId: 1, enabled: true }),
      { silent: true },
    );
    expect(notify.error).not.toHaveBeenCalled();
  });
});

describe('同步日志', () => {
  const runQueries = () => fake.api!.get.mock.calls.filter(([u]) => u === `${API}/runs`).map(([, config]) => config?.params);

  it('lists runs with their counts, filters by 任务 and 状态, and opens a run with its per-object results', async () => {
    const FAILED: SyncRunSummary = {
      ...LAST_RUN,
      id: 12,
      status: 'failed',
      counts: NO_COUNTS,
      error: '绑定账号或密码错误',
      finishedAt: '2026-11-19 02:00:01',
    };
    fake.api!.routes[`GET ${API}/runs`] = [{ rows: [DONE, FAILED], total: 2 }];
    fake.api!.routes[`GET ${API}/runs/12`] = [FAILED];
    fake.api!.routes[`GET ${API}/runs/12/items`] = [{ rows: [], total: 0 }];
    fake.api!.routes[`GET ${API}/runs/11/items`] = [
      {
        rows: [
          { ...ITEMS[1]!, status: 'succeeded' },
          { ...ITEMS[3]!, status: 'failed' },
        ],
        total: 2,
      },
    ];
    renderPage(`${SYNC_PATH}?tab=log`);
    const partial = await screen.findByRole('row', { name: /2026-11-20 10:00:00/ });
    for (const header of ['开始时间', '任务', '方式', '状态', '新增', '更新', '停用', '移动', '失败', '操作人', '结束时间'])
      expect(screen.getByRole('columnheader', { name: header })).toBeTruthy();
    for (const text of ['每日同步', '手动', '部分失败', 'admin', '2026-11-20 10:00:20'])
      expect(within(partial).getByText(text)).toBeTruthy();
    const failed = screen.getByRole('row', { name: /2026-11-19 02:00:01/ });
    expect(within(failed).getByText('定时')).toBeTruthy();
    expect(within(failed).getByText('系统（定时）')).toBeTruthy();
    expect(runQueries()[0]).toEqual({ offset: 0, limit: 20 });

    await chooseOption(screen.getByRole('combobox', { name: '任务' }), '每日同步');
    await chooseOption(screen.getByRole('combobox', { name: '状态' }), '失败');
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(runQueries().at(-1)).toEqual({ offset: 0, limit: 20, jobId: 3, status: 'failed' }));

    fireEvent.click(button(failed, '详情'));
    const failedDrawer = await screen.findByRole('dialog', { name: '同步记录：每日同步' });
    expect(within(failedDrawer).getByText('绑定账号或密码错误')).toBeTruthy();
    expect(within(failedDrawer).getByText(/同步失败/)).toBeTruthy();
    fireEvent.click(within(failedDrawer).getByRole('button', { name: /Close|关闭/ }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '同步记录：每日同步' })).toBeNull());

    fireEvent.click(button(partial, '详情'));
    const drawer = await screen.findByRole('dialog', { name: '同步记录：每日同步' });
    const ok = await within(drawer).findByRole('row', { name: /zhaomin/ });
    expect(within(ok).getByText('成功')).toBeTruthy();
    const bad = within(drawer).getByRole('row', { name: /周涛/ });
    expect(within(bad).getByText('失败')).toBeTruthy();
    expect(within(bad).getByText(MISSING_PHONE)).toBeTruthy();
    await chooseOption(within(drawer).getByRole('combobox', { name: '动作' }), '新增');
    await waitFor(() => expect(itemQueries(11).at(-1)).toEqual({ offset: 0, limit: 20, action: 'create' }));
    await chooseOption(within(drawer).getByRole('combobox', { name: '结果' }), '失败');
    await waitFor(() => expect(itemQueries(11).at(-1)).toEqual({ offset: 0, limit: 20, action: 'create', status: 'failed' }));
  });

  it('a job’s latest result opens that run', async () => {
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: '查看同步记录 7' }));
    const drawer = await screen.findByRole('dialog', { name: '同步记录：每日同步' });
    expect(within(drawer).getByText(/同步成功（新增 3 · 更新 1）/)).toBeTruthy();
  });
});
