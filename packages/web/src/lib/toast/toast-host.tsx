import { Suspense, lazy, useEffect, useState } from 'react';
import { onToastWanted } from './toast.ts';

const loadToaster = () => import('./toaster.tsx');
const Toaster = lazy(loadToaster);

/**
 * Fetches the toaster's code once the first page has rendered and the browser is idle, so that a
 * toast does not depend on a download (a failed save while offline still says so); mounts it with
 * the first toast, keeping that work out of the page's start-up.
 */
export function ToastHost() {
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    if (onToastWanted(() => setWanted(true))) setWanted(true);
    const idle = window.requestIdleCallback ?? ((run: () => void) => window.setTimeout(run, 1));
    const cancel = window.cancelIdleCallback ?? window.clearTimeout;
    const handle = idle(() => void loadToaster().catch(() => {}));
    return () => {
      cancel(handle);
      onToastWanted(null);
    };
  }, []);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
