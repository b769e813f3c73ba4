import { Suspense, lazy, useEffect, useState } from 'react';
import { onToastWanted } from './toast.ts';

const Toaster = lazy(() => import('./toaster.tsx'));

/**
 * Mounts the toaster once the first page has rendered and the browser is idle (or at once when a
 * toast is asked for earlier), so that a later toast does not depend on a download.
 */
export function ToastHost() {
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    if (onToastWanted(() => setWanted(true))) setWanted(true);
    const idle = window.requestIdleCallback ?? ((run: () => void) => window.setTimeout(run, 1));
    const cancel = window.cancelIdleCallback ?? window.clearTimeout;
    const handle = idle(() => setWanted(true));
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
