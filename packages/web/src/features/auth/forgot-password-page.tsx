import { Alert, Button, Stack, Typography } from '@mui/material';
import { AuthLabels, FORGOT_PASSWORD_LOCKOUT_MS, Toasts, Validation, isValidEmail } from '@rpm/contracts';
import { resetPassword } from 'aws-amplify/auth';
import { useSnackbar } from 'notistack';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { AuthCard, BackToLoginLink, EmailField } from '../../components/auth-card.tsx';
import { ensureAmplifyConfigured } from '../../lib/amplify.ts';

/**
 * Requests a reset code by email. An unknown address gets the same answer as a known one, so the
 * page never tells who has an account. The button rests for FORGOT_PASSWORD_LOCKOUT_MS after each
 * request.
 */
export default function ForgotPasswordPage() {
  const { enqueueSnackbar } = useSnackbar();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [locked, setLocked] = useState(false);
  const [sent, setSent] = useState(false);
  const lockTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(
    () => () => {
      if (lockTimer.current) clearTimeout(lockTimer.current);
    },
    [],
  );

  const lock = () => {
    setLocked(true);
    lockTimer.current = setTimeout(() => setLocked(false), FORGOT_PASSWORD_LOCKOUT_MS);
  };

  const handleSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (!isValidEmail(email)) {
      setError(Validation.email);
      return;
    }
    setError(null);
    setBusy(true);
    lock();
    try {
      await ensureAmplifyConfigured();
      await resetPassword({ username: email.trim() });
      setSent(true);
      enqueueSnackbar(Toasts.forgotPasswordSent, { variant: 'success' });
    } catch (err) {
      if (err instanceof Error && err.name === 'UserNotFoundException') {
        setSent(true);
        enqueueSnackbar(Toasts.forgotPasswordSent, { variant: 'success' });
      } else {
        enqueueSnackbar(err instanceof Error && err.message ? err.message : Toasts.requestFailed, { variant: 'error' });
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthCard title={AuthLabels.forgotPasswordTitle}>
      <Stack component="form" noValidate onSubmit={handleSubmit} spacing={2}>
        <Typography color="text.secondary">{AuthLabels.forgotPasswordIntro}</Typography>
        {sent && <Alert severity="success">{Toasts.forgotPasswordSent}</Alert>}
        <EmailField value={email} onChange={setEmail} error={error} autoFocus />
        <Button type="submit" variant="contained" size="large" disabled={busy || locked}>
          {AuthLabels.sendResetLink}
        </Button>
        <BackToLoginLink />
      </Stack>
    </AuthCard>
  );
}
