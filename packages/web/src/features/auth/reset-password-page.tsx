import { Alert, Button, Link, Stack } from '@mui/material';
import { AuthLabels, Toasts, Validation, isValidEmail } from '@rpm/contracts';
import { confirmResetPassword } from 'aws-amplify/auth';
import { useSnackbar } from 'notistack';
import { useState, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { paths } from '../../app/paths.ts';
import { AuthCard, BackToLoginLink, EmailField } from '../../components/auth-card.tsx';
import { NewPasswordFields, newPasswordErrors } from '../../components/password-field.tsx';
import { ensureAmplifyConfigured } from '../../lib/amplify.ts';

/** Sets a new password with the code from the reset email (/reset-password?code=...&email=...). */
export default function ResetPasswordPage() {
  const { enqueueSnackbar } = useSnackbar();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const code = params.get('code')?.trim() ?? '';
  const [email, setEmail] = useState(params.get('email') ?? '');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const handleSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const next: Record<string, string> = { ...newPasswordErrors(password, confirm) };
    if (!isValidEmail(email)) next.email = Validation.email;
    setErrors(next);
    if (Object.keys(next).length) return;
    setBusy(true);
    try {
      await ensureAmplifyConfigured();
      await confirmResetPassword({ username: email.trim(), confirmationCode: code, newPassword: password });
      enqueueSnackbar(Toasts.passwordUpdated, { variant: 'success' });
      navigate(paths.login, { replace: true });
    } catch (err) {
      enqueueSnackbar(err instanceof Error && err.message ? err.message : Validation.resetLinkInvalid, {
        variant: 'error',
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthCard title={AuthLabels.resetPasswordTitle}>
      {!code ? (
        <Stack spacing={2}>
          <Alert severity="error">{Validation.resetLinkInvalid}</Alert>
          <Link component={RouterLink} to={paths.forgotPassword}>
            {AuthLabels.forgotPasswordTitle}
          </Link>
        </Stack>
      ) : (
        <Stack component="form" noValidate onSubmit={handleSubmit} spacing={2}>
          <EmailField value={email} onChange={setEmail} error={errors.email} />
          <NewPasswordFields
            password={password}
            confirm={confirm}
            onPasswordChange={setPassword}
            onConfirmChange={setConfirm}
            errors={errors}
          />
          <Button type="submit" variant="contained" size="large" disabled={busy}>
            {AuthLabels.resetPasswordSubmit}
          </Button>
          <BackToLoginLink />
        </Stack>
      )}
    </AuthCard>
  );
}
