import { CssBaseline, ThemeProvider, styled } from '@mui/material';
import { QueryClientProvider } from '@tanstack/react-query';
import { MaterialDesignContent, SnackbarProvider } from 'notistack';
import { useState, type ReactNode } from 'react';
import { AuthProvider } from '../lib/auth/auth-context.tsx';
import { createQueryClient } from '../lib/auth/query-cache.ts';
import { prefetchRouteData } from './router.tsx';
import { theme } from './theme.ts';

// notistack's default colours put white text on light green and light blue, below WCAG AA contrast.
const ToastContent = styled(MaterialDesignContent)(({ theme }) => ({
  '&.notistack-MuiContent-success': { backgroundColor: theme.palette.success.dark },
  '&.notistack-MuiContent-error': { backgroundColor: theme.palette.error.dark },
  '&.notistack-MuiContent-info': { backgroundColor: theme.palette.info.dark },
  '&.notistack-MuiContent-warning': { backgroundColor: '#8a4b00' },
}));
// Top centre sits over the top bar, which holds no form field; at the bottom toasts covered the
// submit buttons and fields of forms, most of all on a phone.
const TOAST_POSITION = { vertical: 'top', horizontal: 'center' } as const;
const toastComponents = { success: ToastContent, error: ToastContent, info: ToastContent, warning: ToastContent };

export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <QueryClientProvider client={queryClient}>
        <SnackbarProvider Components={toastComponents} maxSnack={3} autoHideDuration={5000} anchorOrigin={TOAST_POSITION}>
          <AuthProvider onSessionRestored={() => prefetchRouteData(queryClient, window.location.pathname)}>
            {children}
          </AuthProvider>
        </SnackbarProvider>
      </QueryClientProvider>
    </ThemeProvider>
  );
}
