import { hashKey, QueryClient, type QueryKey } from '@tanstack/react-query';

const QUERY_DEFAULTS = { retry: false, refetchOnWindowFocus: false, staleTime: 10_000 } as const;

/**
 * Cached answers are keyed by the signed-in user as well as by the query's own key: whatever a
 * feature names its queries, one user's data can never be served from the cache to another
 * (a shared clinic workstation, one tab, two users).
 */
function queryDefaults(userId: number | null) {
  const scope = userId === null ? 'signed-out' : `user:${userId}`;
  return { ...QUERY_DEFAULTS, queryKeyHashFn: (key: QueryKey) => hashKey([scope, ...key]) };
}

export function createQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: queryDefaults(null) } });
}

/**
 * Every sign-in, sign-out and expiry starts a new cache: all cached server data and pending
 * mutations are dropped, and later queries are keyed by the new user (null: nobody).
 */
export function startCacheFor(client: QueryClient, userId: number | null): void {
  void client.cancelQueries();
  client.clear();
  client.setDefaultOptions({ queries: queryDefaults(userId) });
}
