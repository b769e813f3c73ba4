import { FormControlLabel, FormHelperText, Paper, Stack, Switch, Typography } from '@mui/material';
import { AdminTexts, Toasts, type Organization } from '@rpm/contracts';
import { useSnackbar } from 'notistack';
import { useOrganizationList, useOrganizationSettings, useUpdateOrganizationSettings } from './api.ts';

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

/** Admin settings of each organization (for now: organization-wide MFA). */
export function OrganizationSettingsSection() {
  const organizations = useOrganizationList();
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
    </Paper>
  );
}
