import { Box, Button, Link, Stack, TextField, Typography } from '@mui/material';
import { AuthLabels, Toasts, UxTexts, Validation, isValidEmail } from '@rpm/contracts';
import { confirmResetPassword } from 'aws-amplify/auth';
import { useSnackbar } from 'notistack';
import { useState, type FormEvent } from 'react';
import { Link as RouterLink, useLocation, useNavigate, useSearchParams } from 'react-router';
import { paths } from '../../app/paths.ts';
import { AuthCard, BackToLoginLink, EmailField, handedOverEmail } from '../../components/auth-card.tsx';
import { helperLine } from '../../components/helper-text.ts';
import { NewPasswordFields, newPasswordErrors } from '../../components/password-field.tsx';
import { ensureAmplifyConfigured } from '../../lib/amplify.ts';
import { poolErrorName, poolMessage } from '../../lib/pool-error.ts';

/** The pool's answers that mean "this code will not do": the user corrects it or asks for another. */
const CODE_ERRORS = new Set(['CodeMismatchException', 'ExpiredCodeException']);

type Errors = { email?: string; code?: string; password?: string; confirm?: string };

/**
 * Sets a new password with the code from the reset e-mail. The link fills in the code and e-mail
 * (/reset-password?code=...&email=...), but both stay editable: the e-mail also offers the code to
 * type, and a mistyped or expired code must be correctable without a new link.
 */
export default function ResetPasswordPage() {
  const { enqueueSnackbar } = useSnackbar();
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const [email, setEmail] = useState(() => params.get('email') ?? handedOverEmail(location.state));
  const [code, setCode] = useState(() => params.get('code')?.trim() ?? '');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);

  const setError = (field: keyof Errors, message: string | null | undefined) =>
    setErrors((e) => ({ ...e, [field]: message ?? undefined }));

  const handleSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const next: Errors = { ...newPasswordErrors(password, confirm) };
    if (!isValidEmail(email)) next.email = Validation.email;
    if (!code.trim()) next.code = UxTexts.resetCodeRequired;
    setErrors(next);
    if (Object.keys(next).length) return;
    setBusy(true);
    try {
      await ensureAmplifyConfigured();
      await confirmResetPassword({ username: email.trim(), confirmationCode: code.trim(), newPassword: password });
      enqueueSnackbar(Toasts.passwordUpdated, { variant: 'success' });
      navigate(paths.login, { replace: true });
    } catch (err) {
      const message = poolMessage(err, Validation.resetLinkInvalid);
      if (CODE_ERRORS.has(poolErrorName(err))) setError('code', Validation.resetLinkInvalid);
      enqueueSnackbar(message, { variant: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthCard title={AuthLabels.resetPasswordTitle}>
      <Stack component="form" noValidate onSubmit={handleSubmit} spacing={2}>
        <Typography color="text.secondary">{UxTexts.resetPasswordIntro}</Typography>
        <EmailField
          value={email}
          onChange={setEmail}
          error={errors.email}
          onValidate={(message) => setError('email', message)}
          autoFocus={!email}
        />
        <TextField
          label={AuthLabels.code}
          autoComplete="one-time-code"
          autoFocus={!!email && !code}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          onBlur={() => setError('code', code.trim() ? null : UxTexts.resetCodeRequired)}
          error={!!errors.code}
          helperText={helperLine(errors.code)}
          fullWidth
        />
        <NewPasswordFields
          password={password}
          confirm={confirm}
          onPasswordChange={setPassword}
          onConfirmChange={setConfirm}
          errors={errors}
          onValidate={setError}
          autoFocus={!!email && !!code}
        />
        <Button type="submit" variant="contained" size="large" disabled={busy}>
          {AuthLabels.resetPasswordSubmit}
        </Button>
        <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 2 }}>
          <BackToLoginLink />
          <Link component={RouterLink} to={paths.forgotPassword} state={{ email: email.trim() }}>
            {AuthLabels.forgotPasswordTitle}
          </Link>
        </Box>
      </Stack>
    </AuthCard>
  );
}
