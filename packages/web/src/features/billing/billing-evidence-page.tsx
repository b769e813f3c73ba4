import { Box, Button, Stack, TableCell, TableRow, TextField, Typography } from '@mui/material';
import { BillingTexts } from '@rpm/contracts';
import { Link as RouterLink, useParams, useSearchParams } from 'react-router';
import { usePatientBilling } from '../../api/billing/get-patient-billing.ts';
import { paths } from '../../config/paths.ts';
import { DataTable, QueryStates } from '../../components/table-states.tsx';

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/**
 * /billing/patients/:id?month=YYYY-MM: what a month's codes rest on, laid out to be printed and
 * filed with the claim: every day with device readings and every time entry with who logged it.
 */
export default function BillingEvidencePage() {
  const id = Number(useParams().id);
  const [search, setSearch] = useSearchParams();
  const requested = search.get('month') ?? '';
  const month = MONTH.test(requested) ? requested : undefined;
  const billing = usePatientBilling(Number.isInteger(id) && id > 0 ? id : 0, month);

  return (
    <Box>
      <Stack
        direction="row"
        sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1, mb: 2, displayPrint: 'none' }}
      >
        <Button component={RouterLink} to={paths.patient(id)}>
          {BillingTexts.backToPatient}
        </Button>
        <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 2 }}>
          <TextField
            type="month"
            size="small"
            label={BillingTexts.month}
            value={billing.data?.month ?? month ?? ''}
            onChange={(e) => MONTH.test(e.target.value) && setSearch({ month: e.target.value }, { replace: true })}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <Button variant="outlined" onClick={() => window.print()}>
            {BillingTexts.print}
          </Button>
        </Stack>
      </Stack>
      <QueryStates query={billing} errorFallback={BillingTexts.failedToLoad}>
        {(data) => (
          <Stack spacing={3}>
            <Box>
              <Typography variant="h4" component="h1">
                {BillingTexts.evidenceTitle}: {data.row.patient_name}
              </Typography>
              <Typography color="text.secondary">
                {data.month} · {data.time_zone}
                {data.closed ? ` · ${BillingTexts.monthClosed}` : ''}
              </Typography>
              <Typography sx={{ mt: 1 }}>
                {BillingTexts.progressDeviceDays(data.row.device_days)} · {BillingTexts.progressMinutes(data.row.minutes)} ·{' '}
                {BillingTexts.progressInteractive(data.row.interactive)}
              </Typography>
              <Typography>
                {BillingTexts.codes}:{' '}
                {data.row.codes.length
                  ? data.row.codes.map((c) => `${c.code}${c.units > 1 ? ` × ${c.units}` : ''} (${c.period_start} – ${c.period_end})`).join(', ')
                  : BillingTexts.noCodes}
              </Typography>
            </Box>
            <Box component="section">
              <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
                {BillingTexts.evidenceReadingDays} ({data.reading_days.length})
              </Typography>
              {data.reading_days.length === 0 ? (
                <Typography color="text.secondary">{BillingTexts.evidenceNoDays}</Typography>
              ) : (
                <DataTable label={BillingTexts.evidenceReadingDays} columns={[BillingTexts.date, BillingTexts.readings]}>
                  {data.reading_days.map((d) => (
                    <TableRow key={d.day}>
                      <TableCell>{d.day}</TableCell>
                      <TableCell>{d.readings}</TableCell>
                    </TableRow>
                  ))}
                </DataTable>
              )}
            </Box>
            <Box component="section">
              <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
                {BillingTexts.evidenceEntries} ({data.entries.length})
              </Typography>
              {data.entries.length === 0 ? (
                <Typography color="text.secondary">{BillingTexts.evidenceNoEntries}</Typography>
              ) : (
                <DataTable
                  label={BillingTexts.evidenceEntries}
                  columns={[BillingTexts.date, BillingTexts.minutes, BillingTexts.interactive, BillingTexts.loggedBy, BillingTexts.notes]}
                >
                  {data.entries.map((e) => (
                    <TableRow key={e.id}>
                      <TableCell>{e.date}</TableCell>
                      <TableCell>{e.duration_minutes}</TableCell>
                      <TableCell>{e.interactive ? BillingTexts.yes : BillingTexts.no}</TableCell>
                      <TableCell>{e.logged_by ?? ''}</TableCell>
                      <TableCell sx={{ whiteSpace: 'pre-wrap' }}>{e.notes ?? ''}</TableCell>
                    </TableRow>
                  ))}
                </DataTable>
              )}
            </Box>
          </Stack>
        )}
      </QueryStates>
    </Box>
  );
}
