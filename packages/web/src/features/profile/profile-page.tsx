import { Box, Button, Chip, Paper, Stack, TextField, Typography } from '@mui/material';
import { AuthLabels, Labels, Toasts, UxTexts, Validation, normalizeMfaCode, type MeResponse } from '@rpm/contracts';
import { setUpTOTP, updateMFAPreference, updatePassword, verifyTOTPSetup } from 'aws-amplify/auth';
import { useSnackbar } from 'notistack';
import { useEffect, useState, type FormEvent } from 'react';
import { helperLine } from '../../components/helper-text.ts';
import { NewPasswordFields, PasswordField, newPasswordErrors } from '../../components/password-field.tsx';
import { TotpQrCode } from '../../components/totp-qr-code.tsx';
import { TOTP_ISSUER, ensureAmplifyConfigured } from '../../lib/amplify.ts';
import { apiPost } from '../../lib/api-client.ts';
import { useAuth } from '../../lib/auth/auth-context.tsx';

function ChangePassword() {
  const { enqueueSnackbar } = useSnackbar();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const setFieldError = (field: string, message: string | null) =>
    setErrors(({ [field]: _old, ...rest }) => (message ? { ...rest, [field]: message } : rest));

  const handleSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const found: Record<string, string> = { ...newPasswordErrors(next, confirm) };
    if (!current) found.current = UxTexts.currentPasswordRequired;
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      await ensureAmplifyConfigured();
      await updatePassword({ oldPassword: current, newPassword: next });
      setCurrent('');
      setNext('');
      setConfirm('');
      enqueueSnackbar(Toasts.passwordChanged, { variant: 'success' });
    } catch {
      enqueueSnackbar(Toasts.changePasswordFailed, { variant: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Paper variant="outlined" sx={{ p: 3 }} component="section" aria-labelledby="change-password-title">
      <Typography variant="h6" component="h2" id="change-password-title" gutterBottom>
        {AuthLabels.changePassword}
      </Typography>
      <Stack component="form" noValidate onSubmit={handleSubmit} spacing={2} sx={{ maxWidth: 420 }}>
        <PasswordField
          label={AuthLabels.currentPassword}
          autoComplete="current-password"
          value={current}
          onChange={(e) => setCurrent(e.target.value)}
          onBlur={() => setFieldError('current', current ? null : UxTexts.currentPasswordRequired)}
          error={!!errors.current}
          helperText={helperLine(errors.current)}
          fullWidth
        />
        <NewPasswordFields
          password={next}
          confirm={confirm}
          onPasswordChange={setNext}
          onConfirmChange={setConfirm}
          errors={errors}
          onValidate={setFieldError}
        />
        <Button type="submit" variant="contained" disabled={busy} sx={{ alignSelf: 'flex-start' }}>
          {AuthLabels.changePassword}
        </Button>
      </Stack>
    </Paper>
  );
}

function Mfa() {
  const { enqueueSnackbar } = useSnackbar();
  const { user, refreshUser } = useAuth();
  const [setup, setSetup] = useState<{ uri: string; secret: string } | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!user) return null;

  const handleSetUp = async () => {
    setBusy(true);
    try {
      await ensureAmplifyConfigured();
      const details = await setUpTOTP();
      setSetup({ uri: details.getSetupUri(TOTP_ISSUER, user.email).toString(), secret: details.sharedSecret });
      setCode('');
      enqueueSnackbar(Toasts.scanQrCode, { variant: 'info' });
    } catch {
      enqueueSnackbar(Toasts.failedToSetUpMfa, { variant: 'error' });
    } finally {
      setBusy(false);
    }
  };

  const handleVerify = async (e: FormEvent) => {
    e.preventDefault();
    const normalized = normalizeMfaCode(code);
    if (!normalized) {
      setCodeError(Validation.mfaCode);
      return;
    }
    setCodeError(null);
    setBusy(true);
    try {
      await verifyTOTPSetup({ code: normalized });
      await updateMFAPreference({ totp: 'PREFERRED' });
      await apiPost<MeResponse>('/api/me/mfa', { enabled: true });
      await refreshUser();
      setSetup(null);
      setCode('');
      enqueueSnackbar(Toasts.mfaEnabled, { variant: 'success' });
    } catch {
      enqueueSnackbar(Toasts.verificationFailed, { variant: 'error' });
    } finally {
      setBusy(false);
    }
  };

  const handleDisable = async () => {
    setBusy(true);
    try {
      await ensureAmplifyConfigured();
      await updateMFAPreference({ totp: 'DISABLED' });
      await apiPost<MeResponse>('/api/me/mfa', { enabled: false });
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
            value={code}
            onChange={(e) => setCode(e.target.value)}
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
