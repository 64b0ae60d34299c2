import { hydrate } from '@tanstack/react-query';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { getRuntimeConfig } from '@/config/runtime-config';
import { createQueryClient } from '@/lib/query-client';
import { App } from './app';
import { createRouter } from './router';
import { readServerState } from './server-state';

/** Starts the React app: hydrates a server-rendered page or renders into an empty root. */
export async function start(container: HTMLElement) {
  const queryClient = createQueryClient();
  const state = readServerState();
  const rendered = state !== undefined && container.firstElementChild !== null;
  if (rendered) hydrate(queryClient, state.queries);
  const router = await createRouter(queryClient, rendered ? { loaderData: state.loaderData } : undefined);
  const app = (
    <StrictMode>
      <App queryClient={queryClient} router={router} config={getRuntimeConfig()} />
    </StrictMode>
  );
  // A transition lets React work in small slices instead of one long task that blocks input.
  startTransition(() => {
    if (rendered) hydrateRoot(container, app);
    else createRoot(container).render(app);
  });
}
