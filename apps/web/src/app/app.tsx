import type { RuntimeConfig } from '@portal/shared';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { RouterProvider } from 'react-router';
import { RuntimeConfigContext } from '@/config/runtime-config';
import { onLogout } from '@/lib/auth';
import type { createRouter } from './router';

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

/**
 * Providers shared by the browser and the server renderer, so both produce the same markup. antd's
 * locale and theme are not among them: the parts that render antd bring them (`AntdProvider`).
 */
export function AppProviders({ queryClient, config, children }: { queryClient: QueryClient; config: RuntimeConfig; children: ReactNode }) {
  // An effect: the server renderer never logs anyone out.
  useEffect(() => clearQueriesOnLogout(queryClient), [queryClient]);
  return (
    <RuntimeConfigContext value={config}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </RuntimeConfigContext>
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
