import { hydrate } from '@tanstack/react-query';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { getRuntimeConfig } from '@/config/runtime-config';
import { createQueryClient } from '@/lib/query-client';
import { App } from './app';
import { createRouter } from './router';
import { readServerState } from './server-state';

/**
 * Gives the main thread back to the browser (input, paint) between the steps of the start, so that
 * loading the page's code and hydrating it are tasks of their own rather than one long task.
 */
const yieldToMain = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Starts the React app: hydrates a server-rendered page or renders into an empty root. */
export async function start(container: HTMLElement) {
  const queryClient = createQueryClient();
  const state = readServerState();
  const rendered = state !== undefined && container.firstElementChild !== null;
  if (rendered) hydrate(queryClient, state.queries);
  await yieldToMain();
  const router = await createRouter(queryClient, rendered ? { loaderData: state.loaderData } : undefined);
  await yieldToMain();
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
