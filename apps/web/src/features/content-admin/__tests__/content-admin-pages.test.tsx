import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Modal } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeApi, createFakeApi } from '@/testing/fake-api';
import { fieldErrors } from '@/testing/form';
import { renderWithProviders } from '@/testing/render';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { menusEntry } from '@/testing/session';
import type { AdminApplication } from '../api/applications';
import type { AdminHomeBlock } from '../api/home-blocks';
import { CategoryAdminPage } from '../components/category-admin-page';
import { HomeBlocksAdminPage } from '../components/home-blocks-admin-page';
import { RecommendAdminPage } from '../components/recommend-admin-page';

const fake = vi.hoisted(() => ({ api: undefined as FakeApi | undefined }));
vi.mock('@/lib/api', () => ({ api: () => fake.api }));
vi.mock('@/lib/notify', () => ({ notify: { error: vi.fn(), success: vi.fn() } }));

const CATEGORIES = [
  { id: 1, categoryId: 'news', categoryName: '行业动态', channel: 'news', parentId: null, sort: 1, articleCount: 3 },
  { id: 2, categoryId: 'knowledge', categoryName: '工业知识', channel: 'knowledge', parentId: null, sort: 1, articleCount: 0 },
];
const block = (id: number, kind: AdminHomeBlock['kind'], title: string): AdminHomeBlock => ({
  id,
  kind,
  title,
  subtitle: '',
  icon: `/demo/${id}.svg`,
  linkUrl: kind === 'kpi' ? '' : '/settled',
  openUrlFlag: 0,
  kpi: kind === 'kpi' ? '130' : '',
  uom: kind === 'kpi' ? '万台' : '',
  sort: id,
  enabled: true,
});
const BLOCKS = [block(1, 'banner', '横幅一'), block(2, 'banner', '横幅二'), block(3, 'banner', '横幅三'), block(4, 'kpi', '接入设备')];
const app = (n: number, recommended = true): AdminApplication => ({
  id: n,
  applicationUuid: `app-${n}`,
  name: `应用${n}`,
  applicationDescription: `简介${n}`,
  imagePath: `/demo/app-${n}.svg`,
  iconPath: '',
  category: '数据分析',
  provider: '平台',
  content: '<p>详情</p>',
  recommended,
  status: 'published',
  serviceUrl: '',
  logoutUrl: '',
  attributes: [],
  sort: n,
  createdAt: '2026-01-01T00:00:00.000Z',
});

const CONTENT_EDITOR = ['content:category', 'content:home', 'content:recommend'];

beforeEach(() => {
  installRuntimeConfig();
  fake.api = createFakeApi({
    'GET /web-api/cms/v1/category/list': CATEGORIES,
    'POST /web-api/cms/v1/category': [{ categoryId: 'smart-factory' }],
    'DELETE /web-api/cms/v1/category/news': [],
    'GET /web-api/console/v1/home-block/list': BLOCKS,
    'PUT /web-api/console/v1/home-block/order': [],
    'POST /web-api/console/v1/home-block': [],
    'GET /web-api/console/v1/application/list': [app(1), app(2), app(3, false)],
    'PUT /web-api/console/v1/application/order': [],
    'PUT /web-api/console/v1/application/app-1': [],
  });
});
afterEach(() => {
  Modal.destroyAll();
});

/** The open dialog titled `title`, once it has rendered. */
const dialog = (title: string) => screen.findByRole('dialog', { name: title });
/** The table row showing `text`. */
const row = (text: string) => screen.findByRole('row', { name: new RegExp(text) });

describe('栏目管理', () => {
  it('checks the code with the server rule before sending, then creates a top-level category', async () => {
    renderWithProviders(<CategoryAdminPage />, { session: menusEntry(CONTENT_EDITOR) });
    await screen.findByText('行业动态');
    fireEvent.click(screen.getByRole('button', { name: /新建分类/ }));
    const modal = await dialog('新建分类');
    fireEvent.change(within(modal).getByLabelText('分类编码'), { target: { value: 'Bad Code' } });
    fireEvent.change(within(modal).getByLabelText('分类名称'), { target: { value: '智能工厂' } });
    fireEvent.click(within(modal).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(fieldErrors(modal)).toEqual(['分类编码为 2-32 位小写字母、数字或连字符，以字母开头']));
    expect(fake.api!.post).not.toHaveBeenCalled();

    fireEvent.change(within(modal).getByLabelText('分类编码'), { target: { value: 'smart-factory' } });
    fireEvent.click(within(modal).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(fake.api!.post).toHaveBeenCalledTimes(1));
    expect(fake.api!.post.mock.calls[0]).toEqual([
      '/web-api/cms/v1/category',
      { code: 'smart-factory', name: '智能工厂', channel: 'news', parentId: null, sort: 0 },
    ]);
  });

  it('deletes only after the confirm dialog', async () => {
    renderWithProviders(<CategoryAdminPage />, { session: menusEntry(CONTENT_EDITOR) });
    fireEvent.click(within(await row('行业动态')).getByRole('button', { name: /删\s*除/ }));
    expect(fake.api!.delete).not.toHaveBeenCalled();
    const confirm = await dialog('删除分类');
    expect(within(confirm).getByText('确定删除分类「行业动态」吗？')).toBeTruthy();
    fireEvent.click(within(confirm).getByRole('button', { name: /删\s*除/ }));
    await waitFor(() => expect(fake.api!.delete).toHaveBeenCalledWith('/web-api/cms/v1/category/news'));
  });
});

describe('首页配置', () => {
  it('refuses a script link and a missing image under the fields', async () => {
    renderWithProviders(<HomeBlocksAdminPage />, { session: menusEntry(CONTENT_EDITOR) });
    await screen.findByText('横幅一');
    fireEvent.click(screen.getByRole('button', { name: /新建横幅/ }));
    const modal = await dialog('新建横幅');
    fireEvent.change(within(modal).getByLabelText('标题'), { target: { value: '季度特惠' } });
    fireEvent.change(within(modal).getByLabelText('链接地址'), { target: { value: 'javascript:alert(1)' } });
    fireEvent.click(within(modal).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(fieldErrors(modal)).toEqual(['链接地址须为 http(s) 地址或以 / 开头的站内路径', '请上传图片']));
    expect(fake.api!.post).not.toHaveBeenCalled();
  });

  it('KPI figures must be numbers', async () => {
    renderWithProviders(<HomeBlocksAdminPage />, { session: menusEntry(CONTENT_EDITOR) });
    await screen.findByText('横幅一');
    fireEvent.click(screen.getByRole('tab', { name: /指标/ }));
    fireEvent.click(await screen.findByRole('button', { name: /新建指标/ }));
    const modal = await dialog('新建指标');
    fireEvent.change(within(modal).getByLabelText('指标名称'), { target: { value: '在线设备' } });
    fireEvent.change(within(modal).getByLabelText('指标数值'), { target: { value: '一百' } });
    fireEvent.click(within(modal).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(fieldErrors(modal)).toContain('指标数值须为数字，如 130 或 2.1'));
    expect(fake.api!.post).not.toHaveBeenCalled();
  });

  it('moves a banner down by sending the whole new order of its kind', async () => {
    renderWithProviders(<HomeBlocksAdminPage />, { session: menusEntry(CONTENT_EDITOR) });
    const banner = await row('横幅一');
    expect((within(banner).getByRole('button', { name: '上移' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(banner).getByRole('button', { name: '下移' }));
    await waitFor(() =>
      expect(fake.api!.put).toHaveBeenCalledWith('/web-api/console/v1/home-block/order', { kind: 'banner', ids: [2, 1, 3] }),
    );
  });
});

describe('推荐应用', () => {
  it('marks what the home carousel shows, reorders with every uuid, and switches a recommendation keeping the other fields', async () => {
    renderWithProviders(<RecommendAdminPage />, { session: menusEntry(CONTENT_EDITOR) });
    const first = await row('应用1');
    expect(within(first).getByText('首页轮播')).toBeTruthy();
    expect(within(await row('应用3')).queryByText('首页轮播')).toBeNull();

    fireEvent.click(within(first).getByRole('button', { name: '下移' }));
    await waitFor(() =>
      expect(fake.api!.put).toHaveBeenCalledWith('/web-api/console/v1/application/order', { uuids: ['app-2', 'app-1', 'app-3'] }),
    );

    fireEvent.click(screen.getByRole('switch', { name: '应用1 首页推荐' }));
    await waitFor(() =>
      expect(fake.api!.put).toHaveBeenCalledWith('/web-api/console/v1/application/app-1', {
        name: '应用1',
        applicationDescription: '简介1',
        imagePath: '/demo/app-1.svg',
        iconPath: '',
        category: '数据分析',
        provider: '平台',
        content: '<p>详情</p>',
        recommended: false,
        status: 'published',
        serviceUrl: '',
        logoutUrl: '',
        attributes: [],
      }),
    );
  });

  it('hides the write controls from an account without content:recommend', async () => {
    renderWithProviders(<RecommendAdminPage />, { session: menusEntry([]) });
    await screen.findByText('应用1');
    expect(screen.queryByRole('button', { name: /新建应用/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /编\s*辑/ })).toBeNull();
    expect((screen.getByRole('switch', { name: '应用1 首页推荐' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
