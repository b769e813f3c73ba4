import { MenuItem, Paper, Stack, TextField, Button } from '@mui/material';
import {
  CreateIngestionSourceBody,
  IngestionTexts,
  Validation,
  formRule,
  formSchema,
  isBlankOrMatches,
  requiredText,
  type IngestionSourceKind,
  type Organization,
} from '@rpm/contracts';
import { useSnackbar } from '../../lib/toast/toast.ts';
import { useOnlyOrganization } from './use-only-organization.ts';
import { Controller } from 'react-hook-form';
import { controlledFieldProps } from '../../components/form/text-field-props.ts';
import { useSchemaForm } from '../../components/form/use-schema-form.ts';
import { errorMessage } from '../../api/errors.ts';
import { useCreateSource } from '../../api/integrations/create-ingestion-source.ts';

interface NewSource {
  name: string;
  kind: IngestionSourceKind;
  organization_id: string;
  auth_header: string;
}

// Fields are only marked when wrong: this form has few message texts of its own. The header is
// checked only for Tenovi, the kind it is sent for. A FHIR source writes only: EHRs read as SMART
// clients (the section below), static read keys are retired.
const NewSourceForm = formRule(
  formSchema({
    name: requiredText(''),
    organization_id: requiredText(Validation.organizationRequired),
  }),
  'auth_header',
  (v: NewSource) =>
    v.kind !== 'tenovi' || isBlankOrMatches(v.auth_header, CreateIngestionSourceBody.properties.auth_header),
  '',
);

export function CreateSourceForm({
  onSecret,
  organizations,
}: {
  onSecret: (s: { name: string; id: string; secret: string }) => void;
  organizations: Organization[];
}) {
  const { enqueueSnackbar } = useSnackbar();
  const create = useCreateSource();
  const { control, handleSubmit, reset, watch, getValues, setValue } = useSchemaForm<NewSource>(NewSourceForm, {
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    defaultValues: {
      name: '',
      kind: 'tenovi',
      organization_id: '',
      auth_header: '',
    },
  });
  const kind = watch('kind');
  useOnlyOrganization(organizations, getValues, setValue);
  const submit = handleSubmit((v) =>
    create.mutate(
      {
        name: v.name.trim(),
        kind: v.kind,
        organization_id: Number(v.organization_id),
        ...(v.kind === 'tenovi' && v.auth_header.trim() ? { auth_header: v.auth_header.trim() } : {}),
      },
      {
        onSuccess: (s) => {
          reset({ ...getValues(), name: '', auth_header: '' });
          onSecret({ name: s.name, id: s.id, secret: 'secret' in s ? s.secret : '' });
          enqueueSnackbar(IngestionTexts.sourceCreated, { variant: 'success' });
        },
        onError: (err) => enqueueSnackbar(errorMessage(err, IngestionTexts.createSource), { variant: 'error' }),
      },
    ),
  );
  return (
    <Paper component="form" noValidate onSubmit={submit} sx={{ p: 2, mb: 2 }} aria-label={IngestionTexts.createSource}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems="center">
        <Controller
          name="name"
          control={control}
          render={({ field, fieldState }) => (
            <TextField {...field} label={IngestionTexts.sourceName} size="small" required error={!!fieldState.error} />
          )}
        />
        <Controller
          name="organization_id"
          control={control}
          render={({ field, fieldState }) => (
            <TextField
              select
              required
              label={IngestionTexts.organization}
              size="small"
              sx={{ minWidth: 180 }}
              {...controlledFieldProps(field, fieldState)}
            >
              {organizations.map((o) => (
                <MenuItem key={o.id} value={String(o.id)}>
                  {o.name}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
        <Controller
          name="kind"
          control={control}
          render={({ field }) => (
            <TextField {...field} select label={IngestionTexts.sourceKind} size="small" sx={{ minWidth: 120 }}>
              <MenuItem value="tenovi">Tenovi</MenuItem>
              <MenuItem value="fhir">FHIR</MenuItem>
            </TextField>
          )}
        />
        {kind === 'tenovi' && (
          <Controller
            name="auth_header"
            control={control}
            render={({ field, fieldState }) => (
              <TextField {...field} label={IngestionTexts.authHeader} size="small" error={!!fieldState.error} />
            )}
          />
        )}
        <Button type="submit" variant="contained" disabled={create.isPending}>
          {IngestionTexts.createSource}
        </Button>
      </Stack>
    </Paper>
  );
}
