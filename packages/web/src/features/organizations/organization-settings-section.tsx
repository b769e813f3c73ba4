import { FormControlLabel, FormHelperText, Paper, Stack, Switch, TextField, Typography } from '@mui/material';
import {
  AdminTexts,
  BillingTexts,
  CareTimerTexts,
  TIMER_STARTS,
  TimerStartLabels,
  Toasts,
  type Organization,
  type TimerStart,
} from '@rpm/contracts';
import { useSnackbar } from '../../lib/toast/toast.ts';
import { useOrganizations } from '../../api/organizations/get-organizations.ts';
import { useOrganizationSettings } from '../../api/organizations/get-organization-settings.ts';
import { useUpdateOrganizationSettings } from '../../api/organizations/update-organization-settings.ts';
import { listTimezones } from '../../lib/timezone.ts';

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

/** The time zone an organization's billing days are counted in (its clinic's own day). */
function BillingTimeZoneSelect({ organization }: { organization: Organization }) {
  const { enqueueSnackbar } = useSnackbar();
  const settings = useOrganizationSettings(organization.id);
  const update = useUpdateOrganizationSettings(organization.id);
  const value = update.isPending ? (update.variables?.time_zone ?? '') : (settings.data?.time_zone ?? '');
  const zones = listTimezones();
  return (
    <TextField
      select
      size="small"
      label={`${BillingTexts.timeZoneLabel}: ${organization.name}`}
      value={value}
      disabled={!settings.data || update.isPending}
      onChange={(e) =>
        settings.data &&
        update.mutate(
          { require_mfa: settings.data.require_mfa, time_zone: e.target.value },
          {
            onSuccess: () => enqueueSnackbar(Toasts.organizationSettingsSaved, { variant: 'success' }),
            onError: () => enqueueSnackbar(Toasts.failedToSaveOrganizationSettings, { variant: 'error' }),
          },
        )
      }
      slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
      sx={{ my: 1, maxWidth: 420 }}
    >
      {(value && !zones.includes(value) ? [value, ...zones] : zones).map((z) => (
        <option key={z} value={z}>
          {z}
        </option>
      ))}
    </TextField>
  );
}

const TIMER_START_HELP_ID = 'timer-start-help';

/** How the care timer on a patient's page starts for the organization's providers. */
function TimerStartSelect({ organization }: { organization: Organization }) {
  const { enqueueSnackbar } = useSnackbar();
  const settings = useOrganizationSettings(organization.id);
  const update = useUpdateOrganizationSettings(organization.id);
  const value = update.isPending ? (update.variables?.timer_start ?? '') : (settings.data?.timer_start ?? '');
  return (
    <TextField
      select
      size="small"
      label={CareTimerTexts.timerStartLabel(organization.name)}
      value={value}
      disabled={!settings.data || update.isPending}
      onChange={(e) =>
        settings.data &&
        update.mutate(
          { require_mfa: settings.data.require_mfa, timer_start: e.target.value as TimerStart },
          {
            onSuccess: () => enqueueSnackbar(Toasts.organizationSettingsSaved, { variant: 'success' }),
            onError: () => enqueueSnackbar(Toasts.failedToSaveOrganizationSettings, { variant: 'error' }),
          },
        )
      }
      slotProps={{
        select: { native: true },
        inputLabel: { shrink: true },
        htmlInput: { 'aria-describedby': TIMER_START_HELP_ID },
      }}
      sx={{ my: 1, maxWidth: 420 }}
    >
      {value === '' && <option value="" disabled />}
      {TIMER_STARTS.map((t) => (
        <option key={t} value={t}>
          {TimerStartLabels[t]}
        </option>
      ))}
    </TextField>
  );
}

/** Admin settings of each organization: organization-wide MFA, the billing time zone, the care timer's start. */
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
    </Paper>
  );
}
