import { FormHelperText, Paper, Stack, TextField, Typography } from '@mui/material';
import { AdminTexts, GuidelineSources, MEASUREMENT_KINDS, ObservationTexts, type MeasurementKind, type Organization } from '@rpm/contracts';
import { useState } from 'react';
import { errorMessage } from '../../api/errors.ts';
import { useDisplayUnits } from '../../api/organizations/get-display-units.ts';
import { useOrganizations } from '../../api/organizations/get-organizations.ts';
import { useUpdateDisplayUnits } from '../../api/organizations/update-display-units.ts';
import { useSnackbar } from '../../lib/toast/toast.ts';
import { OrganizationSelect } from './organization-select.tsx';

/** One kind's unit for one organization, with the guidance its marks follow cited below it. */
function KindUnitRow({ organization, kind }: { organization: Organization; kind: MeasurementKind }) {
  const { enqueueSnackbar } = useSnackbar();
  const units = useDisplayUnits(organization.id);
  const update = useUpdateDisplayUnits(organization.id);
  const saved = units.data?.display_units[kind.kind] ?? kind.unitChoices[0]!.ucum;
  const value = update.isPending ? (update.variables?.display_units[kind.kind] ?? saved) : saved;
  const captionId = `display-unit-${organization.id}-${kind.kind}-guidance`;
  return (
    <Stack spacing={0.5} data-kind={kind.kind}>
      <TextField
        select
        size="small"
        label={ObservationTexts.displayUnitFor(kind.label, organization.name)}
        value={value}
        disabled={!units.data || update.isPending || kind.unitChoices.length < 2}
        onChange={(e) =>
          units.data &&
          update.mutate(
            { display_units: { ...units.data.display_units, [kind.kind]: e.target.value } },
            {
              onSuccess: () => enqueueSnackbar(ObservationTexts.displayUnitsSaved, { variant: 'success' }),
              onError: (err) =>
                enqueueSnackbar(errorMessage(err, ObservationTexts.failedToSaveDisplayUnits), { variant: 'error' }),
            },
          )
        }
        slotProps={{ select: { native: true }, inputLabel: { shrink: true }, htmlInput: { 'aria-describedby': captionId } }}
        sx={{ maxWidth: 420 }}
      >
        {kind.unitChoices.map((u) => (
          <option key={u.ucum} value={u.ucum}>
            {u.label}
          </option>
        ))}
      </TextField>
      <Typography id={captionId} variant="caption" color="text.secondary" component="p">
        {kind.guidance.map((source) => GuidelineSources[source]).join(' ')}
      </Typography>
    </Stack>
  );
}

/** An organization's display units: each kind's unit, chosen by admins (the page is theirs). */
export function DisplayUnitsSection() {
  const organizations = useOrganizations();
  const [chosen, setChosen] = useState<number | null>(null);
  const organization = organizations.data?.find((o) => o.id === chosen) ?? organizations.data?.[0];
  const units = useDisplayUnits(organization?.id ?? null);
  return (
    <Paper component="section" aria-labelledby="display-units-title" sx={{ p: 3, mt: 3 }}>
      <Typography id="display-units-title" variant="h6" component="h2">
        {ObservationTexts.displayUnits}
      </Typography>
      <FormHelperText sx={{ mb: 2 }}>{ObservationTexts.displayUnitsHelp}</FormHelperText>
      {organizations.isError && <Typography color="error">{AdminTexts.failedToLoadOrganizations}</Typography>}
      {organizations.data?.length === 0 && <Typography>{AdminTexts.noOrganizations}</Typography>}
      {organization && (
        <Stack spacing={2}>
          <OrganizationSelect
            label={ObservationTexts.organization}
            organizations={organizations.data ?? []}
            value={organization.id}
            onChange={setChosen}
          />
          {units.isError && (
            <Typography color="error">{errorMessage(units.error, ObservationTexts.failedToLoadDisplayUnits)}</Typography>
          )}
          {MEASUREMENT_KINDS.map((kind) => (
            <KindUnitRow key={kind.kind} organization={organization} kind={kind} />
          ))}
        </Stack>
      )}
    </Paper>
  );
}
