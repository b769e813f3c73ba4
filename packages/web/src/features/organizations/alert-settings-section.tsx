import {
  Box,
  Button,
  Checkbox,
  FormHelperText,
  Grid,
  ListItemText,
  MenuItem,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import {
  AdminTexts,
  AlertSettingsBody,
  AlertSettingsTexts, AlertTexts,
  DEFAULT_ALERT_ORGANIZATION_SETTINGS,
  GuidelineSources,
  THRESHOLDS,
  formSchema,
  optionalWholeNumberText,
  type AlertOrganizationSettingKey,
  type AlertSettings,
  type AlertSettingsBody as SettingsBody,
  type Organization,
  type ThresholdKey,
} from '@rpm/contracts';
import { useState } from 'react';
import { Controller } from 'react-hook-form';
import { useAlertSettings, useSaveAlertSettings } from '../../api/alerts/alert-settings.ts';
import { errorMessage } from '../../api/errors.ts';
import { useOrganizations } from '../../api/organizations/get-organizations.ts';
import { useUsers } from '../../api/users/get-users.ts';
import { textFieldProps } from '../../components/form/text-field-props.ts';
import { useSchemaForm } from '../../components/form/use-schema-form.ts';
import {
  ThresholdFields,
  thresholdRules,
  thresholdTexts,
  thresholdValues,
} from '../../components/threshold-fields.tsx';
import { useSnackbar } from '../../lib/toast/toast.ts';
import { OrganizationSelect } from './organization-select.tsx';

/** The settings besides the thresholds, each with its label, the source of its default and its rule. */
const SETTING_FIELDS: { key: AlertOrganizationSettingKey; label: string; source: string }[] = [
  { key: 'bp_window_days', label: AlertSettingsTexts.windowDays, source: GuidelineSources.window },
  { key: 'bp_window_min_readings', label: AlertSettingsTexts.windowMinReadings, source: GuidelineSources.window },
  { key: 'stale_days', label: AlertSettingsTexts.staleDaysLabel, source: '' },
  { key: 'escalation_minutes', label: AlertSettingsTexts.escalationMinutes, source: GuidelineSources.escalation },
];
const settingSchema = (key: AlertOrganizationSettingKey) =>
  (AlertSettingsBody.properties[key] as { anyOf: [object] }).anyOf[0];
const boundsText = (key: AlertOrganizationSettingKey) => {
  const { minimum = 1, maximum = 1 } = settingSchema(key) as { minimum?: number; maximum?: number };
  return AlertTexts.thresholdRange(minimum, maximum, 0);
};

const SettingsFormSchema = formSchema({
  ...thresholdRules(THRESHOLDS),
  ...Object.fromEntries(
    SETTING_FIELDS.map((f) => [f.key, optionalWholeNumberText(settingSchema(f.key) as never, boundsText(f.key))]),
  ),
});
type FormValues = Record<string, string> & { escalation_contact_ids: number[] };

function formValues(settings: AlertSettings): FormValues {
  const o = settings.overrides;
  return {
    ...thresholdTexts(THRESHOLDS, o),
    ...Object.fromEntries(
      SETTING_FIELDS.map((f) => [f.key, o[f.key] === null || o[f.key] === undefined ? '' : String(o[f.key])]),
    ),
    escalation_contact_ids: o.escalation_contact_ids ?? [],
  } as FormValues;
}

/** The form of one organization's settings, once they have loaded. */
function OrganizationAlertSettingsForm({
  organization,
  settings,
}: {
  organization: Organization;
  settings: AlertSettings;
}) {
  const { enqueueSnackbar } = useSnackbar();
  const save = useSaveAlertSettings(organization.id);
  const users = useUsers();
  // Escalation goes to active staff of this organization only (the server refuses anyone else).
  const staff = (users.data ?? []).filter((u) => u.organization_id === organization.id && u.status === 'active');
  const form = useSchemaForm<FormValues>(SettingsFormSchema, { defaultValues: formValues(settings) });
  const submit = form.handleSubmit((v) => {
    const body: SettingsBody = {
      ...thresholdValues(THRESHOLDS, v),
      ...Object.fromEntries(SETTING_FIELDS.map((f) => [f.key, v[f.key]!.trim() === '' ? null : Number(v[f.key])])),
      escalation_contact_ids: v.escalation_contact_ids,
    };
    save.mutate(body, {
      onSuccess: (saved) => {
        form.reset(formValues(saved));
        enqueueSnackbar(AlertSettingsTexts.settingsSaved, { variant: 'success' });
      },
      onError: (err) => enqueueSnackbar(errorMessage(err, AlertTexts.settingsSave), { variant: 'error' }),
    });
  });
  const name = (u: (typeof staff)[number]) => [u.first_name, u.last_name].filter(Boolean).join(' ') || u.email;
  return (
    <form onSubmit={submit} noValidate aria-label={`${AlertTexts.settingsTitle}: ${organization.name}`}>
      <ThresholdFields
        form={form}
        definitions={THRESHOLDS}
        fallback={(key: ThresholdKey) => THRESHOLDS.find((d) => d.key === key)!.default}
        idPrefix={`org-${organization.id}-threshold`}
      />
      <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, mb: 2, minWidth: 0 }}>
        <Typography component="legend" variant="subtitle2" sx={{ mb: 1 }}>
          {AlertSettingsTexts.windowTitle} · {AlertSettingsTexts.escalationTitle}
        </Typography>
        <Grid container spacing={2}>
          {SETTING_FIELDS.map((f) => {
            const props = textFieldProps(form, f.key);
            return (
              <Grid key={f.key} size={{ xs: 12, sm: 6 }}>
                <TextField
                  id={`org-${organization.id}-${f.key}`}
                  fullWidth
                  size="small"
                  label={f.label}
                  placeholder={AlertTexts.defaultPlaceholder(DEFAULT_ALERT_ORGANIZATION_SETTINGS[f.key])}
                  {...props}
                  helperText={
                    props.error
                      ? props.helperText
                      : f.source
                        ? `${AlertSettingsTexts.thresholdSource}: ${f.source}`
                        : props.helperText
                  }
                  slotProps={{ inputLabel: { shrink: true }, htmlInput: { inputMode: 'numeric' } }}
                />
              </Grid>
            );
          })}
          <Grid size={{ xs: 12 }}>
            <Controller
              control={form.control}
              name="escalation_contact_ids"
              render={({ field }) => (
                <TextField
                  id={`org-${organization.id}-escalation-contacts`}
                  select
                  fullWidth
                  size="small"
                  label={AlertSettingsTexts.escalationContacts}
                  value={field.value}
                  onChange={(e) => field.onChange(e.target.value as unknown as number[])}
                  onBlur={field.onBlur}
                  helperText={
                    staff.length === 0 && users.isSuccess
                      ? AlertTexts.escalationNoStaff
                      : AlertSettingsTexts.escalationContactsHint
                  }
                  slotProps={{
                    select: {
                      multiple: true,
                      renderValue: (ids) =>
                        (ids as number[])
                          .map((id) => staff.find((u) => u.id === id))
                          .filter((u) => u !== undefined)
                          .map(name)
                          .join(', '),
                    },
                  }}
                >
                  {staff.map((u) => (
                    <MenuItem key={u.id} value={u.id}>
                      <Checkbox size="small" checked={field.value.includes(u.id)} />
                      <ListItemText primary={name(u)} secondary={u.email} />
                    </MenuItem>
                  ))}
                </TextField>
              )}
            />
          </Grid>
        </Grid>
      </Box>
      <Button type="submit" variant="contained" disabled={save.isPending}>
        {AlertTexts.settingsSave}
      </Button>
    </form>
  );
}

/** An organization's alert settings: thresholds with their sources, the window, stale data, escalation. */
export function AlertSettingsSection() {
  const organizations = useOrganizations();
  const [chosen, setChosen] = useState<number | null>(null);
  const organization = organizations.data?.find((o) => o.id === chosen) ?? organizations.data?.[0];
  const settings = useAlertSettings(organization?.id ?? null);
  return (
    <Paper component="section" aria-labelledby="alert-settings-title" sx={{ p: 3, mt: 3 }}>
      <Typography id="alert-settings-title" variant="h6" component="h2">
        {AlertTexts.settingsTitle}
      </Typography>
      <FormHelperText sx={{ mb: 2 }}>{AlertSettingsTexts.thresholdsHint}</FormHelperText>
      {organizations.isError && <Typography color="error">{AdminTexts.failedToLoadOrganizations}</Typography>}
      {organizations.data?.length === 0 && <Typography>{AdminTexts.noOrganizations}</Typography>}
      {organization && (
        <Stack spacing={2}>
          <OrganizationSelect
            label={AdminTexts.organization}
            organizations={organizations.data ?? []}
            value={organization.id}
            onChange={setChosen}
          />
          {settings.isError && (
            <Typography color="error">{errorMessage(settings.error, AlertTexts.settingsLoadFailed)}</Typography>
          )}
          {settings.data && (
            <OrganizationAlertSettingsForm key={organization.id} organization={organization} settings={settings.data} />
          )}
        </Stack>
      )}
    </Paper>
  );
}
