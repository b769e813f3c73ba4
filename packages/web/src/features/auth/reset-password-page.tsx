import { Alert, Box, Button, Link, Paper, Stack, TextField, Typography } from '@mui/material';
import { AuthLabels, Toasts, Validation, isValidEmail, meetsPasswordPolicy } from '@rpm/contracts';
import { confirmResetPassword } from 'aws-amplify/auth';
import { useSnackbar } from 'notistack';
import { useState, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { paths } from '../../app/paths.ts';
import { PasswordField } from '../../components/password-field.tsx';
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
    const next: Record<string, string> = {};
    if (!isValidEmail(email)) next.email = Validation.email;
    if (!meetsPasswordPolicy(password)) next.password = Validation.passwordPolicy;
    if (password !== confirm) next.confirm = Validation.passwordsMismatch;
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
    <Box sx={{ display: 'flex', justifyContent: 'center', pt: { xs: 2, sm: 6 } }}>
      <Paper sx={{ p: 4, width: '100%', maxWidth: 420 }} variant="outlined">
        <Typography variant="h4" component="h1" gutterBottom>
          {AuthLabels.resetPasswordTitle}
        </Typography>
        {!code ? (
          <Stack spacing={2}>
            <Alert severity="error">{Validation.resetLinkInvalid}</Alert>
            <Link component={RouterLink} to={paths.forgotPassword}>
              {AuthLabels.forgotPasswordTitle}
            </Link>
          </Stack>
        ) : (
          <Stack component="form" noValidate onSubmit={handleSubmit} spacing={2}>
            <TextField
              label={AuthLabels.email}
              type="email"
              autoComplete="username"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              error={!!errors.email}
              helperText={errors.email}
              fullWidth
            />
            <PasswordField
              label={AuthLabels.newPassword}
              autoComplete="new-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              error={!!errors.password}
              helperText={errors.password}
              fullWidth
            />
            <PasswordField
              label={AuthLabels.confirmPassword}
              autoComplete="new-password"
              value={confirm}
              onChange={(e) => setConfirm(e.target.value)}
              error={!!errors.confirm}
              helperText={errors.confirm}
              fullWidth
            />
            <Button type="submit" variant="contained" size="large" disabled={busy}>
              {AuthLabels.resetPasswordSubmit}
            </Button>
            <Link component={RouterLink} to={paths.login}>
              {AuthLabels.backToLogin}
            </Link>
          </Stack>
        )}
      </Paper>
    </Box>
  );
}
