import { Alert, Box, Button, List, ListItem, ListItemText, TableCell, TableRow, Typography } from '@mui/material';
import {
  SMART_TOKEN_PATH,
  SmartTexts,
  type IngestionSource,
  type Organization,
  type SmartClient,
} from '@rpm/contracts';
import { useState } from 'react';
import { errorMessage } from '../../api/errors.ts';
import { useSmartClients } from '../../api/smart-clients/get-smart-clients.ts';
import { useRevokeSmartClient } from '../../api/smart-clients/revoke-smart-client.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { DataTable, QueryStates } from '../../components/table-states.tsx';
import { useSnackbar } from '../../lib/toast/toast.ts';
import { SmartClientForm } from './smart-client-form.tsx';

const COLUMNS = [SmartTexts.name, SmartTexts.organization, SmartTexts.clientId, SmartTexts.keys, SmartTexts.scopes, ''];

/**
 * EHR system clients (SMART Backend Services): registering one, the list with each client id (the
 * EHR's `iss`), revoking after a confirmation, and the static FHIR read keys that no longer work.
 */
export function SmartClientsSection({
  organizations,
  sources,
}: {
  organizations: Organization[];
  /** The ingestion sources, for the retired read keys among them. */
  sources: IngestionSource[];
}) {
  const clients = useSmartClients();
  const legacy = sources.filter((s) => s.can_read && !s.revoked_at);
  const organizationName = (id: number | null) =>
    id === null ? '' : (organizations.find((o) => o.id === id)?.name ?? `#${id}`);
  return (
    <Box component="section" aria-labelledby="smart-clients-title" sx={{ mt: 4 }}>
      <Typography id="smart-clients-title" variant="h5" component="h2" gutterBottom>
        {SmartTexts.title}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 1 }}>
        {SmartTexts.intro}
      </Typography>
      <Typography variant="body2" sx={{ mb: 2, wordBreak: 'break-all' }}>
        {SmartTexts.tokenUrl}: <code>{`${window.location.origin}${SMART_TOKEN_PATH}`}</code>
      </Typography>
      {legacy.length > 0 && (
        <Alert severity="warning" sx={{ mb: 2 }} role="region" aria-label={SmartTexts.legacyTitle}>
          <Typography fontWeight="bold">{SmartTexts.legacyTitle}</Typography>
          <Typography variant="body2">{SmartTexts.legacyIntro}</Typography>
          <List dense>
            {legacy.map((s) => (
              <ListItem key={s.id} disableGutters>
                <ListItemText primary={s.name} secondary={`${organizationName(s.organization_id)} · ${s.id}`} />
              </ListItem>
            ))}
          </List>
        </Alert>
      )}
      <SmartClientForm organizations={organizations} />
      <QueryStates
        query={clients}
        errorFallback={SmartTexts.title}
        emptyText={SmartTexts.empty}
        isEmpty={(d) => d.clients.length === 0}
      >
        {(data) => (
          <DataTable label={SmartTexts.title} columns={COLUMNS} stackOnPhone>
            {data.clients.map((c) => (
              <SmartClientRow key={c.id} client={c} organization={organizationName(c.organization_id)} />
            ))}
          </DataTable>
        )}
      </QueryStates>
    </Box>
  );
}

function SmartClientRow({ client, organization }: { client: SmartClient; organization: string }) {
  const { enqueueSnackbar } = useSnackbar();
  const revoke = useRevokeSmartClient();
  const [confirming, setConfirming] = useState(false);
  const confirm = () =>
    revoke.mutate(client.id, {
      onSuccess: () => {
        setConfirming(false);
        enqueueSnackbar(SmartTexts.revokedToast(client.name), { variant: 'success' });
      },
      onError: (err) => enqueueSnackbar(errorMessage(err, SmartTexts.revoke), { variant: 'error' }),
    });
  return (
    <TableRow>
      <TableCell>
        {client.name}
        {client.revoked_at && ` (${SmartTexts.revoked})`}
      </TableCell>
      <TableCell>{organization}</TableCell>
      {/* Copied into the EHR's set-up as is: one line, the table scrolls sideways on a phone. */}
      <TableCell sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>{client.id}</TableCell>
      <TableCell sx={{ wordBreak: 'break-all', minWidth: 160 }}>
        {client.jwks_url ?? client.key_ids.join(', ')}
      </TableCell>
      <TableCell>
        {client.scopes.map((s) => (
          <Typography key={s} variant="body2" sx={{ fontFamily: 'monospace' }}>
            {s}
          </Typography>
        ))}
      </TableCell>
      <TableCell>
        {!client.revoked_at && (
          <Button
            size="small"
            color="error"
            onClick={() => setConfirming(true)}
            aria-label={`${SmartTexts.revoke} ${client.name}`}
          >
            {SmartTexts.revoke}
          </Button>
        )}
        <ConfirmDialog
          open={confirming}
          title={SmartTexts.revokeTitle}
          body={SmartTexts.revokeConfirm(client.name)}
          confirmLabel={SmartTexts.revoke}
          destructive
          pending={revoke.isPending}
          onConfirm={confirm}
          onCancel={() => setConfirming(false)}
        />
      </TableCell>
    </TableRow>
  );
}
