import { Suspense, lazy, useEffect, useState } from 'react';
import { onToastWanted } from './toast.ts';

const loadToaster = () => import('./toaster.tsx');
const Toaster = lazy(loadToaster);

/**
 * Fetches the toaster's code once the first page has rendered and the browser is idle, so that a
 * toast does not depend on a download (a failed save while offline still says so); mounts it with
 * the first toast, keeping that work out of the page's start-up. With `prefetch` false (signed
 * out: the sign-in pages report their errors in place) the code is fetched with the first toast
 * only, so that a first visit to /login does not download it.
 */
export function ToastHost({ prefetch = true }: { prefetch?: boolean }) {
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    if (onToastWanted(() => setWanted(true))) setWanted(true);
    return () => void onToastWanted(null);
  }, []);
  useEffect(() => {
    if (!prefetch) return;
    const idle = window.requestIdleCallback ?? ((run: () => void) => window.setTimeout(run, 1));
    const cancel = window.cancelIdleCallback ?? window.clearTimeout;
    const handle = idle(() => void loadToaster().catch(() => {}));
    return () => cancel(handle);
  }, [prefetch]);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
