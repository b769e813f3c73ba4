import { FormControlLabel, FormHelperText, Paper, Stack, Switch, TextField, Typography } from '@mui/material';
import {
  AdminTexts,
  BillingTexts,
  CareTimerTexts,
  ObservationRetentionTexts,
  TIMER_STARTS,
  TimerStartLabels,
  Toasts,
  type Organization,
  type UpdateOrganizationSettingsBody,
} from '@rpm/contracts';
import { useSnackbar } from '../../lib/toast/toast.ts';
import { useOrganizations } from '../../api/organizations/get-organizations.ts';
import { useOrganizationSettings } from '../../api/organizations/get-organization-settings.ts';
import { useUpdateOrganizationSettings } from '../../api/organizations/update-organization-settings.ts';
import { listTimezones } from '../../lib/timezone.ts';
import { ObservationRetentionField } from './observation-retention-field.tsx';

/** One organization's "require MFA" switch: off until its settings have loaded. */
function RequireMfaSwitch({ organization }: { organization: Organization }) {
  const { enqueueSnackbar } = useSnackbar();
  const settings = useOrganizationSettings(organization.id);
  const update = useUpdateOrganizationSettings(organization.id);
  const checked = update.isPending ? (update.variables?.require_mfa ?? false) : (settings.data?.require_mfa ?? false);
  return (
    <FormControlLabel
      control={
        <Switch
          checked={checked}
          disabled={!settings.data || update.isPending}
          onChange={(e) =>
            update.mutate(
              { require_mfa: e.target.checked },
              {
                onSuccess: () => enqueueSnackbar(Toasts.organizationSettingsSaved, { variant: 'success' }),
                onError: () => enqueueSnackbar(Toasts.failedToSaveOrganizationSettings, { variant: 'error' }),
              },
            )
          }
          slotProps={{ input: { role: 'switch', 'aria-label': `${AdminTexts.requireMfa}: ${organization.name}` } }}
        />
      }
      label={organization.name}
    />
  );
}

type SelectSetting = 'time_zone' | 'timer_start';

/**
 * One organization setting chosen from a list, saved as soon as it changes (with the MFA flag as
 * it is), disabled until the settings have loaded and while saving.
 */
function SettingSelect({
  organization,
  setting,
  label,
  options,
  describedBy,
}: {
  organization: Organization;
  setting: SelectSetting;
  label: string;
  /** [value, label] pairs for the current value ('' while loading). */
  options: (value: string) => Array<[string, string]>;
  describedBy?: string;
}) {
  const { enqueueSnackbar } = useSnackbar();
  const settings = useOrganizationSettings(organization.id);
  const update = useUpdateOrganizationSettings(organization.id);
  const value = (update.isPending ? update.variables?.[setting] : settings.data?.[setting]) ?? '';
  const save = (next: string) => {
    if (!settings.data) return;
    const body = { require_mfa: settings.data.require_mfa, [setting]: next } as UpdateOrganizationSettingsBody;
    update.mutate(body, {
      onSuccess: () => enqueueSnackbar(Toasts.organizationSettingsSaved, { variant: 'success' }),
      onError: () => enqueueSnackbar(Toasts.failedToSaveOrganizationSettings, { variant: 'error' }),
    });
  };
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      disabled={!settings.data || update.isPending}
      onChange={(e) => save(e.target.value)}
      slotProps={{
        select: { native: true },
        inputLabel: { shrink: true },
        htmlInput: describedBy ? { 'aria-describedby': describedBy } : {},
      }}
      sx={{ my: 1, maxWidth: 420 }}
    >
      {options(value).map(([v, text]) => (
        <option key={v} value={v} disabled={v === ''}>
          {text}
        </option>
      ))}
    </TextField>
  );
}

/** The time zone an organization's billing days are counted in (its clinic's own day). */
function BillingTimeZoneSelect({ organization }: { organization: Organization }) {
  const zones = listTimezones();
  return (
    <SettingSelect
      organization={organization}
      setting="time_zone"
      label={`${BillingTexts.timeZoneLabel}: ${organization.name}`}
      options={(value) => (value && !zones.includes(value) ? [value, ...zones] : zones).map((z) => [z, z])}
    />
  );
}

const TIMER_START_HELP_ID = 'timer-start-help';
const RETENTION_HELP_ID = 'observation-retention-help';

/** How the care timer on a patient's page starts for the organization's providers. */
function TimerStartSelect({ organization }: { organization: Organization }) {
  return (
    <SettingSelect
      organization={organization}
      setting="timer_start"
      label={CareTimerTexts.timerStartLabel(organization.name)}
      describedBy={TIMER_START_HELP_ID}
      options={(value) => [
        ...(value === '' ? ([['', '']] as Array<[string, string]>) : []),
        ...TIMER_STARTS.map((t): [string, string] => [t, TimerStartLabels[t]]),
      ]}
    />
  );
}

/**
 * Admin settings of each organization: organization-wide MFA, the billing time zone, the care
 * timer's start, and how long readings are kept.
 */
export function OrganizationSettingsSection() {
  const organizations = useOrganizations();
  return (
    <Paper component="section" aria-labelledby="organization-settings-title" sx={{ p: 3, mt: 3 }}>
      <Typography id="organization-settings-title" variant="h6" component="h2">
        {AdminTexts.organizationSettingsTitle}
      </Typography>
      <Typography variant="subtitle2" component="p" sx={{ mt: 1 }}>
        {AdminTexts.requireMfa}
      </Typography>
      <FormHelperText sx={{ mb: 1 }}>{AdminTexts.requireMfaHelp}</FormHelperText>
      {organizations.isError && <Typography color="error">{AdminTexts.failedToLoadOrganizations}</Typography>}
      {organizations.data?.length === 0 && <Typography>{AdminTexts.noOrganizations}</Typography>}
      <Stack>
        {organizations.data?.map((o) => (
          <RequireMfaSwitch key={o.id} organization={o} />
        ))}
      </Stack>
      <Stack sx={{ mt: 2 }}>
        {organizations.data?.map((o) => (
          <BillingTimeZoneSelect key={o.id} organization={o} />
        ))}
      </Stack>
      <Typography variant="subtitle2" component="p" sx={{ mt: 2 }}>
        {CareTimerTexts.timerStartTitle}
      </Typography>
      <FormHelperText id={TIMER_START_HELP_ID} sx={{ mb: 1 }}>
        {CareTimerTexts.timerStartHelp}
      </FormHelperText>
      <Stack>
        {organizations.data?.map((o) => (
          <TimerStartSelect key={o.id} organization={o} />
        ))}
      </Stack>
      <Typography variant="subtitle2" component="p" sx={{ mt: 2 }}>
        {ObservationRetentionTexts.title}
      </Typography>
      <FormHelperText id={RETENTION_HELP_ID} sx={{ mb: 1 }}>
        {ObservationRetentionTexts.help}
      </FormHelperText>
      <Stack>
        {organizations.data?.map((o) => (
          <ObservationRetentionField key={o.id} organization={o} describedBy={RETENTION_HELP_ID} />
        ))}
      </Stack>
    </Paper>
  );
}
