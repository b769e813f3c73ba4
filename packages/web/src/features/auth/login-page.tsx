import { Box, Button, Link, Stack, Typography } from '@mui/material';
import {
  AuthLabels,
  Labels,
  Toasts,
  UxTexts,
  emailText,
  formSchema,
  mfaCodeText,
  newPasswordPair,
  normalizeMfaCode,
  requiredText,
} from '@rpm/contracts';
import type { SignInOutput } from 'aws-amplify/auth';
import { useSnackbar } from '../../lib/toast/toast.ts';
import { Suspense, lazy, useState, type ChangeEvent, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { returnToPath } from '../../lib/auth/return-to.ts';
import { paths } from '../../config/paths.ts';
import { AuthCard, EmailField } from '../../components/auth-card.tsx';
import { formErrors } from '../../components/form/form-errors.ts';
import { NewPasswordFields, PasswordField } from '../../components/password-field.tsx';
import { OutlinedField } from '../../components/outlined-field.tsx';
import { TOTP_ISSUER, poolAuth } from '../../lib/pool-auth.ts';
import { useAuth } from '../../lib/auth/auth-context.tsx';
import { poolErrorName, poolMessage } from '../../lib/pool-error.ts';
import { helperLine } from '../../components/helper-text.ts';

// Only a sign-in that sets up MFA shows a QR code: its component loads when that step comes, not
// with the sign-in page.
const TotpQrCode = lazy(() => import('../../components/totp-qr-code.tsx'));

type Step =
  | { name: 'email' }
  | { name: 'password' }
  | { name: 'newPassword' }
  | { name: 'mfa' }
  | { name: 'mfaSetup'; uri: string; secret: string };

/*
 * The steps' rules. This page keeps its own state instead of react-hook-form: that library is
 * about 13 kB compressed, and the sign-in page's size budget has 2 kB to spare; the rules and
 * messages are the same form schemas the other forms use.
 */
const EmailStep = formSchema({ email: emailText() });
const PasswordStep = formSchema({ password: requiredText(UxTexts.passwordRequired) });
const NewPasswordStep = newPasswordPair();
const CodeStep = formSchema({ code: mfaCodeText() });

/** The messages of a step's failing fields, by field name. */
const check = (schema: object, values: Record<string, string>): Record<string, string> =>
  Object.fromEntries(formErrors(schema, values));


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
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});

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
        if (await completeSignIn()) navigate(returnToPath() ?? paths.dashboard, { replace: true });
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

  /** Checks a step on submit: true when it may go on, else its messages are shown. */
  const passes = (schema: object, values: Record<string, string>) => {
    const found = check(schema, values);
    setErrors(found);
    return Object.keys(found).length === 0;
  };

  /** A field's check as it is left; with `quietWhenEmpty`, only what has been typed is judged. */
  const checkOnLeave = (schema: object, values: Record<string, string>, field: string, quietWhenEmpty = false) => () =>
    setErrors((e) => ({ ...e, [field]: quietWhenEmpty && !values[field]?.trim() ? undefined : check(schema, values)[field] }));

  /** A text field's props: its value, its check on leaving, and its message. */
  const field = (value: string, set: (value: string) => void, name: string, onBlur?: () => void) => ({
    value,
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => set(e.target.value),
    onBlur,
    error: !!errors[name],
    helperText: helperLine(errors[name]),
  });

  const handleEmail = (e: FormEvent) => {
    e.preventDefault();
    if (!passes(EmailStep, { email })) return;
    setStep({ name: 'password' });
    // The password step needs Amplify (some 40 kB compressed, kept off the first load): it is
    // fetched and configured while the password is typed. A failure here is retried on submit.
    void poolAuth().catch(() => {});
  };

  const handlePassword = (e: FormEvent) => {
    e.preventDefault();
    if (!passes(PasswordStep, { password })) return;
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

  const newPasswordValues = { password: newPassword, confirm };
  const handleNewPassword = (e: FormEvent) => {
    e.preventDefault();
    if (!passes(NewPasswordStep, newPasswordValues)) return;
    void run(async () => {
      await follow(await (await poolAuth()).confirmSignIn({ challengeResponse: newPassword }));
    }, Toasts.passwordChangeFailed);
  };

  const handleCode = (e: FormEvent) => {
    e.preventDefault();
    if (!passes(CodeStep, { code })) return;
    void run(async () => {
      // The step's rule has accepted the code, so it normalizes.
      await follow(await (await poolAuth()).confirmSignIn({ challengeResponse: normalizeMfaCode(code)! }));
    }, Toasts.mfaFailed);
  };

  const submitLabel = (label: string) => (busy ? Labels.verifying : label);

  return (
    <AuthCard title={AuthLabels.signInTitle}>
      {step.name === 'email' && (
        <Stack component="form" noValidate onSubmit={handleEmail} spacing={2}>
          <EmailField
            {...field(email, setEmail, 'email', checkOnLeave(EmailStep, { email }, 'email', true))}
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
            {...field(password, setPassword, 'password', checkOnLeave(PasswordStep, { password }, 'password'))}
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
            password={field(newPassword, setNewPassword, 'password', checkOnLeave(NewPasswordStep, newPasswordValues, 'password', true))}
            confirm={field(confirm, setConfirm, 'confirm', checkOnLeave(NewPasswordStep, newPasswordValues, 'confirm', true))}
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
          {step.name === 'mfaSetup' && (
            <Suspense fallback={null}>
              <TotpQrCode uri={step.uri} secret={step.secret} />
            </Suspense>
          )}
          <OutlinedField
            label={AuthLabels.code}
            autoComplete="one-time-code"
            autoFocus
            {...field(code, setCode, 'code')}
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
