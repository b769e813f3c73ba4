/**
 * Removes every localStorage key that starts with `prefix` (what a page keeps per user, e.g. the
 * care timer's drafts, on sign-out).
 */
export function removeStoredByPrefix(prefix: string): void {
  try {
    const keys: string[] = [];
    for (let i = 0; i < localStorage.length; i += 1) {
      const key = localStorage.key(i);
      if (key?.startsWith(prefix)) keys.push(key);
    }
    for (const key of keys) localStorage.removeItem(key);
  } catch {
    // No storage: nothing was kept.
  }
}
