import { Alert, Box, Button, Link, Stack, Typography } from '@mui/material';
import { AuthLabels, FORGOT_PASSWORD_LOCKOUT_MS, Toasts, UxTexts, Validation, isValidEmail } from '@rpm/contracts';
import { resetPassword } from 'aws-amplify/auth';
import { useSnackbar } from 'notistack';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link as RouterLink, useLocation } from 'react-router';
import { paths } from '../../app/paths.ts';
import { AuthCard, BackToLoginLink, EmailField, handedOverEmail } from '../../components/auth-card.tsx';
import { ensureAmplifyConfigured } from '../../lib/amplify.ts';
import { poolMessage } from '../../lib/pool-error.ts';

/**
 * Requests a reset code by email. An unknown address gets the same answer as a known one, so the
 * page never tells who has an account. The button rests for FORGOT_PASSWORD_LOCKOUT_MS after each
 * request.
 */
export default function ForgotPasswordPage() {
  const { enqueueSnackbar } = useSnackbar();
  const location = useLocation();
  const [email, setEmail] = useState(() => handedOverEmail(location.state));
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
        enqueueSnackbar(poolMessage(err, Toasts.requestFailed), { variant: 'error' });
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
        <EmailField value={email} onChange={setEmail} error={error} onValidate={setError} autoFocus />
        <Button type="submit" variant="contained" size="large" disabled={busy || locked}>
          {AuthLabels.sendResetLink}
        </Button>
        <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 2 }}>
          <BackToLoginLink />
          <Link component={RouterLink} to={paths.resetPassword} state={{ email: email.trim() }}>
            {UxTexts.haveCode}
          </Link>
        </Box>
      </Stack>
    </AuthCard>
  );
}
