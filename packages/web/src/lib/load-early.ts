/**
 * Starts a lazily loaded module's download now, and returns the loader for `lazy()` to use when
 * the component first renders: the download runs beside whatever else the page is waiting for,
 * not after it. A failed early download is retried by that first render (a flaky network then
 * shows the Suspense fallback again rather than an error).
 */
export function loadEarly<T>(load: () => Promise<T>): () => Promise<T> {
  const early = load();
  early.catch(() => {});
  return () => early.catch(load);
}
