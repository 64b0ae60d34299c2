import { SSR_STATE_ELEMENT_ID } from '@portal/shared';
import type { DehydratedState } from '@tanstack/react-query';
import type { HydrationState } from 'react-router';

/** What a server-rendered page was rendered with, so hydration starts from the same state. */
export interface ServerState {
  /** The query cache the route loaders filled. */
  queries: DehydratedState;
  /** The loaders' results (they return null: their data is in the queries), so the router does not run them again. */
  loaderData: HydrationState['loaderData'];
}

/** The state a server-rendered page carries (`entry-server.tsx`), if any. */
export function readServerState(): ServerState | undefined {
  const text = document.getElementById(SSR_STATE_ELEMENT_ID)?.textContent;
  return text ? (JSON.parse(text) as ServerState) : undefined;
}
