/*
 * Which portal tabs are open, so that closing one tab does not end the session the other tabs
 * share (they all use the same cookie). Only the last tab to close sends the sign-out beacon.
 * A crashed tab may leave its id behind; the server's idle timeout still ends that session.
 */
const KEY = 'rpm.openTabs';

function read(): string[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

function write(ids: string[]): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(ids));
  } catch {
    /* storage blocked: every tab acts as the last one */
  }
}

export function registerTab(id: string): void {
  const ids = read();
  if (!ids.includes(id)) write([...ids, id]);
}

/** Removes this tab and says whether other portal tabs are still open. */
export function unregisterTab(id: string): { othersOpen: boolean } {
  const rest = read().filter((x) => x !== id);
  write(rest);
  return { othersOpen: rest.length > 0 };
}
