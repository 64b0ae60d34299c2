import type { RuntimeConfig } from '@portal/shared';
import { ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { RouterProvider } from 'react-router';
import { RuntimeConfigContext } from '@/config/runtime-config';
import { theme } from '@/config/theme';
import { onLogout } from '@/lib/auth';
import type { createRouter } from './router';

// Toasts and confirms are static calls (lib/notify.ts, the dialogs): they render outside the tree, so
// they get the same locale and theme here. No antd <App> wrapper: it would put the code of every
// feedback component into the first page load.
ConfigProvider.config({
  holderRender: (children) => (
    <ConfigProvider locale={zhCN} theme={theme}>
      {children}
    </ConfigProvider>
  ),
});

/**
 * Spec section 4, logout clears all user state: the user is the menus answer in the query cache, and
 * the cache holds what they were allowed to read. The page then leaves for the central logout, so
 * nothing may fetch it back meanwhile (a reader drawn again would otherwise ask for the menus).
 */
function clearQueriesOnLogout(queryClient: QueryClient): () => void {
  return onLogout(() => {
    const defaults = queryClient.getDefaultOptions();
    queryClient.setDefaultOptions({ ...defaults, queries: { ...defaults.queries, enabled: false } });
    queryClient.removeQueries();
  });
}

/** Providers shared by the browser and the server renderer, so both produce the same markup. */
export function AppProviders({ queryClient, config, children }: { queryClient: QueryClient; config: RuntimeConfig; children: ReactNode }) {
  // An effect: the server renderer never logs anyone out.
  useEffect(() => clearQueriesOnLogout(queryClient), [queryClient]);
  return (
    <ConfigProvider locale={zhCN} theme={theme}>
      <RuntimeConfigContext value={config}>
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </RuntimeConfigContext>
    </ConfigProvider>
  );
}

export function App({
  queryClient,
  router,
  config,
}: {
  queryClient: QueryClient;
  router: Awaited<ReturnType<typeof createRouter>>;
  config: RuntimeConfig;
}) {
  return (
    <AppProviders queryClient={queryClient} config={config}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
