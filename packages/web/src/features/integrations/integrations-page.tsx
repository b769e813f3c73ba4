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
  FHIR_READ_KEY_DEFAULT_DAYS,
  IngestionTexts,
  Validation,
  isAllowedSecretHeader,
  formRule,
  formSchema,
  isBlankOrMatches,
  optionalWholeNumberText,
  requiredText,
  type IngestionSource,
  type IngestionSourceKind,
  type Organization,
} from '@rpm/contracts';
import { useSnackbar } from '../../lib/toast/toast.ts';
import { useEffect, useId, useState } from 'react';
import { Controller } from 'react-hook-form';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { controlledFieldProps } from '../../components/form/text-field-props.ts';
import { useSchemaForm } from '../../components/form/use-schema-form.ts';
import { DataTable, ListStates, PageHeader } from '../../components/table-states.tsx';
import { errorMessage } from '../../api/errors.ts';
import { formatTimestamp } from '../../lib/format-timestamp.ts';
import { useTimezone } from '../../lib/timezone.ts';
import { useAssignSourceOrganization } from '../../api/integrations/assign-source-organization.ts';
import { useCreateSource } from '../../api/integrations/create-ingestion-source.ts';
import { useOrganizations } from '../../api/organizations/get-organizations.ts';
import { useIngestionSources } from '../../api/integrations/get-ingestion-sources.ts';
import { useRevokeSource } from '../../api/integrations/revoke-ingestion-source.ts';
import { useRotateSource } from '../../api/integrations/rotate-ingestion-source.ts';
import { UnmatchedQuota } from './unmatched-quota.tsx';

interface NewSource {
  name: string;
  kind: IngestionSourceKind;
  organization_id: string;
  auth_header: string;
  can_read: boolean;
  expires_in_days: string;
}

// Fields are only marked when wrong: this form has few message texts of its own. The header is
// checked only for Tenovi, the kind it is sent for; the expiry field is shown (and filled) only
// for FHIR read keys.
const NewSourceForm = formRule(
  formSchema({
    name: requiredText(''),
    organization_id: requiredText(Validation.organizationRequired),
    expires_in_days: optionalWholeNumberText(CreateIngestionSourceBody.properties.expires_in_days, ''),
  }),
  'auth_header',
  (v: NewSource) =>
    v.kind !== 'tenovi' || isBlankOrMatches(v.auth_header, CreateIngestionSourceBody.properties.auth_header),
  '',
);

const COLUMNS = [
  IngestionTexts.sourceName,
  IngestionTexts.sourceKind,
  IngestionTexts.organization,
  'ID',
  IngestionTexts.authHeader,
  IngestionTexts.expires,
  IngestionTexts.recentRejections,
  IngestionTexts.unmatchedQuotaHeader,
  '',
];

/** /integrations: ingestion sources (device clouds, EHRs); a secret is shown once, when made. */
export default function IntegrationsPage() {
  const sources = useIngestionSources();
  const organizations = useOrganizations();
  const [secret, setSecret] = useState<{ name: string; id: string; secret: string } | null>(null);
  return (
    <Box>
      <PageHeader title={IngestionTexts.integrationsTitle} />
      <CreateSourceForm onSecret={setSecret} organizations={organizations.data ?? []} />
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
              <SourceRow key={s.id} source={s} organizations={organizations.data ?? []} onSecret={setSecret} />
            ))}
          </DataTable>
        )}
      </ListStates>
    </Box>
  );
}

function SourceRow({
  source,
  organizations,
  onSecret,
}: {
  source: IngestionSource;
  organizations: Organization[];
  onSecret: (s: { name: string; id: string; secret: string }) => void;
}) {
  const { enqueueSnackbar } = useSnackbar();
  const { timezone } = useTimezone();
  const expired = source.expires_at !== null && Date.parse(source.expires_at) <= Date.now();
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
      <TableCell>
        {source.organization_id !== null ? (
          (organizations.find((o) => o.id === source.organization_id)?.name ?? `#${source.organization_id}`)
        ) : source.revoked_at ? null : (
          <AssignOrganization source={source} organizations={organizations} />
        )}
      </TableCell>
      <TableCell sx={{ fontFamily: 'monospace' }}>{source.id}</TableCell>
      <TableCell>
        {source.auth_header ?? 'Authorization: Bearer'}
        {/* Made before the rule: the portal refuses it, and says why here. */}
        {source.auth_header !== null && !source.revoked_at && !isAllowedSecretHeader(source.auth_header) && (
          <Alert severity="warning" sx={{ mt: 1 }}>
            {IngestionTexts.headerNotAllowed}
          </Alert>
        )}
      </TableCell>
      <TableCell>
        {source.expires_at === null ? (
          IngestionTexts.noExpiry
        ) : (
          <>
            <time dateTime={source.expires_at}>{formatTimestamp(source.expires_at, timezone)}</time>
            {expired && ` (${IngestionTexts.expired})`}
          </>
        )}
      </TableCell>
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

/**
 * A source made before sources had an organization reaches no patient until an admin picks its
 * organization; that choice decides whose data the key reaches, so it is confirmed first.
 */
function AssignOrganization({ source, organizations }: { source: IngestionSource; organizations: Organization[] }) {
  const { enqueueSnackbar } = useSnackbar();
  const assign = useAssignSourceOrganization();
  const noticeId = useId();
  const [choice, setChoice] = useState('');
  const [confirming, setConfirming] = useState(false);
  const chosen = organizations.find((o) => String(o.id) === choice);
  return (
    <Stack spacing={1} sx={{ minWidth: 200 }}>
      <Alert severity="warning" id={noticeId}>
        {IngestionTexts.noOrganization}
      </Alert>
      <TextField
        select
        size="small"
        label={IngestionTexts.organization}
        value={choice}
        onChange={(e) => setChoice(e.target.value)}
        slotProps={{ htmlInput: { 'aria-describedby': noticeId } }}
      >
        {organizations.map((o) => (
          <MenuItem key={o.id} value={String(o.id)}>
            {o.name}
          </MenuItem>
        ))}
      </TextField>
      <Button
        size="small"
        variant="outlined"
        disabled={!chosen || assign.isPending}
        onClick={() => setConfirming(true)}
      >
        {IngestionTexts.assignOrganization}
      </Button>
      <ConfirmDialog
        open={confirming}
        title={IngestionTexts.assignConfirmTitle}
        body={IngestionTexts.assignConfirm(source.name, chosen?.name ?? '')}
        confirmLabel={IngestionTexts.assign}
        pending={assign.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() =>
          chosen &&
          assign.mutate(
            { id: source.id, organization_id: chosen.id },
            {
              onSuccess: () => {
                setConfirming(false);
                enqueueSnackbar(IngestionTexts.organizationAssigned, { variant: 'success' });
              },
              onError: (err) => {
                setConfirming(false);
                enqueueSnackbar(errorMessage(err, IngestionTexts.assignOrganization), { variant: 'error' });
              },
            },
          )
        }
      />
    </Stack>
  );
}

function CreateSourceForm({
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
      can_read: false,
      expires_in_days: '',
    },
  });
  const kind = watch('kind');
  const canRead = watch('can_read');
  // With a single organization there is nothing to choose: it is chosen.
  const only = organizations.length === 1 ? String(organizations[0]!.id) : null;
  useEffect(() => {
    if (only && getValues('organization_id') === '') setValue('organization_id', only);
  }, [only, getValues, setValue]);
  // A hidden field must not hold the form back: the expiry is only for read keys.
  const readKey = kind === 'fhir' && canRead;
  useEffect(() => {
    if (!readKey) setValue('expires_in_days', '');
  }, [readKey, setValue]);
  const submit = handleSubmit((v) =>
    create.mutate(
      {
        name: v.name.trim(),
        kind: v.kind,
        organization_id: Number(v.organization_id),
        ...(v.kind === 'tenovi' && v.auth_header.trim() ? { auth_header: v.auth_header.trim() } : {}),
        ...(v.kind === 'fhir' ? { can_read: v.can_read } : {}),
        ...(v.kind === 'fhir' && v.can_read && v.expires_in_days.trim()
          ? { expires_in_days: Number(v.expires_in_days.trim()) }
          : {}),
      },
      {
        onSuccess: (s) => {
          reset({ ...getValues(), name: '', auth_header: '', can_read: false, expires_in_days: '' });
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
        {readKey && (
          <Controller
            name="expires_in_days"
            control={control}
            render={({ field, fieldState }) => (
              <TextField
                {...field}
                label={IngestionTexts.expiresInDays}
                placeholder={String(FHIR_READ_KEY_DEFAULT_DAYS)}
                size="small"
                sx={{ width: 150 }}
                error={!!fieldState.error}
                slotProps={{ htmlInput: { inputMode: 'numeric' } }}
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
