import type { ApiReferenceGroup } from '@portal/shared';
import { screen, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeApi, createFakeApi } from '@/testing/fake-api';
import { renderWithProviders } from '@/testing/render';
import { installRuntimeConfig } from '@/testing/runtime-config';
import { ApiReferencePage } from '../components/api-reference-page';

const fake = vi.hoisted(() => ({ api: undefined as FakeApi | undefined }));
vi.mock('@/lib/api', () => ({ api: () => fake.api }));

const GROUPS: ApiReferenceGroup[] = [
  {
    key: 'cas',
    title: '统一身份认证（CAS）',
    description: 'CAS 3.0 协议端点',
    operations: [
      {
        method: 'GET',
        path: '/cas/p3/serviceValidate',
        summary: '校验服务票据（CAS 3.0）',
        description: '用 ticket 与 service 换取账号与返回属性。',
        parameters: [
          { name: 'service', in: 'query', required: true, type: 'string', description: '已登记的服务地址' },
          { name: 'ticket', in: 'query', required: true, type: 'string', description: '登录后得到的服务票据' },
        ],
        curl: "curl 'https://portal.example.com/cas/p3/serviceValidate?service=https%3A%2F%2Fapp.example.com%2F&ticket=ST-1'",
        responseExample: '<cas:serviceResponse xmlns:cas="http://www.yale.edu/tp/cas">…</cas:serviceResponse>',
      },
    ],
  },
];

beforeEach(() => {
  installRuntimeConfig();
  fake.api = createFakeApi({ 'GET /web-api/portal/v1/open-service/api-reference': GROUPS });
});

describe('API 参考 (/open-service/api)', () => {
  it('shows each operation with its method, path, parameters, a curl call and an example answer, and links the full /docs', async () => {
    const router = createMemoryRouter([{ path: '/open-service/api', element: <ApiReferencePage /> }], {
      initialEntries: ['/open-service/api'],
    });
    renderWithProviders(<RouterProvider router={router} />);
    const operation = await screen.findByRole('article', { name: '校验服务票据（CAS 3.0）' });
    expect(within(operation).getByText('GET')).toBeTruthy();
    expect(within(operation).getByText('/cas/p3/serviceValidate')).toBeTruthy();
    const rows = within(within(operation).getByRole('table')).getAllByRole('row').slice(1);
    expect(
      rows.map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      ),
    ).toEqual([
      ['service', '查询', 'string', '是', '已登记的服务地址'],
      ['ticket', '查询', 'string', '是', '登录后得到的服务票据'],
    ]);
    expect(within(operation).getByRole('button', { name: '复制 curl' }).closest('figure')!.textContent).toContain(
      GROUPS[0]!.operations[0]!.curl,
    );
    expect(within(operation).getByRole('button', { name: '复制 应答' }).closest('figure')!.textContent).toContain('<cas:serviceResponse');
    // The table of contents jumps to it.
    const toc = screen.getByRole('navigation', { name: '接口目录' });
    expect(
      within(toc)
        .getByRole('link', { name: /校验服务票据/ })
        .getAttribute('href'),
    ).toBe(`#${operation.id}`);
    expect(screen.getByRole('link', { name: '完整接口文档（/docs）' }).getAttribute('href')).toBe('http://localhost:3000/docs');
  });
});
