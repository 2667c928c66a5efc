import { MutationCache, QueryClient } from '@tanstack/react-query';

import { isStoreRefusal } from './api';
import { keys } from './queries';
import { sessionKey } from './session';

/**
 * Every call goes to the main process over the bridge, never to the network from here, so the
 * browser's online flag says nothing about whether a call can succeed: networkMode 'always'.
 * A mutation moves money and is never retried automatically; a lookup may be retried once.
 *
 * When the journal's store refuses a change (the login's role changed, the database went
 * read-only or away), the session and the app's status are read again at once, so the role
 * fence (components/RoleFence) greys every send button on screen instead of waiting for the
 * session's next poll.
 */
export function createQueryClient(): QueryClient {
  const client: QueryClient = new QueryClient({
    mutationCache: new MutationCache({
      onError: (error) => {
        if (!isStoreRefusal(error)) return;
        void client.invalidateQueries({ queryKey: sessionKey });
        void client.invalidateQueries({ queryKey: keys.status });
      },
    }),
    defaultOptions: {
      queries: {
        networkMode: 'always',
        retry: 1,
        staleTime: 10_000,
        refetchOnWindowFocus: false,
      },
      mutations: {
        networkMode: 'always',
        retry: false,
      },
    },
  });
  return client;
}
