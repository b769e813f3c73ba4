import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { restoreSession } from '../lib/auth/session-restore.ts';
import { Providers } from './providers.tsx';
import { AppRoutes, preloadRouteCode } from './router.tsx';
import { SIGN_IN_SHELL_ID } from './sign-in-shell.ts';

// The opened page's code downloads while the session is being checked, not after it.
const pageCode = preloadRouteCode(window.location.pathname);

async function render() {
  // The page arrived with the sign-in page's outline already drawn (a signed-out visit to /login):
  // the first render waits for the session check and the page's code, so that the outline is
  // replaced by that same page, not by a loading indicator in between.
  if (document.getElementById(SIGN_IN_SHELL_ID)) await Promise.all([restoreSession().catch(() => null), pageCode]);
  // Rendered as a transition, React builds the first screen in slices of a few milliseconds and
  // lets the browser breathe in between, instead of one long task a phone's CPU stalls on (input,
  // the session check's answer and the page's own code arriving are handled meanwhile).
  const root = createRoot(document.getElementById('root')!);
  startTransition(() => {
    root.render(
      <StrictMode>
        <Providers>
          <BrowserRouter>
            <AppRoutes />
          </BrowserRouter>
        </Providers>
      </StrictMode>,
    );
  });
}
void render();
