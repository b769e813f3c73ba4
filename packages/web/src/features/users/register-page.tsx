import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { Alert, IconButton, MenuItem, Stack, TextField, Tooltip, Typography } from '@mui/material';
import { AdminTexts, DEFAULT_ROLE, Toasts, Validation, type CreateUserBody } from '@rpm/contracts';
import { useSnackbar } from 'notistack';
import { useEffect, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { FormPage } from '../../components/form-page.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { useOrganizations, useRegisterUser, useRoles } from './api.ts';
import { helperLine } from '../../components/helper-text.ts';

interface FormValues {
  first_name: string;
  middle_name: string;
  last_name: string;
  title: string;
  role: string;
  organization_id: string;
  email: string;
}

const EMPTY: FormValues = {
  first_name: '',
  middle_name: '',
  last_name: '',
  title: '',
  role: DEFAULT_ROLE,
  organization_id: '',
  email: '',
};

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Optional fields are left out of the body when empty (spec section 5). */
export function toCreateUserBody(v: FormValues): CreateUserBody {
  const body: CreateUserBody = {
    email: v.email.trim(),
    first_name: v.first_name.trim(),
    last_name: v.last_name.trim(),
    role: v.role,
    organization_id: Number(v.organization_id),
  };
  if (v.middle_name.trim()) body.middle_name = v.middle_name.trim();
  if (v.title.trim()) body.title = v.title.trim();
  return body;
}

/** /register: an admin creates a staff account; the temporary password is shown to copy. */
export default function RegisterPage() {
  const { enqueueSnackbar } = useSnackbar();
  const roles = useRoles();
  const organizations = useOrganizations();
  const register = useRegisterUser();
  const [created, setCreated] = useState<{ email: string; password: string } | null>(null);
  const [copied, setCopied] = useState(false);
  const { control, handleSubmit, reset } = useForm<FormValues>({ defaultValues: EMPTY, mode: 'onTouched' });

  const optionsFailed = roles.isError || organizations.isError;
  useEffect(() => {
    if (optionsFailed) enqueueSnackbar(Toasts.failedToLoadOptions, { variant: 'error' });
  }, [optionsFailed, enqueueSnackbar]);

  const onSubmit = handleSubmit(async (values) => {
    try {
      const result = await register.mutateAsync(toCreateUserBody(values));
      setCreated({ email: result.user.email, password: result.temp_password });
      setCopied(false);
      reset(EMPTY);
      enqueueSnackbar(Toasts.userCreated, { variant: 'success' });
    } catch (err) {
      enqueueSnackbar(errorMessage(err, Toasts.registrationFailed), { variant: 'error' });
    }
  });

  const copy = async () => {
    if (!created) return;
    try {
      await navigator.clipboard.writeText(created.password);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };

  const loadingOptions = roles.isPending || organizations.isPending;
  const text = (name: keyof FormValues, label: string, rules: { required?: string; email?: boolean } = {}) => (
    <Controller
      name={name}
      control={control}
      rules={{
        validate: (v) => {
          if (rules.required && !v.trim()) return rules.required;
          if (rules.email && !EMAIL.test(v.trim())) return Validation.email;
          return true;
        },
      }}
      render={({ field, fieldState }) => (
        <TextField
          {...field}
          id={`register-${name}`}
          label={label}
          required={Boolean(rules.required)}
          error={Boolean(fieldState.error)}
          helperText={helperLine(fieldState.error?.message)}
          type={rules.email ? 'email' : 'text'}
          fullWidth
        />
      )}
    />
  );

  /** A required drop-down; disabled until the roles and organizations have loaded. */
  const select = (
    name: 'role' | 'organization_id',
    label: string,
    required: string,
    options: { value: string; label: string }[],
  ) => (
    <Controller
      name={name}
      control={control}
      rules={{ required }}
      render={({ field, fieldState }) => (
        <TextField
          {...field}
          id={`register-${name === 'organization_id' ? 'organization' : name}`}
          select
          label={label}
          required
          disabled={loadingOptions}
          error={Boolean(fieldState.error)}
          helperText={helperLine(fieldState.error?.message)}
        >
          {options.map((o) => (
            <MenuItem key={o.value} value={o.value}>
              {o.label}
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  );

  return (
    <FormPage
      title={AdminTexts.registerTitle}
      onSubmit={onSubmit}
      pending={register.isPending}
      maxWidth={640}
      notices={
        <>
          {created && (
            <Alert severity="success" sx={{ mb: 2 }} role="status" aria-live="polite">
              <Typography variant="body2">
                {Toasts.userCreated}: {created.email}
              </Typography>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <Typography variant="body2">{AdminTexts.temporaryPassword}:</Typography>
                <Typography
                  component="code"
                  data-testid="temp-password"
                  sx={{ fontFamily: 'monospace', fontWeight: 600 }}
                >
                  {created.password}
                </Typography>
                <Tooltip title={copied ? AdminTexts.copied : AdminTexts.copy}>
                  <IconButton
                    size="small"
                    aria-label={`${AdminTexts.copy} ${AdminTexts.temporaryPassword}`}
                    onClick={copy}
                  >
                    <ContentCopyIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
              </Stack>
            </Alert>
          )}
          {optionsFailed && (
            <Alert severity="error" sx={{ mb: 2 }}>
              {Toasts.failedToLoadOptions}
            </Alert>
          )}
        </>
      }
    >
      {text('first_name', AdminTexts.firstName, { required: Validation.firstNameRequired })}
      {text('middle_name', AdminTexts.middleName)}
      {text('last_name', AdminTexts.lastName, { required: Validation.lastNameRequired })}
      {text('title', AdminTexts.title)}
      {select(
        'role',
        AdminTexts.role,
        Validation.roleRequired,
        (roles.data ?? [DEFAULT_ROLE]).map((r) => ({ value: r, label: r })),
      )}
      {select(
        'organization_id',
        AdminTexts.organization,
        Validation.organizationRequired,
        (organizations.data ?? []).map((o) => ({ value: String(o.id), label: o.name })),
      )}
      {text('email', AdminTexts.email, { required: Validation.email, email: true })}
    </FormPage>
  );
}
