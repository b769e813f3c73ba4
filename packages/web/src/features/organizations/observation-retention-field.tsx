import { Button, Stack, TextField } from '@mui/material';
import {
  ObservationRetentionErrors,
  ObservationRetentionTexts,
  Toasts,
  observationRetentionError,
  type Organization,
} from '@rpm/contracts';
import { useState } from 'react';
import { ApiError } from '../../api/errors.ts';
import { useOrganizationSettings } from '../../api/organizations/get-organization-settings.ts';
import { useUpdateOrganizationSettings } from '../../api/organizations/update-organization-settings.ts';
import { useSnackbar } from '../../lib/toast/toast.ts';

/** Empty keeps every reading (null); otherwise whole months written in digits. */
function parseMonths(text: string): { months: number | null } | { error: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { months: null };
  if (!/^\d+$/.test(trimmed)) return { error: ObservationRetentionErrors.notWhole };
  const months = Number(trimmed);
  const error = observationRetentionError(months);
  return error ? { error } : { months };
}

/**
 * How many months one organization keeps its readings, saved with its button (a number is typed,
 * not picked, so it is not saved on every key). The form checks the range the server checks
 * (contracts), and shows the server's reason when it refuses all the same.
 */
export function ObservationRetentionField({
  organization,
  describedBy,
}: {
  organization: Organization;
  describedBy: string;
}) {
  const { enqueueSnackbar } = useSnackbar();
  const settings = useOrganizationSettings(organization.id);
  const update = useUpdateOrganizationSettings(organization.id);
  // What the admin typed; null shows the saved value.
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const saved = settings.data?.observation_retention_months;
  const value = draft ?? (saved === undefined || saved === null ? '' : String(saved));
  const errorId = `retention-error-${organization.id}`;
  const save = () => {
    if (!settings.data) return;
    const parsed = parseMonths(value);
    if ('error' in parsed) {
      setError(parsed.error);
      return;
    }
    setError(null);
    update.mutate(
      { require_mfa: settings.data.require_mfa, observation_retention_months: parsed.months },
      {
        onSuccess: () => {
          setDraft(null);
          enqueueSnackbar(Toasts.organizationSettingsSaved, { variant: 'success' });
        },
        onError: (err) => {
          if (err instanceof ApiError && err.status < 500 && err.message) setError(err.message);
          enqueueSnackbar(Toasts.failedToSaveOrganizationSettings, { variant: 'error' });
        },
      },
    );
  };
  const disabled = !settings.data || update.isPending;
  return (
    <Stack
      component="form"
      direction="row"
      spacing={1}
      sx={{ my: 1, alignItems: 'flex-start' }}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <TextField
        size="small"
        label={ObservationRetentionTexts.label(organization.name)}
        placeholder={ObservationRetentionTexts.keepAll}
        value={value}
        disabled={disabled}
        error={error !== null}
        helperText={error ?? undefined}
        onChange={(e) => {
          setDraft(e.target.value);
          setError(null);
        }}
        slotProps={{
          inputLabel: { shrink: true },
          htmlInput: { inputMode: 'numeric', 'aria-describedby': error ? `${describedBy} ${errorId}` : describedBy },
          formHelperText: { id: errorId },
        }}
        sx={{ maxWidth: 420, flex: 1 }}
      />
      <Button
        type="submit"
        variant="outlined"
        disabled={disabled}
        aria-label={`${ObservationRetentionTexts.save}: ${organization.name}`}
      >
        {ObservationRetentionTexts.save}
      </Button>
    </Stack>
  );
}
