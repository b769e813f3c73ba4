import {
  Alert,
  Box,
  Button,
  Chip,
  LinearProgress,
  Link,
  MenuItem,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { BillingTexts, type BillingQuery, type BillingRow } from '@rpm/contracts';
import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns';
import { useSnackbar } from '../../lib/toast/toast.ts';
import { useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { useCloseBillingMonth } from '../../api/billing/close-billing-month.ts';
import { billingExportUrl } from '../../api/billing/export-billing-csv.ts';
import { useOrganizations } from '../../api/organizations/get-organizations.ts';
import { useBillingReport } from '../../api/billing/get-billing-report.ts';
import { paths } from '../../config/paths.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { PageHeader, QueryStates } from '../../components/table-states.tsx';
import { errorMessage } from '../../api/errors.ts';
import { useAuth } from '../../lib/auth/auth-context.tsx';
import { useTimezone } from '../../lib/timezone.ts';

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const COLUMNS = [
  BillingTexts.patient,
  BillingTexts.period,
  BillingTexts.deviceDays,
  BillingTexts.minutes,
  BillingTexts.interactive,
  BillingTexts.codes,
  BillingTexts.missing,
];

const codesText = (row: { codes: { code: string; units: number }[] }) =>
  row.codes.length ? row.codes.map((c) => (c.units > 1 ? `${c.code} × ${c.units}` : c.code)).join(', ') : BillingTexts.noCodes;

/** /billing: each enrolled patient's codes for a month, what is missing, totals, CSV and closing. */
export default function BillingPage() {
  const { user } = useAuth();
  const isAdmin = user?.role === 'admin';
  const { timezone } = useTimezone();
  const [search, setSearch] = useSearchParams();
  // The month and organization live in the address, so a report can be bookmarked and shared.
  const month = MONTH.test(search.get('month') ?? '') ? search.get('month')! : format(new TZDate(Date.now(), timezone), 'yyyy-MM');
  const orgParam = Number(search.get('organization_id'));
  const query: BillingQuery = { month, ...(isAdmin && orgParam > 0 ? { organization_id: orgParam } : {}) };
  const report = useBillingReport(query);
  const organizations = useOrganizations();
  const close = useCloseBillingMonth();
  const [confirming, setConfirming] = useState(false);
  const { enqueueSnackbar } = useSnackbar();

  const update = (changes: Record<string, string>) => {
    const next = new URLSearchParams(search);
    for (const [k, v] of Object.entries(changes)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    setSearch(next, { replace: true });
  };

  const handleClose = async () => {
    try {
      await close.mutateAsync(month);
      enqueueSnackbar(BillingTexts.monthClosedToast, { variant: 'success' });
    } catch (err) {
      enqueueSnackbar(errorMessage(err, BillingTexts.failedToClose), { variant: 'error' });
    } finally {
      setConfirming(false);
    }
  };

  return (
    <Box>
      <PageHeader title={BillingTexts.title} />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2, alignItems: { sm: 'center' } }}>
        <TextField
          type="month"
          label={BillingTexts.month}
          value={month}
          onChange={(e) => MONTH.test(e.target.value) && update({ month: e.target.value })}
          size="small"
          slotProps={{ inputLabel: { shrink: true } }}
        />
        {isAdmin && (
          <TextField
            select
            label={BillingTexts.organization}
            // Until the list has arrived the chosen organization is not among the options yet.
            value={organizations.data?.some((o) => o.id === query.organization_id) ? String(query.organization_id) : ''}
            onChange={(e) => update({ organization_id: e.target.value })}
            size="small"
            sx={{ minWidth: 220 }}
            slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          >
            <MenuItem value="">{BillingTexts.allOrganizations}</MenuItem>
            {(organizations.data ?? []).map((o) => (
              <MenuItem key={o.id} value={String(o.id)}>
                {o.name}
              </MenuItem>
            ))}
          </TextField>
        )}
        <Box sx={{ flexGrow: 1, display: { xs: 'none', sm: 'block' } }} />
        {report.data?.closed && <Chip color="success" label={BillingTexts.monthClosed} />}
        <Button variant="outlined" href={billingExportUrl(query)} download={`billing-${month}.csv`}>
          {BillingTexts.exportCsv}
        </Button>
        {isAdmin && report.data && !report.data.closed && (
          <Button variant="contained" onClick={() => setConfirming(true)}>
            {BillingTexts.closeMonth}
          </Button>
        )}
      </Stack>
      {report.isFetching && !report.isPending && <LinearProgress sx={{ mb: 1 }} aria-label="Loading" />}
      <QueryStates query={report} errorFallback={BillingTexts.failedToLoad}>
        {(data) => (
          <>
            <Totals totals={data.totals} />
            {data.rows.length === 0 ? (
              <Typography color="text.secondary">{BillingTexts.noRows}</Typography>
            ) : (
              <BillingTable rows={data.rows} />
            )}
          </>
        )}
      </QueryStates>
      <ConfirmDialog
        open={confirming}
        title={BillingTexts.closeMonthTitle}
        body={`${month}: ${BillingTexts.closeMonthBody}`}
        confirmLabel={BillingTexts.closeMonth}
        pending={close.isPending}
        onConfirm={() => void handleClose()}
        onCancel={() => setConfirming(false)}
      />
    </Box>
  );
}

function Totals({ totals }: { totals: { code: string; units: number }[] }) {
  return (
    <Alert severity="info" icon={false} sx={{ mb: 2 }} data-testid="billing-totals">
      <b>{BillingTexts.totals}:</b> {totals.length ? codesText({ codes: totals }) : BillingTexts.noCodes}
    </Alert>
  );
}

function BillingTable({ rows }: { rows: BillingRow[] }) {
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table size="small" aria-label={BillingTexts.title}>
        <TableHead>
          <TableRow>
            {COLUMNS.map((c) => (
              <TableCell key={c}>{c}</TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((r) => (
            <TableRow key={r.patient_id} data-testid={`billing-row-${r.patient_id}`}>
              <TableCell>
                <Link component={RouterLink} to={paths.patient(r.patient_id)}>
                  {r.patient_name}
                </Link>
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{r.period_start ? `${r.period_start} – ${r.period_end}` : '—'}</TableCell>
              <TableCell>{r.device_days}</TableCell>
              <TableCell>{r.minutes}</TableCell>
              <TableCell>{r.interactive ? BillingTexts.yes : BillingTexts.no}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{codesText(r)}</TableCell>
              <TableCell sx={{ minWidth: 220 }}>{r.missing.join('; ')}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
