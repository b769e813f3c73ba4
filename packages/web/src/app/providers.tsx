import { CssBaseline, ThemeProvider } from '@mui/material';
import { QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { AuthProvider, useAuth } from '../lib/auth/auth-context.tsx';
import { createQueryClient } from '../lib/auth/query-cache.ts';
import { ToastHost } from '../lib/toast/toast-host.tsx';
import { prefetchRouteData } from './router.tsx';
import { theme } from './theme.ts';

export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <QueryClientProvider client={queryClient}>
        <AuthProvider onSessionRestored={() => prefetchRouteData(queryClient, window.location.pathname)}>
          {children}
          <SessionToastHost />
        </AuthProvider>
      </QueryClientProvider>
    </ThemeProvider>
  );
}

/** The toaster's code is fetched ahead only for a signed-in user (see ToastHost). */
function SessionToastHost() {
  const { user } = useAuth();
  return <ToastHost prefetch={user !== null} />;
}
