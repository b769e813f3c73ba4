import { Alert, Box, Typography } from '@mui/material';
import { IngestionTexts } from '@rpm/contracts';
import { useState } from 'react';
import { DataTable, ListStates, PageHeader } from '../../components/table-states.tsx';
import { useOrganizations } from '../../api/organizations/get-organizations.ts';
import { useIngestionSources } from '../../api/integrations/get-ingestion-sources.ts';
import { useSmartClients } from '../../api/smart-clients/get-smart-clients.ts';
import { CreateSourceForm } from './create-source-form.tsx';
import { SourceRow } from './source-row.tsx';
import { SmartClientsSection } from './smart-clients-section.tsx';

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

/**
 * /integrations: ingestion sources (device clouds, EHRs writing readings; a secret is shown once,
 * when made) and EHR system clients reading through SMART Backend Services.
 */
export default function IntegrationsPage() {
  const sources = useIngestionSources();
  const organizations = useOrganizations();
  const clientSources = new Set((useSmartClients().data?.clients ?? []).map((c) => c.source_id));
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
          <DataTable label={IngestionTexts.integrationsTitle} columns={COLUMNS} stackOnPhone>
            {list.map((s) => (
              <SourceRow
                key={s.id}
                source={s}
                organizations={organizations.data ?? []}
                onSecret={setSecret}
                clientSource={clientSources.has(s.id)}
              />
            ))}
          </DataTable>
        )}
      </ListStates>
      <SmartClientsSection organizations={organizations.data ?? []} sources={sources.data ?? []} />
    </Box>
  );
}
