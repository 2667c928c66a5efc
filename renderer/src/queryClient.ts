import { QueryClient } from '@tanstack/react-query';

/**
 * Every call goes to the main process over the bridge, never to the network from here, so the
 * browser's online flag says nothing about whether a call can succeed: networkMode 'always'.
 * A mutation moves money and is never retried automatically; a lookup may be retried once.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
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
}
