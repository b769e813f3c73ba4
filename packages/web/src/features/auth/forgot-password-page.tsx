import { Alert, Box, Button, Link, Stack, Typography } from '@mui/material';
import { AuthLabels, FORGOT_PASSWORD_LOCKOUT_MS, Toasts, UxTexts, emailText, formSchema, type FormValues } from '@rpm/contracts';
import { resetPassword } from 'aws-amplify/auth';
import { useSnackbar } from '../../lib/toast/toast.ts';
import { useEffect, useRef, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { Link as RouterLink, useLocation } from 'react-router';
import { paths } from '../../config/paths.ts';
import { AuthCard, BackToLoginLink, EmailField, handedOverEmail } from '../../components/auth-card.tsx';
import { textFieldProps } from '../../components/form/text-field-props.ts';
import { useSchemaForm } from '../../components/form/use-schema-form.ts';
import { ensureAmplifyConfigured } from '../../lib/amplify.ts';
import { poolMessage } from '../../lib/pool-error.ts';

const ForgotPasswordForm = formSchema({ email: emailText() });

/**
 * Requests a reset code by email. An unknown address gets the same answer as a known one, so the
 * page never tells who has an account. The button rests for FORGOT_PASSWORD_LOCKOUT_MS after each
 * request.
 */
export default function ForgotPasswordPage() {
  const { enqueueSnackbar } = useSnackbar();
  const location = useLocation();
  const form = useSchemaForm<FormValues<typeof ForgotPasswordForm>>(ForgotPasswordForm, {
    defaultValues: { email: handedOverEmail(location.state) },
  });
  const email = useWatch({ control: form.control, name: 'email' });
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

  const handleSubmit = form.handleSubmit(async ({ email }) => {
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
    }
  });

  return (
    <AuthCard title={AuthLabels.forgotPasswordTitle}>
      <Stack component="form" noValidate onSubmit={handleSubmit} spacing={2}>
        <Typography color="text.secondary">{AuthLabels.forgotPasswordIntro}</Typography>
        {sent && <Alert severity="success">{Toasts.forgotPasswordSent}</Alert>}
        <EmailField autoFocus {...textFieldProps(form, 'email', { quietWhenEmpty: true })} />
        <Button type="submit" variant="contained" size="large" disabled={form.formState.isSubmitting || locked}>
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
