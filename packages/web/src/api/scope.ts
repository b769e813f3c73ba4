import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { userOfCache } from '../lib/auth/query-cache.ts';

/**
 * The first part of every query key: the signed-in user. One user's answers can never be served
 * from the cache to another (a shared clinic workstation, one tab, two users), whatever the rest
 * of the key says. The cache is also cleared whenever the user changes (lib/auth/query-cache.ts).
 */
export type UserScope = readonly ['user', number | null];

export const userScope = (client: QueryClient): UserScope => ['user', userOfCache(client)];

/** The key scope of the user this cache belongs to. */
export function useUserScope(): UserScope {
  return userScope(useQueryClient());
}
