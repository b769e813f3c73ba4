/*
 * Where to go after signing in, when a page sent a signed-out visitor to the sign-in page on
 * purpose (the EHR launch page: the clinician arrives from the EHR and must end on the patient).
 * Kept in this tab only, for a few minutes, and only ever a path of this site.
 */
const RETURN_TO_KEY = 'rpm.returnTo';
const RETURN_TO_MAX_AGE_MS = 15 * 60 * 1000;

/** A path of this site ('/x'), never another origin ('//host', '/\\host', 'https://...'). */
const isLocalPath = (path: string) => path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\');

export function rememberReturnTo(path: string): void {
  if (!isLocalPath(path)) return;
  try {
    sessionStorage.setItem(RETURN_TO_KEY, JSON.stringify({ path, at: Date.now() }));
  } catch {
    /* storage blocked: the user lands on the dashboard instead */
  }
}

/**
 * The remembered path, or null when there is none or it is stale. Read, not taken: the sign-in
 * page and the guard that moves a signed-in user off it both go there, whichever runs last; the
 * page it names clears it once it has been reached (clearReturnTo).
 */
export function returnToPath(): string | null {
  try {
    const raw = sessionStorage.getItem(RETURN_TO_KEY);
    if (!raw) return null;
    const { path, at } = JSON.parse(raw) as { path?: unknown; at?: unknown };
    if (typeof path !== 'string' || typeof at !== 'number' || !isLocalPath(path)) return null;
    return Date.now() - at <= RETURN_TO_MAX_AGE_MS ? path : null;
  } catch {
    return null;
  }
}

export function clearReturnTo(): void {
  try {
    sessionStorage.removeItem(RETURN_TO_KEY);
  } catch {
    /* storage blocked */
  }
}
