// @vitest-environment jsdom
// The detail shows a body cleaned by DOMPurify, which needs a standards-complete DOM (see lib/__tests__/sanitize.test.ts).
import type { PortalMenuEntry } from '@portal/shared';
import { fireEvent, screen, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { type FakeApi, createFakeApi } from '@/testing/fake-api';
import { renderWithProviders } from '@/testing/render';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { menusEntry } from '@/testing/session';
import { OpenServicePage } from '../components/open-service-page';
import { APPS_CALL, CARDS, TOOLS_CALL, toolCall, toolDetail } from './fixtures';

const fake = vi.hoisted(() => ({ api: undefined as FakeApi | undefined }));
vi.mock('@/lib/api', () => ({ api: () => fake.api }));
vi.mock('@/lib/notify', () => ({ notify: { error: vi.fn(), success: vi.fn() } }));

const [MOBILE, EDITOR, IDENTITY] = CARDS as [(typeof CARDS)[number], (typeof CARDS)[number], (typeof CARDS)[number]];

const EDITOR_BODY =
  '<h3>核心能力</h3><ul><li>拖拽式看板</li></ul><h3>快速开始</h3><p>登录控制台创建第一个大屏。</p>' +
  '<img src="x" onerror="alert(1)" alt="示意图"><script>alert(2)</script>';

const notFound = () => {
  throw new ApiError('工具不存在或已下线', 1, 404);
};

beforeEach(() => {
  installRuntimeConfig();
  window.scrollTo = vi.fn();
  fake.api = createFakeApi({
    [TOOLS_CALL]: CARDS,
    [toolCall('02')]: [toolDetail(EDITOR, EDITOR_BODY)],
    [toolCall('03')]: [toolDetail(IDENTITY, '<h3>是什么</h3><p>基于 CAS 3.0 的统一身份认证。</p>')],
    [toolCall('04')]: notFound,
  });
});

/** /open-service at `url` in a data router (the page reads its own URL), for `session` (undefined: not known yet). */
function renderAt(url: string, session?: PortalMenuEntry | null) {
  const router = createMemoryRouter(
    [
      { path: '/open-service', element: <OpenServicePage />, handle: { title: '开放服务', searchParams: ['toolId'] } },
      { path: '/open-service/api', element: <h1>API 参考页</h1> },
      { path: '/', element: <h1>首页</h1> },
    ],
    { initialEntries: [url] },
  );
  return { router, ...renderWithProviders(<RouterProvider router={router} />, { session }) };
}

const toolCalls = () => fake.api!.get.mock.calls.map(([url]) => url).filter((url) => url.includes('/open-service/tools/'));

describe('开放服务中心 (/open-service)', () => {
  it('shows the online tools as cards whose links keep their fixed ids', async () => {
    renderAt('/open-service');
    expect(screen.getByRole('heading', { level: 1, name: '开放服务中心' })).toBeTruthy();
    const cards = within(await screen.findByRole('list', { name: '开发者工具' })).getAllByRole('link');
    expect(cards.map((c) => c.getAttribute('href'))).toEqual(CARDS.map((t) => `/open-service?toolId=${t.id}`));
    expect(within(cards[0]!).getByRole('heading', { name: MOBILE.title })).toBeTruthy();
    expect(within(cards[0]!).getByText(MOBILE.summary)).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    for (const link of screen.getAllByRole('link', { name: /API 参考/ })) expect(link.getAttribute('href')).toBe('/open-service/api');
    expect(screen.getByRole('link', { name: /完整接口文档/ }).getAttribute('href')).toBe('http://localhost:3000/docs');
  });

  it('an unknown tool id shows the centre with a notice and asks for no detail', async () => {
    renderAt('/open-service?toolId=09');
    const notice = await screen.findByRole('alert');
    expect(notice.textContent).toContain('未找到编号为「09」的工具');
    expect(notice.textContent).toContain('可能已下线或编号有误');
    expect(within(await screen.findByRole('list', { name: '开发者工具' })).getAllByRole('link')).toHaveLength(CARDS.length);
    expect(toolCalls()).toEqual([]);
  });

  it('an offline tool (the server answers 404) shows the centre with the same notice, silently', async () => {
    renderAt('/open-service?toolId=04');
    expect((await screen.findByRole('alert')).textContent).toContain('未找到编号为「04」的工具');
    expect(screen.getByRole('heading', { level: 1, name: '开放服务中心' })).toBeTruthy();
    expect(within(await screen.findByRole('list', { name: '开发者工具' })).getAllByRole('link')).toHaveLength(CARDS.length);
    // The page says it itself: the API client shows no error toast for it.
    expect(fake.api!.get).toHaveBeenCalledWith('/web-api/portal/v1/open-service/tools/04', { silent: true });
  });

  it("a tool's detail: title, summary, sanitised body, the way back and the other tools beside it", async () => {
    const { router } = renderAt('/open-service?toolId=02');
    expect(await screen.findByRole('heading', { level: 1, name: EDITOR.title })).toBeTruthy();
    expect(screen.getByText(EDITOR.summary)).toBeTruthy();
    const article = screen.getByRole('article', { name: EDITOR.title });
    expect(within(article).getByRole('heading', { name: '核心能力' })).toBeTruthy();
    expect(within(article).getByText('登录控制台创建第一个大屏。')).toBeTruthy();
    expect(within(article).getByText('更新于 2026-11-20')).toBeTruthy();
    // No script and no event handler survive.
    expect(article.querySelector('script')).toBeNull();
    expect(within(article).getByRole('img', { name: '示意图' }).getAttribute('onerror')).toBeNull();
    expect(
      within(article)
        .getByRole('link', { name: /返回开放服务中心/ })
        .getAttribute('href'),
    ).toBe('/open-service');

    const others = within(screen.getByRole('complementary', { name: '其他工具' }));
    const links = await others.findAllByRole('link', { name: /SDK|认证|集群|机理/ });
    expect(links.map((l) => l.getAttribute('href'))).toEqual(['01', '03', '05', '06'].map((id) => `/open-service?toolId=${id}`));
    // Visitors of tools other than 03 see no sign-in prompt.
    expect(screen.queryByRole('region', { name: '接入我的应用' })).toBeNull();

    fireEvent.click(others.getByRole('link', { name: /统一身份认证集成/ }));
    expect(await screen.findByRole('heading', { level: 1, name: IDENTITY.title })).toBeTruthy();
    expect(router.state.location.search).toBe('?toolId=03');
    // Another tool's detail starts at its top.
    expect(window.scrollTo).toHaveBeenCalledWith({ top: 0 });
  });

  it('tool 03 asks a visitor to sign in as an enterprise administrator, coming back to it', async () => {
    renderAt('/open-service?toolId=03', null);
    const live = await screen.findByRole('region', { name: '接入我的应用' });
    expect(within(live).getByText(/以企业管理员身份登录后/)).toBeTruthy();
    expect(within(live).getByRole('link', { name: '以企业管理员身份登录' }).getAttribute('href')).toBe(
      'http://localhost:3000/web/portal/cas/login?target=%2Fopen-service%3FtoolId%3D03',
    );
    expect(fake.api!.get).not.toHaveBeenCalledWith(APPS_CALL.slice(4), expect.anything());
  });

  it('tool 03 tells a signed-in user without 应用列表 rights to ask an administrator', async () => {
    renderAt('/open-service?toolId=03', menusEntry(['dashboard']));
    const live = await screen.findByRole('region', { name: '接入我的应用' });
    expect(within(live).getByText(/当前账号（张伟）不是企业管理员/)).toBeTruthy();
    expect(within(live).queryByRole('link')).toBeNull();
  });
});
