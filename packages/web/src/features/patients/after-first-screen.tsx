import { startTransition, useEffect, useState, type ReactNode } from 'react';

/**
 * Draws its children right after the page's first screen, in a transition of their own: React
 * then renders them in slices it can interrupt, instead of within the one long task that drew the
 * first screen (on a phone, the record's details, insurance, panels, notes, tracking and outreach
 * doubled that task). Nothing waits for a scroll or an idle moment: they always follow at once,
 * so what a clinician sees in the end, and what a test waits for, is the same as before.
 * They sit at the end of the page, so nothing already drawn moves when they arrive.
 */
export function AfterFirstScreen({ children }: { children: ReactNode }) {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    startTransition(() => setShown(true));
  }, []);
  return shown ? children : null;
}
