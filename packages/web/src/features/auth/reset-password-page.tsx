import { Box, Button, Link, Stack, TextField, Typography } from '@mui/material';
import {
  AuthLabels,
  Toasts,
  UxTexts,
  Validation,
  emailText,
  newPasswordPair,
  requiredText,
  type FormValues,
} from '@rpm/contracts';
import { confirmResetPassword } from 'aws-amplify/auth';
import { useSnackbar } from '../../lib/toast/toast.ts';
import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import { Link as RouterLink, useLocation, useNavigate, useSearchParams } from 'react-router';
import { paths } from '../../config/paths.ts';
import { AuthCard, BackToLoginLink, EmailField, handedOverEmail } from '../../components/auth-card.tsx';
import { textFieldProps } from '../../components/form/text-field-props.ts';
import { useSchemaForm } from '../../components/form/use-schema-form.ts';
import { NewPasswordFields } from '../../components/password-field.tsx';
import { ensureAmplifyConfigured } from '../../lib/amplify.ts';
import { poolErrorName, poolMessage } from '../../lib/pool-error.ts';

/** The pool's answers that mean "this code will not do": the user corrects it or asks for another. */
const CODE_ERRORS = new Set(['CodeMismatchException', 'ExpiredCodeException']);

const ResetPasswordForm = newPasswordPair({ email: emailText(), code: requiredText(UxTexts.resetCodeRequired) });
type ResetPasswordValues = FormValues<typeof ResetPasswordForm>;

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
  const [initial] = useState<ResetPasswordValues>(() => ({
    email: params.get('email') ?? handedOverEmail(location.state),
    code: params.get('code')?.trim() ?? '',
    password: '',
    confirm: '',
  }));
  const form = useSchemaForm<ResetPasswordValues>(ResetPasswordForm, { defaultValues: initial });
  const email = useWatch({ control: form.control, name: 'email' });

  const handleSubmit = form.handleSubmit(async ({ email, code, password }) => {
    try {
      await ensureAmplifyConfigured();
      await confirmResetPassword({ username: email.trim(), confirmationCode: code.trim(), newPassword: password });
      enqueueSnackbar(Toasts.passwordUpdated, { variant: 'success' });
      navigate(paths.login, { replace: true });
    } catch (err) {
      const message = poolMessage(err, Validation.resetLinkInvalid);
      if (CODE_ERRORS.has(poolErrorName(err))) form.setError('code', { message: Validation.resetLinkInvalid });
      enqueueSnackbar(message, { variant: 'error' });
    }
  });

  return (
    <AuthCard title={AuthLabels.resetPasswordTitle}>
      <Stack component="form" noValidate onSubmit={handleSubmit} spacing={2}>
        <Typography color="text.secondary">{UxTexts.resetPasswordIntro}</Typography>
        <EmailField autoFocus={!initial.email} {...textFieldProps(form, 'email', { quietWhenEmpty: true })} />
        <TextField
          label={AuthLabels.code}
          autoComplete="one-time-code"
          autoFocus={!!initial.email && !initial.code}
          fullWidth
          {...textFieldProps(form, 'code')}
        />
        <NewPasswordFields
          password={textFieldProps(form, 'password', { quietWhenEmpty: true })}
          confirm={textFieldProps(form, 'confirm', { quietWhenEmpty: true })}
          autoFocus={!!initial.email && !!initial.code}
        />
        <Button type="submit" variant="contained" size="large" disabled={form.formState.isSubmitting}>
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
