import { Alert, Button, MenuItem, Stack, TableCell, TableRow, TextField, Typography } from '@mui/material';
import {
  IngestionTexts,
  SmartTexts,
  isAllowedSecretHeader,
  type IngestionSource,
  type Organization,
} from '@rpm/contracts';
import { useSnackbar } from '../../lib/toast/toast.ts';
import { useId, useState } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { errorMessage } from '../../api/errors.ts';
import { formatTimestamp } from '../../lib/format-timestamp.ts';
import { useTimezone } from '../../lib/timezone.ts';
import { useAssignSourceOrganization } from '../../api/integrations/assign-source-organization.ts';
import { useRevokeSource } from '../../api/integrations/revoke-ingestion-source.ts';
import { useRotateSource } from '../../api/integrations/rotate-ingestion-source.ts';
import { UnmatchedQuota } from './unmatched-quota.tsx';

/**
 * One source of the integrations table, with its actions (rotate, revoke, assign an organization).
 * A SMART client's write source has none: it has no secret, and goes with its client.
 */
export function SourceRow({
  source,
  organizations,
  onSecret,
  clientSource = false,
}: {
  source: IngestionSource;
  organizations: Organization[];
  onSecret: (s: { name: string; id: string; secret: string }) => void;
  clientSource?: boolean;
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
        {!source.revoked_at && clientSource && <Typography variant="body2">{SmartTexts.clientSourceNote}</Typography>}
        {!source.revoked_at && !clientSource && (
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
