import { App as AntApp, ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import type { ReactNode } from 'react';
import { RouterProvider } from 'react-router';
import { theme } from '@/config/theme';
import type { createRouter } from './router';

dayjs.locale('zh-cn');

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      // The API client already toasts errors; one retry would toast twice.
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 60_000 },
    },
  });
}

/** Providers shared by the browser and the server renderer, so both produce the same markup. */
export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <ConfigProvider locale={zhCN} theme={theme}>
      <AntApp>
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}

export function App({ queryClient, router }: { queryClient: QueryClient; router: Awaited<ReturnType<typeof createRouter>> }) {
  return (
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
