import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { Providers } from './providers.tsx';
import { createRouter, preloadRouteCode } from './router.tsx';

// The opened page's code downloads while the session is being checked, not after it.
preloadRouteCode(window.location.pathname);
const router = createRouter();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Providers>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
);
