import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { Alert, IconButton, MenuItem, Stack, TextField, Tooltip, Typography } from '@mui/material';
import {
  AdminTexts,
  DEFAULT_ROLE,
  Toasts,
  Validation,
  anyText,
  blankToNull,
  emailText,
  formSchema,
  requiredText,
  type CreateUserBody,
  type FormValues as FormValuesOf,
} from '@rpm/contracts';
import { useSnackbar } from '../../lib/toast/toast.ts';
import { useEffect, useState } from 'react';
import { Controller } from 'react-hook-form';
import { FormPage } from '../../components/form-page.tsx';
import { LoadingState } from '../../components/loading-state.tsx';
import { controlledFieldProps, textFieldProps } from '../../components/form/text-field-props.ts';
import { useSchemaForm } from '../../components/form/use-schema-form.ts';
import { errorMessage } from '../../api/errors.ts';
import { useOrganizations } from '../../api/organizations/get-organizations.ts';
import { useRoles } from '../../api/roles/get-roles.ts';
import { useRegisterUser } from '../../api/users/register-user.ts';

const RegisterForm = formSchema({
  first_name: requiredText(Validation.firstNameRequired),
  middle_name: anyText(),
  last_name: requiredText(Validation.lastNameRequired),
  title: anyText(),
  role: requiredText(Validation.roleRequired),
  organization_id: requiredText(Validation.organizationRequired),
  email: emailText(),
});
type FormValues = FormValuesOf<typeof RegisterForm>;

const EMPTY: FormValues = {
  first_name: '',
  middle_name: '',
  last_name: '',
  title: '',
  role: DEFAULT_ROLE,
  organization_id: '',
  email: '',
};

/** Optional fields are left out of the body when empty (spec section 5). */
export function toCreateUserBody(v: FormValues): CreateUserBody {
  const body: CreateUserBody = {
    email: v.email.trim(),
    first_name: v.first_name.trim(),
    last_name: v.last_name.trim(),
    role: v.role,
    organization_id: Number(v.organization_id),
  };
  const middleName = blankToNull(v.middle_name);
  const title = blankToNull(v.title);
  if (middleName) body.middle_name = middleName;
  if (title) body.title = title;
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
  const form = useSchemaForm<FormValues>(RegisterForm, {
    defaultValues: EMPTY,
    mode: 'onTouched',
    reValidateMode: 'onChange',
  });
  const { control, handleSubmit, reset } = form;

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
  const text = (name: keyof FormValues, label: string, rules: { required?: boolean; email?: boolean } = {}) => (
    <TextField
      id={`register-${name}`}
      label={label}
      required={rules.required}
      type={rules.email ? 'email' : 'text'}
      fullWidth
      {...textFieldProps(form, name)}
    />
  );

  /**
   * A required drop-down, drawn once the roles and organizations have loaded (a spinner holds its
   * place until then). Not drawn disabled and then enabled: the label's colour would change while
   * someone reads it, and a checker sampling mid-change sees too little contrast.
   */
  const select = (name: 'role' | 'organization_id', label: string, options: { value: string; label: string }[]) => (
    <Controller
      name={name}
      control={control}
      render={({ field, fieldState }) => (
        <TextField
          id={`register-${name === 'organization_id' ? 'organization' : name}`}
          select
          label={label}
          required
          {...controlledFieldProps(field, fieldState)}
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
      {text('first_name', AdminTexts.firstName, { required: true })}
      {text('middle_name', AdminTexts.middleName)}
      {text('last_name', AdminTexts.lastName, { required: true })}
      {text('title', AdminTexts.title)}
      {loadingOptions ? (
        <LoadingState py={1} size={24} />
      ) : (
        <>
          {select(
            'role',
            AdminTexts.role,
            (roles.data ?? [DEFAULT_ROLE]).map((r) => ({ value: r, label: r })),
          )}
          {select(
            'organization_id',
            AdminTexts.organization,
            (organizations.data ?? []).map((o) => ({ value: String(o.id), label: o.name })),
          )}
        </>
      )}
      {text('email', AdminTexts.email, { required: true, email: true })}
    </FormPage>
  );
}
