import {
  Box,
  Button,
  Card,
  CardActions,
  CardContent,
  Chip,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  TextField,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import {
  ALERT_SEVERITIES,
  ALERT_STATUSES,
  AlertTexts,
  type Alert,
  type AlertSeverity,
  type AlertStatus,
} from '@rpm/contracts';
import { useSnackbar } from '../../lib/toast/toast.ts';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useAcknowledgeAlert } from '../../api/alerts/acknowledge-alert.ts';
import { useAlerts } from '../../api/alerts/list-alerts.ts';
import { useProviders } from '../../api/organizations/get-providers.ts';
import { alertReadingText, SeverityChip } from '../../components/alert-display.tsx';
import { errorMessage } from '../../api/errors.ts';
import { useAuth } from '../../lib/auth/auth-context.tsx';
import { formatTimestamp } from '../../lib/format-timestamp.ts';
import { useTimezone } from '../../lib/timezone.ts';
import { ResolveDialog } from './resolve-dialog.tsx';

const PAGE_SIZES = [10, 25, 50];

/** The worklist: open alerts of the user's organization (admins: all), critical first, then oldest. */
export default function AlertsPage() {
  const { user } = useAuth();
  return <AlertsWorklist organizationId={user?.organization_id ?? null} />;
}

/** The page's content; the provider filter lists the providers of `organizationId`. */
export function AlertsWorklist({ organizationId }: { organizationId: number | null }) {
  const { timezone } = useTimezone();
  const theme = useTheme();
  // Below md a six-column table does not fit: each alert becomes a card.
  const narrow = useMediaQuery(theme.breakpoints.down('md'), { noSsr: true });
  const [status, setStatus] = useState<AlertStatus>('open');
  const [severity, setSeverity] = useState<AlertSeverity | ''>('');
  const [providerId, setProviderId] = useState<number | ''>('');
  const [page, setPage] = useState(0);
  const [rows, setRows] = useState(25);
  const [resolving, setResolving] = useState<Alert | null>(null);
  const providers = useProviders(organizationId);
  const alerts = useAlerts({
    status,
    severity: severity || undefined,
    provider_id: providerId || undefined,
    limit: rows,
    offset: page * rows,
  });
  const acknowledge = useAcknowledgeAlert();
  const { enqueueSnackbar } = useSnackbar();

  const handleAcknowledge = (a: Alert) =>
    acknowledge.mutate(a.id, {
      onSuccess: () => enqueueSnackbar(AlertTexts.acknowledged, { variant: 'success' }),
      onError: (err) => enqueueSnackbar(errorMessage(err, AlertTexts.acknowledge), { variant: 'error' }),
    });

  const actions = (a: Alert) =>
    a.status === 'resolved' ? null : (
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
        {a.status === 'open' && (
          <Button size="small" onClick={() => handleAcknowledge(a)} disabled={acknowledge.isPending}>
            {AlertTexts.acknowledge}
          </Button>
        )}
        <Button size="small" variant="contained" onClick={() => setResolving(a)}>
          {AlertTexts.resolve}
        </Button>
      </Stack>
    );

  const when = (a: Alert) =>
    a.count > 1
      ? `${AlertTexts.firstSeen} ${formatTimestamp(a.first_at, timezone)} · ${AlertTexts.lastSeen} ${formatTimestamp(a.last_at, timezone)}`
      : formatTimestamp(a.last_at, timezone);

  const items = alerts.data?.items ?? [];
  return (
    <>
      <Typography variant="h4" component="h1" gutterBottom>
        {AlertTexts.pageTitle}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2 }}>
        <TextField
          select
          size="small"
          label={AlertTexts.filterStatus}
          value={status}
          onChange={(e) => {
            setStatus(e.target.value as AlertStatus);
            setPage(0);
          }}
          sx={{ minWidth: 160 }}
        >
          {ALERT_STATUSES.map((s) => (
            <MenuItem key={s} value={s}>
              {AlertTexts.statuses[s]}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label={AlertTexts.filterSeverity}
          value={severity}
          onChange={(e) => {
            setSeverity(e.target.value as AlertSeverity | '');
            setPage(0);
          }}
          sx={{ minWidth: 160 }}
        >
          <MenuItem value="">{AlertTexts.any}</MenuItem>
          {ALERT_SEVERITIES.map((s) => (
            <MenuItem key={s} value={s}>
              {AlertTexts.severities[s]}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label={AlertTexts.filterProvider}
          value={providerId}
          onChange={(e) => {
            setProviderId(e.target.value === '' ? '' : Number(e.target.value));
            setPage(0);
          }}
          sx={{ minWidth: 200 }}
        >
          <MenuItem value="">{AlertTexts.any}</MenuItem>
          {(providers.data ?? []).map((p) => (
            <MenuItem key={p.id} value={p.id}>
              {p.name}
            </MenuItem>
          ))}
        </TextField>
      </Stack>

      {alerts.isError && <Typography color="error">{errorMessage(alerts.error, AlertTexts.loadFailed)}</Typography>}
      {alerts.isSuccess && items.length === 0 && <Typography sx={{ py: 3 }}>{AlertTexts.empty}</Typography>}

      {items.length > 0 &&
        (narrow ? (
          <Stack spacing={1.5} component="ul" aria-label={AlertTexts.pageTitle} sx={{ listStyle: 'none', p: 0, m: 0 }}>
            {items.map((a) => (
              <Card key={a.id} component="li" variant="outlined" data-alert-id={a.id}>
                <CardContent sx={{ pb: 1 }}>
                  <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 0.5 }}>
                    <SeverityChip severity={a.severity} />
                    <Typography variant="subtitle2">{AlertTexts.rules[a.rule]}</Typography>
                    {a.count > 1 && <Chip size="small" label={`× ${a.count}`} />}
                  </Stack>
                  <Typography component={RouterLink} to={`/patients/${a.patient_id}`} sx={{ fontWeight: 600 }}>
                    {a.patient_name}
                  </Typography>
                  <Typography variant="body2">{alertReadingText(a)}</Typography>
                  <Typography variant="body2" color="text.secondary">
                    {when(a)}
                  </Typography>
                </CardContent>
                <CardActions sx={{ justifyContent: 'flex-end' }}>{actions(a)}</CardActions>
              </Card>
            ))}
          </Stack>
        ) : (
          <TableContainer>
            <Table size="small" aria-label={AlertTexts.pageTitle}>
              <TableHead>
                <TableRow>
                  <TableCell>{AlertTexts.colPatient}</TableCell>
                  <TableCell>{AlertTexts.colRule}</TableCell>
                  <TableCell>{AlertTexts.colReading}</TableCell>
                  <TableCell>{AlertTexts.colWhen}</TableCell>
                  <TableCell align="right">{AlertTexts.colCount}</TableCell>
                  <TableCell align="right">{AlertTexts.colActions}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {items.map((a) => (
                  <TableRow key={a.id} data-alert-id={a.id} hover>
                    <TableCell>
                      <Box component={RouterLink} to={`/patients/${a.patient_id}`} sx={{ color: 'primary.main', fontWeight: 600 }}>
                        {a.patient_name}
                      </Box>
                    </TableCell>
                    <TableCell>
                      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                        <SeverityChip severity={a.severity} />
                        <span>{AlertTexts.rules[a.rule]}</span>
                      </Stack>
                    </TableCell>
                    <TableCell>{alertReadingText(a)}</TableCell>
                    <TableCell>{when(a)}</TableCell>
                    <TableCell align="right">{a.count}</TableCell>
                    <TableCell align="right">{actions(a)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        ))}
      {(alerts.data?.total ?? 0) > 0 && (
        <TablePagination
          component="div"
          count={alerts.data?.total ?? 0}
          page={page}
          rowsPerPage={rows}
          rowsPerPageOptions={PAGE_SIZES}
          onPageChange={(_e, p) => setPage(p)}
          onRowsPerPageChange={(e) => {
            setRows(Number(e.target.value));
            setPage(0);
          }}
        />
      )}
      {resolving && <ResolveDialog alert={resolving} onClose={() => setResolving(null)} />}
    </>
  );
}
