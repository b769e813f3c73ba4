import { styled } from '@mui/material';
import { MaterialDesignContent, SnackbarProvider, useSnackbar } from 'notistack';
import { useEffect } from 'react';
import { attachToaster } from './toast.ts';

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

function Attach() {
  const { enqueueSnackbar } = useSnackbar();
  useEffect(() => {
    attachToaster((message, options) => enqueueSnackbar(message, options));
    return () => attachToaster(null);
  }, [enqueueSnackbar]);
  return null;
}

export default function Toaster() {
  return (
    <SnackbarProvider Components={toastComponents} maxSnack={3} autoHideDuration={5000} anchorOrigin={TOAST_POSITION}>
      <Attach />
    </SnackbarProvider>
  );
}
