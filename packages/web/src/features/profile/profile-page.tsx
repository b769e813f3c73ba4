import { Box, Button, Chip, Paper, Stack, TextField, Typography } from '@mui/material';
import {
  AuthLabels,
  Labels,
  Toasts,
  UxTexts,
  formSchema,
  mfaCodeText,
  newPasswordPair,
  normalizeMfaCode,
  requiredText,
  type FormValues,
} from '@rpm/contracts';
import { setUpTOTP, updateMFAPreference, updatePassword, verifyTOTPSetup } from 'aws-amplify/auth';
import { useSnackbar } from '../../lib/toast/toast.ts';
import { useEffect, useState } from 'react';
import { inputProps, textFieldProps } from '../../components/form/text-field-props.ts';
import { useSchemaForm } from '../../components/form/use-schema-form.ts';
import { NewPasswordFields, PasswordField } from '../../components/password-field.tsx';
import { TotpQrCode } from '../../components/totp-qr-code.tsx';
import { ensureAmplifyConfigured } from '../../lib/amplify.ts';
import { TOTP_ISSUER } from '../../lib/pool-auth.ts';
import { useUpdateMfa } from '../../api/me/update-mfa.ts';
import { useAuth } from '../../lib/auth/auth-context.tsx';

const ChangePasswordForm = newPasswordPair({ current: requiredText(UxTexts.currentPasswordRequired) });
type ChangePasswordValues = FormValues<typeof ChangePasswordForm>;
const NO_PASSWORDS: ChangePasswordValues = { current: '', password: '', confirm: '' };

function ChangePassword() {
  const { enqueueSnackbar } = useSnackbar();
  const form = useSchemaForm<ChangePasswordValues>(ChangePasswordForm, { defaultValues: NO_PASSWORDS });

  const handleSubmit = form.handleSubmit(async ({ current, password }) => {
    try {
      await ensureAmplifyConfigured();
      await updatePassword({ oldPassword: current, newPassword: password });
      form.reset(NO_PASSWORDS);
      enqueueSnackbar(Toasts.passwordChanged, { variant: 'success' });
    } catch {
      enqueueSnackbar(Toasts.changePasswordFailed, { variant: 'error' });
    }
  });

  return (
    <Paper variant="outlined" sx={{ p: 3 }} component="section" aria-labelledby="change-password-title">
      <Typography variant="h6" component="h2" id="change-password-title" gutterBottom>
        {AuthLabels.changePassword}
      </Typography>
      <Stack component="form" noValidate onSubmit={handleSubmit} spacing={2} sx={{ maxWidth: 420 }}>
        <PasswordField
          label={AuthLabels.currentPassword}
          autoComplete="current-password"
          fullWidth
          {...textFieldProps(form, 'current')}
        />
        <NewPasswordFields
          password={textFieldProps(form, 'password', { quietWhenEmpty: true })}
          confirm={textFieldProps(form, 'confirm', { quietWhenEmpty: true })}
        />
        <Button type="submit" variant="contained" disabled={form.formState.isSubmitting} sx={{ alignSelf: 'flex-start' }}>
          {AuthLabels.changePassword}
        </Button>
      </Stack>
    </Paper>
  );
}

const MfaCodeForm = formSchema({ code: mfaCodeText() });

function Mfa() {
  const { enqueueSnackbar } = useSnackbar();
  const { user, refreshUser } = useAuth();
  const updateMfa = useUpdateMfa();
  const [setup, setSetup] = useState<{ uri: string; secret: string } | null>(null);
  // The code is judged on Verify only: a half-typed code is not wrong yet.
  const form = useSchemaForm<FormValues<typeof MfaCodeForm>>(MfaCodeForm, {
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
    defaultValues: { code: '' },
  });
  const [busy, setBusy] = useState(false);
  if (!user) return null;
  const codeError = form.formState.errors.code?.message;

  const handleSetUp = async () => {
    setBusy(true);
    try {
      await ensureAmplifyConfigured();
      const details = await setUpTOTP();
      setSetup({ uri: details.getSetupUri(TOTP_ISSUER, user.email).toString(), secret: details.sharedSecret });
      form.reset({ code: '' });
      enqueueSnackbar(Toasts.scanQrCode, { variant: 'info' });
    } catch {
      enqueueSnackbar(Toasts.failedToSetUpMfa, { variant: 'error' });
    } finally {
      setBusy(false);
    }
  };

  const handleVerify = form.handleSubmit(async ({ code }) => {
    setBusy(true);
    try {
      // The form's rule has accepted the code, so it normalizes.
      await verifyTOTPSetup({ code: normalizeMfaCode(code)! });
      await updateMFAPreference({ totp: 'PREFERRED' });
      await updateMfa.mutateAsync(true);
      await refreshUser();
      setSetup(null);
      form.reset({ code: '' });
      enqueueSnackbar(Toasts.mfaEnabled, { variant: 'success' });
    } catch {
      enqueueSnackbar(Toasts.verificationFailed, { variant: 'error' });
    } finally {
      setBusy(false);
    }
  });

  const handleDisable = async () => {
    setBusy(true);
    try {
      await ensureAmplifyConfigured();
      await updateMFAPreference({ totp: 'DISABLED' });
      await updateMfa.mutateAsync(false);
      await refreshUser();
      enqueueSnackbar(Toasts.mfaDisabled, { variant: 'success' });
    } catch {
      enqueueSnackbar(Toasts.disableMfaFailed, { variant: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Paper variant="outlined" sx={{ p: 3 }} component="section" aria-labelledby="mfa-title">
      <Typography variant="h6" component="h2" id="mfa-title" gutterBottom>
        {AuthLabels.mfaTitle}
      </Typography>
      <Typography sx={{ mb: 2 }}>{user.mfa_enabled ? AuthLabels.mfaOn : AuthLabels.mfaOff}</Typography>
      {user.mfa_enabled ? (
        <Button variant="outlined" color="error" onClick={handleDisable} disabled={busy}>
          {Labels.disableMfa}
        </Button>
      ) : setup ? (
        <Stack component="form" noValidate onSubmit={handleVerify} spacing={2} sx={{ maxWidth: 420 }}>
          <TotpQrCode uri={setup.uri} secret={setup.secret} />
          <TextField
            label={AuthLabels.code}
            autoComplete="one-time-code"
            {...inputProps(form, 'code')}
            error={!!codeError}
            helperText={codeError}
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
            fullWidth
          />
          <Button type="submit" variant="contained" disabled={busy} sx={{ alignSelf: 'flex-start' }}>
            {busy ? Labels.verifying : Labels.verify}
          </Button>
        </Stack>
      ) : (
        <Button variant="contained" onClick={handleSetUp} disabled={busy}>
          {Labels.setUpMfa}
        </Button>
      )}
    </Paper>
  );
}

/** Spec section 2: email and role, change password, MFA set-up or disable. */
export default function ProfilePage() {
  const { user, refreshUser } = useAuth();
  // Fresh from the server: the MFA flag may have changed in another tab.
  useEffect(() => {
    void refreshUser();
  }, [refreshUser]);
  if (!user) return null;
  return (
    <Stack spacing={3}>
      <Typography variant="h4" component="h1">
        {AuthLabels.profileTitle}
      </Typography>
      <Paper variant="outlined" sx={{ p: 3 }} component="section" aria-label={AuthLabels.profileTitle}>
        <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: 1.5, m: 0 }}>
          <Typography component="dt" fontWeight={600}>
            {AuthLabels.email}
          </Typography>
          <Typography component="dd" sx={{ m: 0 }} data-testid="profile-email">
            {user.email}
          </Typography>
          <Typography component="dt" fontWeight={600}>
            {AuthLabels.role}
          </Typography>
          <Box component="dd" sx={{ m: 0 }}>
            <Chip label={user.role} size="small" data-testid="profile-role" />
          </Box>
        </Box>
      </Paper>
      <ChangePassword />
      <Mfa />
    </Stack>
  );
}
