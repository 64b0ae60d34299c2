import type { PortalMenuEntry } from '@portal/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import type { ReactElement } from 'react';
import { setSession } from './session';

export const createTestQueryClient = () => new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });

/**
 * Renders with the app's providers (zh_CN, a fresh query client without retries). `session` is the
 * menus answer the user state comes from (`null`: a visitor); left out, nothing is known yet.
 */
export function renderWithProviders(ui: ReactElement, { session }: { session?: PortalMenuEntry | null } = {}) {
  const queryClient = createTestQueryClient();
  if (session !== undefined) setSession(queryClient, session);
  const result = render(
    <ConfigProvider locale={zhCN}>
      <QueryClientProvider client={queryClient}>{ui}</QueryClientProvider>
    </ConfigProvider>,
  );
  return { ...result, queryClient };
}
