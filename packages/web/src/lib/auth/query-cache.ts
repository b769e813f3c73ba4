import { QueryClient } from '@tanstack/react-query';

const QUERY_DEFAULTS = { retry: false, refetchOnWindowFocus: false, staleTime: 10_000 } as const;

/*
 * The user each cache currently belongs to. Query keys start with it (api/scope.ts), so that
 * keys name the user outside React as well (route prefetching) without threading it everywhere.
 */
const cacheUser = new WeakMap<QueryClient, number | null>();

/** Whose data `client` holds; null before any sign-in and after a sign-out. */
export function userOfCache(client: QueryClient): number | null {
  return cacheUser.get(client) ?? null;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: QUERY_DEFAULTS } });
}

/**
 * Every sign-in, sign-out and expiry starts a new cache: all cached server data and pending
 * mutations are dropped, and later queries are keyed by the new user (null: nobody).
 */
export function startCacheFor(client: QueryClient, userId: number | null): void {
  void client.cancelQueries();
  client.clear();
  cacheUser.set(client, userId);
}
