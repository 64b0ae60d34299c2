import type { RecommendItem } from '@portal/shared';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApplicationListPage } from '@/features/applications/components/application-pages';
import { type ApplicationInput, useUpdateApplication } from '@/features/content-admin/api/applications';
import { type FakeApi, createFakeApi } from '@/testing/fake-api';
import { renderWithProviders } from '@/testing/render';
import { installRuntimeConfig } from '@/testing/runtime-config';

const fake = vi.hoisted(() => ({ api: undefined as FakeApi | undefined }));
vi.mock('@/lib/api', () => ({ api: () => fake.api }));
vi.mock('@/lib/notify', () => ({ notify: { error: vi.fn(), success: vi.fn() } }));

const INPUT: ApplicationInput = {
  name: '设备远程运维',
  applicationDescription: '远程诊断与维护',
  imagePath: '/demo/app-1.svg',
  iconPath: '/demo/icon-app.svg',
  category: '运维服务',
  provider: 'Engineering e+ 平台',
  content: '<p>说明</p>',
  recommended: true,
  status: 'published',
  serviceUrl: '',
  logoutUrl: '',
  attributes: [],
};

describe('a console write refreshes the public pages open in the tab', () => {
  let published: RecommendItem[];
  beforeEach(() => {
    installRuntimeConfig();
    published = [
      {
        applicationUuid: 'app-1',
        name: '设备看板',
        applicationDescription: '设备状态一屏掌握',
        imagePath: '/demo/app-1.svg',
        iconPath: '/demo/icon-app.svg',
        category: '数据可视化',
        provider: 'Engineering e+ 平台',
      },
    ];
    fake.api = createFakeApi({
      'GET /open-api/app/v1/list': () => published,
      'PUT /web-api/console/v1/application/app-1': (body) => {
        const input = body as ApplicationInput;
        published = published.map((a) => (a.applicationUuid === 'app-1' ? { ...a, name: input.name } : a));
        return [];
      },
    });
  });

  it('editing an application in the console changes what /product shows', async () => {
    const { queryClient } = renderWithProviders(
      <MemoryRouter>
        <ApplicationListPage />
      </MemoryRouter>,
    );
    expect(await screen.findByText('设备看板')).toBeTruthy();

    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
    const { result } = renderHook(() => useUpdateApplication(), { wrapper });
    await act(() => result.current.mutateAsync({ uuid: 'app-1', input: INPUT }));

    expect(await screen.findByText('设备远程运维')).toBeTruthy();
    expect(screen.queryByText('设备看板')).toBeNull();
  });
});
