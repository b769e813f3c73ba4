import {
  Alert,
  Box,
  Button,
  Checkbox,
  FormControlLabel,
  MenuItem,
  Paper,
  Stack,
  TableCell,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import {
  CreateIngestionSourceBody,
  IngestionTexts,
  formRule,
  formSchema,
  isBlankOrMatches,
  requiredText,
  type IngestionSource,
  type IngestionSourceKind,
} from '@rpm/contracts';
import { useSnackbar } from '../../lib/toast/toast.ts';
import { useState } from 'react';
import { Controller } from 'react-hook-form';
import { useSchemaForm } from '../../components/form/use-schema-form.ts';
import { DataTable, ListStates, PageHeader } from '../../components/table-states.tsx';
import { errorMessage } from '../../api/errors.ts';
import { useCreateSource } from '../../api/integrations/create-ingestion-source.ts';
import { useIngestionSources } from '../../api/integrations/get-ingestion-sources.ts';
import { useRevokeSource } from '../../api/integrations/revoke-ingestion-source.ts';
import { useRotateSource } from '../../api/integrations/rotate-ingestion-source.ts';
import { UnmatchedQuota } from './unmatched-quota.tsx';

interface NewSource {
  name: string;
  kind: IngestionSourceKind;
  auth_header: string;
  can_read: boolean;
}

// Fields are only marked when wrong: this form has no message texts of its own. The header is
// checked only for Tenovi, the kind it is sent for.
const NewSourceForm = formRule(
  formSchema({ name: requiredText('') }),
  'auth_header',
  (v: NewSource) => v.kind !== 'tenovi' || isBlankOrMatches(v.auth_header, CreateIngestionSourceBody.properties.auth_header),
  '',
);

const COLUMNS = [
  IngestionTexts.sourceName,
  IngestionTexts.sourceKind,
  'ID',
  IngestionTexts.authHeader,
  IngestionTexts.recentRejections,
  IngestionTexts.unmatchedQuotaHeader,
  '',
];

/** /integrations: ingestion sources (device clouds, EHRs); a secret is shown once, when made. */
export default function IntegrationsPage() {
  const sources = useIngestionSources();
  const [secret, setSecret] = useState<{ name: string; id: string; secret: string } | null>(null);
  return (
    <Box>
      <PageHeader title={IngestionTexts.integrationsTitle} />
      <CreateSourceForm onSecret={setSecret} />
      {secret && (
        <Alert severity="warning" sx={{ my: 2 }} onClose={() => setSecret(null)}>
          <Typography>{IngestionTexts.secretOnce}</Typography>
          <Typography
            component="div"
            sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}
            data-testid="source-secret"
          >
            {secret.secret}
          </Typography>
          <Typography variant="body2" data-testid="source-id">
            {secret.name}: {secret.id}
          </Typography>
        </Alert>
      )}
      <ListStates query={sources} errorFallback={IngestionTexts.integrationsTitle} emptyText={IngestionTexts.noSources}>
        {(list) => (
          <DataTable label={IngestionTexts.integrationsTitle} columns={COLUMNS}>
            {list.map((s) => (
              <SourceRow key={s.id} source={s} onSecret={setSecret} />
            ))}
          </DataTable>
        )}
      </ListStates>
    </Box>
  );
}

function SourceRow({
  source,
  onSecret,
}: {
  source: IngestionSource;
  onSecret: (s: { name: string; id: string; secret: string }) => void;
}) {
  const { enqueueSnackbar } = useSnackbar();
  const rotate = useRotateSource();
  const revoke = useRevokeSource();
  const fail = (err: unknown) =>
    enqueueSnackbar(errorMessage(err, IngestionTexts.integrationsTitle), { variant: 'error' });
  return (
    <TableRow>
      <TableCell>
        {source.name}
        {source.revoked_at && ` (${IngestionTexts.revoked})`}
      </TableCell>
      <TableCell>{source.kind}</TableCell>
      <TableCell sx={{ fontFamily: 'monospace' }}>{source.id}</TableCell>
      <TableCell>{source.auth_header ?? 'Authorization: Bearer'}</TableCell>
      <TableCell>
        {source.recent_rejections.length === 0
          ? IngestionTexts.noRejections
          : source.recent_rejections.slice(0, 3).map((r) => (
              <Typography key={r.created_at + r.reason} variant="body2">
                {r.device_id ? `${r.device_id}: ` : ''}
                {r.reason}
              </Typography>
            ))}
      </TableCell>
      <TableCell>
        <UnmatchedQuota source={source} />
      </TableCell>
      <TableCell>
        {!source.revoked_at && (
          <Stack direction="row" spacing={1}>
            <Button
              size="small"
              onClick={() =>
                rotate.mutate(source.id, {
                  onSuccess: (s) => {
                    onSecret({ name: s.name, id: s.id, secret: 'secret' in s ? s.secret : '' });
                    enqueueSnackbar(IngestionTexts.secretRotated, { variant: 'success' });
                  },
                  onError: fail,
                })
              }
            >
              {IngestionTexts.rotate}
            </Button>
            <Button
              size="small"
              color="error"
              onClick={() =>
                revoke.mutate(source.id, {
                  onSuccess: () => enqueueSnackbar(IngestionTexts.sourceRevoked, { variant: 'success' }),
                  onError: fail,
                })
              }
            >
              {IngestionTexts.revoke}
            </Button>
          </Stack>
        )}
      </TableCell>
    </TableRow>
  );
}

function CreateSourceForm({ onSecret }: { onSecret: (s: { name: string; id: string; secret: string }) => void }) {
  const { enqueueSnackbar } = useSnackbar();
  const create = useCreateSource();
  const { control, handleSubmit, reset, watch } = useSchemaForm<NewSource>(NewSourceForm, {
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    defaultValues: { name: '', kind: 'tenovi', auth_header: '', can_read: false },
  });
  const kind = watch('kind');
  const submit = handleSubmit((v) =>
    create.mutate(
      {
        name: v.name.trim(),
        kind: v.kind,
        ...(v.kind === 'tenovi' && v.auth_header.trim() ? { auth_header: v.auth_header.trim() } : {}),
        ...(v.kind === 'fhir' ? { can_read: v.can_read } : {}),
      },
      {
        onSuccess: (s) => {
          reset();
          onSecret({ name: s.name, id: s.id, secret: 'secret' in s ? s.secret : '' });
          enqueueSnackbar(IngestionTexts.sourceCreated, { variant: 'success' });
        },
        onError: (err) => enqueueSnackbar(errorMessage(err, IngestionTexts.createSource), { variant: 'error' }),
      },
    ),
  );
  return (
    <Paper component="form" onSubmit={submit} sx={{ p: 2, mb: 2 }} aria-label={IngestionTexts.createSource}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems="center">
        <Controller
          name="name"
          control={control}
          render={({ field, fieldState }) => (
            <TextField {...field} label={IngestionTexts.sourceName} size="small" required error={!!fieldState.error} />
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
        {kind === 'tenovi' ? (
          <Controller
            name="auth_header"
            control={control}
            render={({ field, fieldState }) => (
              <TextField {...field} label={IngestionTexts.authHeader} size="small" error={!!fieldState.error} />
            )}
          />
        ) : (
          <Controller
            name="can_read"
            control={control}
            render={({ field }) => (
              <FormControlLabel
                control={<Checkbox checked={field.value} onChange={(e) => field.onChange(e.target.checked)} />}
                label={IngestionTexts.canRead}
              />
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
