import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

/** Pages load their chunk and often their data before the heading exists; past this, give up. */
const HEADING_WAIT_MS = 10_000;
const HEADING_POLL_MS = 100;

/**
 * After each route change, moves focus to the new page's h1 so a screen reader announces where the
 * user is and the next Tab starts at the page rather than at the link that led there. The first
 * load is left alone (the browser and any autoFocus field decide), and so is a page that has
 * already put focus into its own content.
 */
export function useFocusHeadingOnNavigation(mainId: string): void {
  const { pathname } = useLocation();
  const firstLoad = useRef(true);

  useEffect(() => {
    if (firstLoad.current) {
      firstLoad.current = false;
      return;
    }
    const main = document.getElementById(mainId);
    if (!main) return;

    const focusHeading = (): boolean => {
      const heading = main.querySelector<HTMLElement>('h1');
      if (!heading) return false;
      const active = document.activeElement;
      if (active && active !== main && active !== document.body && main.contains(active)) return true;
      if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
      heading.focus({ preventScroll: false });
      return true;
    };

    // Polled rather than observed: menus and drawers closing in the same click hand focus back to
    // their button in an effect, and the heading must win over that.
    const started = Date.now();
    const timer = setInterval(() => {
      if (focusHeading() || Date.now() - started > HEADING_WAIT_MS) clearInterval(timer);
    }, HEADING_POLL_MS);
    return () => clearInterval(timer);
  }, [pathname, mainId]);
}
