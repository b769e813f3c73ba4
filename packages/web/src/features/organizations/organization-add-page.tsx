import { Box, TextField } from '@mui/material';
import { AdminTexts, Toasts, Validation, formSchema, requiredText, type FormValues } from '@rpm/contracts';
import { useSnackbar } from '../../lib/toast/toast.ts';
import { FormPage } from '../../components/form-page.tsx';
import { textFieldProps } from '../../components/form/text-field-props.ts';
import { useSchemaForm } from '../../components/form/use-schema-form.ts';
import { ApiError } from '../../api/errors.ts';
import { useCreateOrganization } from '../../api/organizations/create-organization.ts';
import { OrganizationSettingsSection } from './organization-settings-section.tsx';
import { DisplayUnitsSection } from './display-units-section.tsx';
import { AlertSettingsSection } from './alert-settings-section.tsx';
import { EhrLaunchSection } from './ehr-launch-section.tsx';

const OrganizationForm = formSchema({ name: requiredText(Validation.organizationNameRequired) });

/** /organizations/add: a name is all an organization needs (spec section 5); below, each organization's settings. */
export default function OrganizationAddPage() {
  const { enqueueSnackbar } = useSnackbar();
  const form = useSchemaForm<FormValues<typeof OrganizationForm>>(OrganizationForm, { defaultValues: { name: '' } });
  const add = useCreateOrganization();

  const submit = form.handleSubmit(({ name }) =>
    add.mutate(
      { name: name.trim() },
      {
        onSuccess: () => {
          form.reset({ name: '' });
          enqueueSnackbar(Toasts.organizationAdded, { variant: 'success' });
        },
        onError: (err) => {
          // The toast is the spec's own text; the server's reason (e.g. a taken name) goes by the field.
          enqueueSnackbar(Toasts.failedToAddOrganization, { variant: 'error' });
          if (err instanceof ApiError && err.status < 500) form.setError('name', { message: err.message });
        },
      },
    ),
  );

  return (
    <>
      <FormPage title={AdminTexts.addOrganizationTitle} onSubmit={submit} pending={add.isPending}>
        <TextField
          id="organization-name"
          label={AdminTexts.organizationName}
          required
          fullWidth
          {...textFieldProps(form, 'name')}
        />
      </FormPage>
      <Box sx={{ maxWidth: 520 }}>
        <OrganizationSettingsSection />
        <DisplayUnitsSection />
        <EhrLaunchSection />
      </Box>
      {/* Wider than the sections above: two columns of labelled thresholds with their sources. */}
      <Box sx={{ maxWidth: 960 }}>
        <AlertSettingsSection />
      </Box>
    </>
  );
}
