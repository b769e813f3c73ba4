import { Button, FormHelperText, Paper, Stack, TextField, Typography } from '@mui/material';
import {
  AdminTexts,
  EHR_CLIENT_ID_MAX_LENGTH,
  EHR_ISS_MAX_LENGTH,
  EhrLaunchTexts,
  ObservationTexts,
  PATIENT_IDENTIFIER_SYSTEM_MAX_LENGTH,
  type EhrLaunchSettings,
} from '@rpm/contracts';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { errorMessage } from '../../api/errors.ts';
import { useLaunchSettings } from '../../api/ehr-launch/get-launch-settings.ts';
import { useUpdateLaunchSettings } from '../../api/ehr-launch/update-launch-settings.ts';
import { useOrganizations } from '../../api/organizations/get-organizations.ts';
import { inputProps } from '../../components/form/text-field-props.ts';
import { LoadingState } from '../../components/loading-state.tsx';
import { useSnackbar } from '../../lib/toast/toast.ts';
import { OrganizationSelect } from './organization-select.tsx';

interface Values {
  iss: string;
  client_id: string;
  patient_identifier_system: string;
}

const valuesOf = (s: EhrLaunchSettings | undefined): Values => ({
  iss: s?.iss ?? '',
  client_id: s?.client_id ?? '',
  patient_identifier_system: s?.patient_identifier_system ?? '',
});

/** One organization's EHR launch settings; the server checks them and its message is shown. */
function LaunchSettingsForm({ organizationId }: { organizationId: number }) {
  const { enqueueSnackbar } = useSnackbar();
  const settings = useLaunchSettings(organizationId);
  const update = useUpdateLaunchSettings(organizationId);
  const form = useForm<Values>({ defaultValues: valuesOf(undefined) });
  const { reset } = form;
  useEffect(() => {
    if (settings.data) reset(valuesOf(settings.data));
  }, [settings.data, reset]);

  const submit = form.handleSubmit((v) =>
    update.mutate(
      { iss: v.iss.trim() || null, client_id: v.client_id.trim() || null, patient_identifier_system: v.patient_identifier_system.trim() || null },
      {
        onSuccess: () => enqueueSnackbar(EhrLaunchTexts.saved, { variant: 'success' }),
        onError: (err) => enqueueSnackbar(errorMessage(err, EhrLaunchTexts.saveFailed), { variant: 'error' }),
      },
    ),
  );
  // The form appears once the settings are here, enabled: fields that start disabled and turn
  // enabled animate their colours, and a half-faded button is unreadable while it does.
  if (settings.isError) {
    return <Typography color="error">{errorMessage(settings.error, EhrLaunchTexts.loadFailed)}</Typography>;
  }
  if (!settings.data) return <LoadingState py={2} />;
  const disabled = update.isPending;
  return (
    <Stack component="form" spacing={2} noValidate onSubmit={submit} aria-label={EhrLaunchTexts.settingsTitle}>
      <TextField
        label={EhrLaunchTexts.issLabel}
        size="small"
        disabled={disabled}
        placeholder="https://ehr.example.org/fhir/r4"
        slotProps={{ htmlInput: { maxLength: EHR_ISS_MAX_LENGTH, inputMode: 'url' }, inputLabel: { shrink: true } }}
        {...inputProps(form, 'iss')}
      />
      <TextField
        label={EhrLaunchTexts.clientIdLabel}
        size="small"
        disabled={disabled}
        slotProps={{ htmlInput: { maxLength: EHR_CLIENT_ID_MAX_LENGTH }, inputLabel: { shrink: true } }}
        {...inputProps(form, 'client_id')}
      />
      <TextField
        label={EhrLaunchTexts.identifierSystemLabel}
        size="small"
        disabled={disabled}
        placeholder="urn:oid:…"
        slotProps={{ htmlInput: { maxLength: PATIENT_IDENTIFIER_SYSTEM_MAX_LENGTH }, inputLabel: { shrink: true } }}
        {...inputProps(form, 'patient_identifier_system')}
      />
      <TextField label={EhrLaunchTexts.launchUrlLabel} size="small" value={settings.data.launch_url} slotProps={{ htmlInput: { readOnly: true } }} />
      <TextField label={EhrLaunchTexts.redirectUrlLabel} size="small" value={settings.data.redirect_url} slotProps={{ htmlInput: { readOnly: true } }} />
      <Button type="submit" variant="contained" disabled={disabled} sx={{ alignSelf: 'flex-start' }}>
        {EhrLaunchTexts.save}
      </Button>
    </Stack>
  );
}

/** Launch from the EHR: which EHR may open the portal for an organization, and how its patients are matched. */
export function EhrLaunchSection() {
  const organizations = useOrganizations();
  const [chosen, setChosen] = useState<number | null>(null);
  const organization = organizations.data?.find((o) => o.id === chosen) ?? organizations.data?.[0];
  return (
    <Paper component="section" aria-labelledby="ehr-launch-title" sx={{ p: 3, mt: 3 }}>
      <Typography id="ehr-launch-title" variant="h6" component="h2">
        {EhrLaunchTexts.settingsTitle}
      </Typography>
      <FormHelperText sx={{ mb: 2 }}>{EhrLaunchTexts.settingsHelp}</FormHelperText>
      {organizations.isError && <Typography color="error">{AdminTexts.failedToLoadOrganizations}</Typography>}
      {organization && (
        <Stack spacing={2}>
          {/* One EHR per organization: the form is for the organization chosen here. */}
          <OrganizationSelect label={ObservationTexts.organization} organizations={organizations.data ?? []} value={organization.id} onChange={setChosen} />
          <LaunchSettingsForm key={organization.id} organizationId={organization.id} />
        </Stack>
      )}
    </Paper>
  );
}
