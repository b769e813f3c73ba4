import type { Identity } from '../../src/modules/identity/index.ts';

/**
 * A user pool that cannot be reached: every directory call fails as a network error would. For
 * service tests of the rules that decide before the pool is asked, and of what happens when
 * it is down.
 */
export function unreachablePool(): Identity {
  const directory = new Proxy(
    {},
    {
      get: (_target, operation) => () => Promise.reject(new Error(`user pool unreachable (${String(operation)})`)),
    },
  );
  return { mode: 'local', directory } as unknown as Identity;
}
