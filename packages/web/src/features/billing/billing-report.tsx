import {
  Alert,
  Box,
  Button,
  Chip,
  LinearProgress,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { BillingPageTexts, BillingTexts, type BillingReportQuery, type BillingRow } from '@rpm/contracts';
import { billingExportUrl } from '../../api/billing/export-billing-csv.ts';
import { useBillingReport } from '../../api/billing/get-billing-report.ts';
import { QueryStates } from '../../components/table-states.tsx';
import { formatTimestamp } from '../../lib/format-timestamp.ts';
import { useTimezone } from '../../lib/timezone.ts';
import { BillingMonthActions } from './billing-month-actions.tsx';
import { FilterBar, MonthField } from './billing-filters.tsx';
import { currentMonth, MONTH } from './billing-month.ts';
import { billingPageOf, BillingPager } from './billing-pager.tsx';
import type { BillingViewProps } from './billing-page.tsx';
import { PatientCell } from './patient-cell.tsx';

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
  row.codes.length
    ? row.codes.map((c) => (c.units > 1 ? `${c.code} × ${c.units}` : c.code)).join(', ')
    : BillingTexts.noCodes;

/** The report: each enrolled patient's codes for a month, what is missing, totals, CSV, the month's state. */
export function BillingReportView({ search, update, isAdmin, organizationId, organizationFilter }: BillingViewProps) {
  const { timezone } = useTimezone();
  const requested = search.get('month') ?? '';
  const month = MONTH.test(requested) ? requested : currentMonth(timezone);
  const query: BillingReportQuery = {
    month,
    ...(organizationId === null ? {} : { organization_id: organizationId }),
    ...billingPageOf(search),
  };
  const report = useBillingReport(query);
  const data = report.data?.month === month ? report.data : undefined;

  return (
    <>
      <FilterBar>
        <MonthField value={month} onChange={(next) => update({ view: 'report', month: next })} />
        {organizationFilter}
        <Box sx={{ flexGrow: 1, display: { xs: 'none', sm: 'block' } }} />
        {data?.closed && data.closed_at && (
          <Chip color="success" label={BillingPageTexts.closedAt(formatTimestamp(data.closed_at, timezone))} />
        )}
        {data?.claims_sent_at && (
          <Chip color="info" label={BillingPageTexts.claimsSentAt(formatTimestamp(data.claims_sent_at, timezone))} />
        )}
        <Button variant="outlined" href={billingExportUrl(query)} download={`billing-${month}.csv`}>
          {BillingTexts.exportCsv}
        </Button>
        {isAdmin && data && <BillingMonthActions report={data} />}
      </FilterBar>
      {report.isFetching && !report.isPending && <LinearProgress sx={{ mb: 1 }} aria-label="Loading" />}
      <QueryStates query={report} errorFallback={BillingTexts.failedToLoad}>
        {(shown) => (
          <>
            <Alert severity="info" icon={false} sx={{ mb: 2 }} data-testid="billing-totals">
              <b>{BillingTexts.totals}:</b>{' '}
              {shown.totals.length ? codesText({ codes: shown.totals }) : BillingTexts.noCodes}
            </Alert>
            {shown.total === 0 ? (
              <Typography color="text.secondary">{BillingTexts.noRows}</Typography>
            ) : (
              <>
                <ReportTable rows={shown.rows} />
                <BillingPager total={shown.total} limit={shown.limit} offset={shown.offset} update={update} />
              </>
            )}
          </>
        )}
      </QueryStates>
    </>
  );
}

function ReportTable({ rows }: { rows: BillingRow[] }) {
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
              <PatientCell row={r} />
              <TableCell sx={{ whiteSpace: 'nowrap' }}>
                {r.period_start ? `${r.period_start} – ${r.period_end}` : '—'}
              </TableCell>
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
