/*
 * Which portal tabs are open, so that closing one tab does not end the session the other tabs
 * share (they all use the same cookie). Only the last tab to close sends the sign-out beacon.
 * Each open tab renews its entry every TAB_HEARTBEAT_MS; an entry not renewed for TAB_STALE_MS
 * belongs to a tab that crashed or was killed, and no longer counts.
 */
const KEY = 'rpm.openTabs';
export const TAB_HEARTBEAT_MS = 30_000;
export const TAB_STALE_MS = 3 * TAB_HEARTBEAT_MS;

type Registry = Record<string, number>;

function read(): Registry {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(KEY) ?? '{}');
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    return Object.fromEntries(
      Object.entries(parsed as Record<string, unknown>).filter((e): e is [string, number] => typeof e[1] === 'number'),
    );
  } catch {
    return {};
  }
}

function live(registry: Registry, now: number): Registry {
  return Object.fromEntries(Object.entries(registry).filter(([, seen]) => now - seen < TAB_STALE_MS));
}

function write(registry: Registry): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(registry));
  } catch {
    /* storage blocked: every tab acts as the last one */
  }
}

/** Adds or renews this tab's entry (call on start and every TAB_HEARTBEAT_MS). */
export function registerTab(id: string, now: number = Date.now()): void {
  write({ ...live(read(), now), [id]: now });
}

/** Removes this tab and says whether other portal tabs are still open. */
export function unregisterTab(id: string, now: number = Date.now()): { othersOpen: boolean } {
  const rest = live(read(), now);
  delete rest[id];
  write(rest);
  return { othersOpen: Object.keys(rest).length > 0 };
}
