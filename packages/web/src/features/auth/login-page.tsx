import { Box, Button, Link, Stack, TextField, Typography } from '@mui/material';
import { AuthLabels, Labels, Toasts, UxTexts, Validation, isValidEmail, normalizeMfaCode } from '@rpm/contracts';
import type { SignInOutput } from 'aws-amplify/auth';
import { useSnackbar } from 'notistack';
import { useState, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { paths } from '../../app/paths.ts';
import { AuthCard, EmailField } from '../../components/auth-card.tsx';
import { NewPasswordFields, PasswordField, newPasswordErrors } from '../../components/password-field.tsx';
import { TotpQrCode } from '../../components/totp-qr-code.tsx';
import { TOTP_ISSUER, poolAuth } from '../../lib/pool-auth.ts';
import { useAuth } from '../../lib/auth/auth-context.tsx';
import { poolErrorName, poolMessage } from '../../lib/pool-error.ts';
import { helperLine } from '../../components/helper-text.ts';

type Step =
  | { name: 'email' }
  | { name: 'password' }
  | { name: 'newPassword' }
  | { name: 'mfa' }
  | { name: 'mfaSetup'; uri: string; secret: string };


function withError(errors: Record<string, string>, field: string, message: string | null): Record<string, string> {
  const { [field]: _old, ...rest } = errors;
  return message ? { ...rest, [field]: message } : rest;
}

/**
 * Multi-step sign-in (spec sections 2 and 4): email, then password, then whatever the user pool
 * asks for next (a new password, a TOTP code, or TOTP set-up), then the portal session.
 */
export default function LoginPage() {
  const { enqueueSnackbar } = useSnackbar();
  const { completeSignIn } = useAuth();
  const navigate = useNavigate();
  const [step, setStep] = useState<Step>({ name: 'email' });
  const [busy, setBusy] = useState(false);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});

  const startOver = () => {
    setStep({ name: 'email' });
    setPassword('');
    setNewPassword('');
    setConfirm('');
    setCode('');
    setErrors({});
  };

  /** Moves to whatever the user pool asks for next; returns when the sign-in is complete. */
  const follow = async (output: SignInOutput): Promise<void> => {
    const next = output.nextStep;
    switch (next.signInStep) {
      case 'DONE':
        if (await completeSignIn()) navigate(paths.dashboard, { replace: true });
        else startOver();
        return;
      case 'CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED':
        setStep({ name: 'newPassword' });
        return;
      case 'CONFIRM_SIGN_IN_WITH_TOTP_CODE':
        setCode('');
        setStep({ name: 'mfa' });
        return;
      case 'CONTINUE_SIGN_IN_WITH_TOTP_SETUP': {
        const details = next.totpSetupDetails;
        setCode('');
        setStep({
          name: 'mfaSetup',
          uri: details.getSetupUri(TOTP_ISSUER, email.trim()).toString(),
          secret: details.sharedSecret,
        });
        return;
      }
      // The portal only offers TOTP, so a choice between factors is answered for the user.
      case 'CONTINUE_SIGN_IN_WITH_MFA_SELECTION':
      case 'CONTINUE_SIGN_IN_WITH_MFA_SETUP_SELECTION':
        await follow(await (await poolAuth()).confirmSignIn({ challengeResponse: 'TOTP' }));
        return;
      default:
        throw new Error(Toasts.loginFailed);
    }
  };

  const run = async (work: () => Promise<void>, fallback: string) => {
    setBusy(true);
    try {
      await work();
    } catch (err) {
      enqueueSnackbar(poolMessage(err, fallback), { variant: 'error' });
    } finally {
      setBusy(false);
    }
  };

  const handleEmail = (e: FormEvent) => {
    e.preventDefault();
    if (!isValidEmail(email)) {
      setErrors({ email: Validation.email });
      return;
    }
    setErrors({});
    setStep({ name: 'password' });
  };

  const handlePassword = (e: FormEvent) => {
    e.preventDefault();
    if (!password) {
      setErrors({ password: UxTexts.passwordRequired });
      return;
    }
    setErrors({});
    void run(async () => {
      const { signIn, signOut } = await poolAuth();
      const input = { username: email.trim(), password, options: { authFlowType: 'USER_SRP_AUTH' as const } };
      let output: SignInOutput;
      try {
        output = await signIn(input);
      } catch (err) {
        // Pool tokens left in this tab from an earlier sign-in: drop them and try once more.
        if (poolErrorName(err) !== 'UserAlreadyAuthenticatedException') throw err;
        await signOut();
        output = await signIn(input);
      }
      await follow(output);
    }, Toasts.loginFailed);
  };

  const handleNewPassword = (e: FormEvent) => {
    e.preventDefault();
    const next: Record<string, string> = { ...newPasswordErrors(newPassword, confirm) };
    setErrors(next);
    if (Object.keys(next).length) return;
    void run(async () => {
      await follow(await (await poolAuth()).confirmSignIn({ challengeResponse: newPassword }));
    }, Toasts.passwordChangeFailed);
  };

  const handleCode = (e: FormEvent) => {
    e.preventDefault();
    const normalized = normalizeMfaCode(code);
    if (!normalized) {
      setErrors({ code: Validation.mfaCode });
      return;
    }
    setErrors({});
    void run(async () => {
      await follow(await (await poolAuth()).confirmSignIn({ challengeResponse: normalized }));
    }, Toasts.mfaFailed);
  };

  const submitLabel = (label: string) => (busy ? Labels.verifying : label);

  return (
    <AuthCard title={AuthLabels.signInTitle}>
      {step.name === 'email' && (
        <Stack component="form" noValidate onSubmit={handleEmail} spacing={2}>
          <EmailField
            value={email}
            onChange={setEmail}
            error={errors.email}
            onValidate={(error) => setErrors(error ? { email: error } : {})}
            autoFocus
          />
          <Button type="submit" variant="contained" size="large">
            {Labels.next}
          </Button>
        </Stack>
      )}

      {step.name === 'password' && (
        <Stack component="form" noValidate onSubmit={handlePassword} spacing={2}>
          <Typography color="text.secondary">{email.trim()}</Typography>
          <PasswordField
            label={AuthLabels.password}
            autoComplete="current-password"
            autoFocus
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            onBlur={() => setErrors(password ? {} : { password: UxTexts.passwordRequired })}
            error={!!errors.password}
            helperText={helperLine(errors.password)}
            fullWidth
          />
          <Button type="submit" variant="contained" size="large" disabled={busy}>
            {submitLabel(Labels.login)}
          </Button>
          <Box sx={{ display: 'flex', justifyContent: 'space-between' }}>
            {/* Router state, not the address: the e-mail stays out of URLs and server logs. */}
            <Link component={RouterLink} to={paths.forgotPassword} state={{ email: email.trim() }}>
              {Labels.forgotPassword}
            </Link>
            <Link component="button" type="button" onClick={startOver}>
              {AuthLabels.startOver}
            </Link>
          </Box>
        </Stack>
      )}

      {step.name === 'newPassword' && (
        <Stack component="form" noValidate onSubmit={handleNewPassword} spacing={2}>
          <Typography>{AuthLabels.newPasswordIntro}</Typography>
          <NewPasswordFields
            password={newPassword}
            confirm={confirm}
            onPasswordChange={setNewPassword}
            onConfirmChange={setConfirm}
            errors={errors}
            onValidate={(field, message) => setErrors((e) => withError(e, field, message))}
            autoFocus
          />
          <Button type="submit" variant="contained" size="large" disabled={busy}>
            {submitLabel(Labels.setPassword)}
          </Button>
          <Link component="button" type="button" onClick={startOver} sx={{ alignSelf: 'flex-start' }}>
            {AuthLabels.startOver}
          </Link>
        </Stack>
      )}

      {(step.name === 'mfa' || step.name === 'mfaSetup') && (
        <Stack component="form" noValidate onSubmit={handleCode} spacing={2}>
          <Typography>{step.name === 'mfa' ? AuthLabels.mfaIntro : AuthLabels.mfaSetupIntro}</Typography>
          {step.name === 'mfaSetup' && <TotpQrCode uri={step.uri} secret={step.secret} />}
          <TextField
            label={AuthLabels.code}
            autoComplete="one-time-code"
            autoFocus
            value={code}
            onChange={(e) => setCode(e.target.value)}
            error={!!errors.code}
            helperText={helperLine(errors.code)}
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
            fullWidth
          />
          <Button type="submit" variant="contained" size="large" disabled={busy}>
            {submitLabel(Labels.verify)}
          </Button>
          <Link component="button" type="button" onClick={startOver} sx={{ alignSelf: 'flex-start' }}>
            {AuthLabels.startOver}
          </Link>
        </Stack>
      )}
    </AuthCard>
  );
}
