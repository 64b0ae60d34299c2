import { App as AntApp, ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { RouterProvider } from 'react-router';
import { theme } from '@/config/theme';
import { router } from './router';

dayjs.locale('zh-cn');

const queryClient = new QueryClient({
  defaultOptions: {
    // The API client already toasts errors; one retry would toast twice.
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 60_000 },
  },
});

export function App() {
  return (
    <ConfigProvider locale={zhCN} theme={theme}>
      <AntApp>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}
