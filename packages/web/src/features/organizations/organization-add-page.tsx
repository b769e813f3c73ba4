import { Box, TextField } from '@mui/material';
import { AdminTexts, Toasts, Validation, type Organization } from '@rpm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSnackbar } from 'notistack';
import { useState, type FormEvent } from 'react';
import { FormPage } from '../../components/form-page.tsx';
import { ApiError, apiPost } from '../../lib/api-client.ts';
import { helperLine } from '../../components/helper-text.ts';
import { OrganizationSettingsSection } from './organization-settings-section.tsx';

/** /organizations/add: a name is all an organization needs (spec section 5); below, each organization's settings. */
export default function OrganizationAddPage() {
  const { enqueueSnackbar } = useSnackbar();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const add = useMutation({
    mutationFn: (body: { name: string }) => apiPost<Organization>('/api/organizations', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['organizations'] }),
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) {
      setError(Validation.organizationNameRequired);
      return;
    }
    setError(null);
    add.mutate(
      { name: name.trim() },
      {
        onSuccess: () => {
          setName('');
          enqueueSnackbar(Toasts.organizationAdded, { variant: 'success' });
        },
        onError: (err) => {
          // The toast is the spec's own text; the server's reason (e.g. a taken name) goes by the field.
          enqueueSnackbar(Toasts.failedToAddOrganization, { variant: 'error' });
          setError(err instanceof ApiError && err.status < 500 ? err.message : null);
        },
      },
    );
  };

  return (
    <>
      <FormPage title={AdminTexts.addOrganizationTitle} onSubmit={submit} pending={add.isPending}>
        <TextField
          id="organization-name"
          label={AdminTexts.organizationName}
          value={name}
          onChange={(e) => setName(e.target.value)}
          onBlur={() => setError(name.trim() ? null : Validation.organizationNameRequired)}
          required
          error={Boolean(error)}
          helperText={helperLine(error)}
          fullWidth
        />
      </FormPage>
      <Box sx={{ maxWidth: 520 }}>
        <OrganizationSettingsSection />
      </Box>
    </>
  );
}
