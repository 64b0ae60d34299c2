import { SSR_STATE_ELEMENT_ID } from '@portal/shared';
import { type DehydratedState, hydrate } from '@tanstack/react-query';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App, createQueryClient } from './app';
import { createRouter } from './router';

/** Data the server rendered the page with (public pages), so hydration starts from the same state. */
function serverState(): DehydratedState | undefined {
  const text = document.getElementById(SSR_STATE_ELEMENT_ID)?.textContent;
  return text ? (JSON.parse(text) as DehydratedState) : undefined;
}

/** Starts the React app: hydrates a server-rendered page or renders into an empty root. */
export async function start(container: HTMLElement) {
  const queryClient = createQueryClient();
  const state = serverState();
  const rendered = state !== undefined && container.firstElementChild !== null;
  if (rendered) hydrate(queryClient, state);
  const router = await createRouter(rendered ? { loaderData: {} } : undefined);
  const app = (
    <StrictMode>
      <App queryClient={queryClient} router={router} />
    </StrictMode>
  );
  // A transition lets React work in small slices instead of one long task that blocks input.
  startTransition(() => {
    if (rendered) hydrateRoot(container, app);
    else createRoot(container).render(app);
  });
}
