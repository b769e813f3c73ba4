import { Box, Button, Stack, TableCell, TableRow, Typography } from '@mui/material';
import {
  BillingPageTexts,
  BillingTexts,
  ContactTypeLabels,
  TrackingActivityLabels,
  type BillingEvidencePatient,
  type BillingTimeEntry,
  type ContactType,
  type PatientBilling,
  type TrackingActivity,
} from '@rpm/contracts';
import { Link as RouterLink, useParams, useSearchParams } from 'react-router';
import { usePatientBilling } from '../../api/billing/get-patient-billing.ts';
import { paths } from '../../config/paths.ts';
import { DataTable, QueryStates } from '../../components/table-states.tsx';
import { MonthField } from './billing-filters.tsx';
import { MONTH } from './billing-month.ts';

// On paper a table shows every column: nothing scrolls.
const PRINT_TABLE = { '@media print': { overflow: 'visible', boxShadow: 'none' } };

/**
 * /billing/patients/:id?month=YYYY-MM: what a month's codes rest on, laid out to be printed and
 * filed with the claim: who the patient is, the counts the codes need (each saying what it
 * counts), every day with device readings and every time entry with who logged it.
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
        sx={{
          alignItems: 'center',
          justifyContent: 'space-between',
          flexWrap: 'wrap',
          gap: 1,
          mb: 2,
          displayPrint: 'none',
        }}
      >
        <Button component={RouterLink} to={paths.patient(id)}>
          {BillingTexts.backToPatient}
        </Button>
        <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 2 }}>
          <MonthField
            value={billing.data?.month ?? month ?? ''}
            onChange={(next) => setSearch({ month: next }, { replace: true })}
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
              {/* On paper the focus ring the page's heading gets after navigation means nothing. */}
              <Typography variant="h4" component="h1" sx={{ '@media print': { outline: 'none' } }}>
                {BillingTexts.evidenceTitle}: {data.patient.name}
              </Typography>
              <Typography color="text.secondary">
                {data.month} · {data.time_zone}
                {data.closed ? ` · ${BillingTexts.monthClosed}` : ''}
              </Typography>
            </Box>
            <PatientBlock patient={data.patient} />
            <Counts data={data} />
            <ReadingDays data={data} />
            <Entries month={data.month} entries={data.entries} />
          </Stack>
        )}
      </QueryStates>
    </Box>
  );
}

const orNotRecorded = (values: readonly string[]) => (values.length ? values.join('; ') : BillingPageTexts.notRecorded);
const withDetail = (name: string, detail: string | null) => `${name} (${detail ?? BillingPageTexts.notRecorded})`;

/** Who the claim is for, as an auditor asks. */
function PatientBlock({ patient }: { patient: BillingEvidencePatient }) {
  const facts: [string, string][] = [
    [BillingPageTexts.dateOfBirth, patient.date_of_birth ?? BillingPageTexts.notRecorded],
    [BillingPageTexts.insurance, orNotRecorded(patient.insurances.map((i) => withDetail(i.type, i.policy_number)))],
    [BillingPageTexts.devices, orNotRecorded(patient.devices.map((d) => withDetail(d.name, d.serial)))],
    [BillingPageTexts.orderingProvider, patient.ordering_provider ?? BillingPageTexts.notRecorded],
    [BillingPageTexts.consentDate, patient.consent_date ?? BillingPageTexts.notRecorded],
    [BillingPageTexts.diagnosisCodes, orNotRecorded(patient.diagnosis_codes)],
  ];
  return (
    <Box component="section" aria-labelledby="evidence-patient">
      <Typography variant="h6" component="h2" id="evidence-patient" sx={{ mb: 1 }}>
        {BillingPageTexts.evidencePatient}
      </Typography>
      <Box
        component="dl"
        data-testid="evidence-patient"
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: '1fr', sm: 'max-content 1fr' },
          columnGap: 3,
          rowGap: 0.5,
          m: 0,
        }}
      >
        {facts.map(([label, value]) => (
          <Box key={label} sx={{ display: 'contents' }}>
            <Typography component="dt" sx={{ fontWeight: 600 }}>
              {label}
            </Typography>
            <Typography component="dd" sx={{ m: 0, mb: { xs: 1, sm: 0 } }}>
              {value}
            </Typography>
          </Box>
        ))}
      </Box>
    </Box>
  );
}

/** The counts the codes need: device days in the 30-day period, minutes and contact in the calendar month. */
function Counts({ data }: { data: PatientBilling }) {
  const { row } = data;
  const lines = [
    row.period_start && row.period_end
      ? BillingPageTexts.evidencePeriodDays(row.device_days, row.period_start, row.period_end)
      : BillingPageTexts.evidenceNoPeriod,
    BillingPageTexts.evidenceMonthMinutes(row.minutes, data.month),
    BillingPageTexts.evidenceLiveContact(row.interactive),
    `${BillingTexts.codes}: ${
      row.codes.length
        ? row.codes
            .map((c) => `${c.code}${c.units > 1 ? ` × ${c.units}` : ''} (${c.period_start} – ${c.period_end})`)
            .join(', ')
        : BillingTexts.noCodes
    }`,
  ];
  return (
    <Box component="section" aria-labelledby="evidence-counts">
      <Typography variant="h6" component="h2" id="evidence-counts" sx={{ mb: 1 }}>
        {BillingPageTexts.evidenceCounts}
      </Typography>
      <Box component="ul" data-testid="evidence-counts" sx={{ m: 0, pl: 3 }}>
        {lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </Box>
    </Box>
  );
}

/** Every day of the calendar month with device readings, marked where it falls in the 30-day period. */
function ReadingDays({ data }: { data: PatientBilling }) {
  const { period_start: start, period_end: end } = data.row;
  const inPeriod = (day: string) => start !== null && end !== null && day >= start && day <= end;
  return (
    <Box component="section">
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {BillingPageTexts.evidenceMonthDays(data.reading_days.length, data.month)}
      </Typography>
      {data.reading_days.length === 0 ? (
        <Typography color="text.secondary">{BillingTexts.evidenceNoDays}</Typography>
      ) : (
        <DataTable
          label={BillingTexts.evidenceReadingDays}
          columns={[BillingTexts.date, BillingTexts.readings, BillingPageTexts.inPeriod]}
          containerSx={PRINT_TABLE}
        >
          {data.reading_days.map((d) => (
            <TableRow key={d.day}>
              <TableCell>{d.day}</TableCell>
              <TableCell>{d.readings}</TableCell>
              <TableCell>{inPeriod(d.day) ? BillingTexts.yes : BillingTexts.no}</TableCell>
            </TableRow>
          ))}
        </DataTable>
      )}
    </Box>
  );
}

const contactText = (e: BillingTimeEntry) =>
  !e.interactive
    ? BillingTexts.no
    : e.contact_type
      ? (ContactTypeLabels[e.contact_type as ContactType] ?? e.contact_type)
      : BillingTexts.yes;
const activityText = (e: BillingTimeEntry) =>
  e.activity ? (TrackingActivityLabels[e.activity as TrackingActivity] ?? e.activity) : '';

function Entries({ month, entries }: { month: string; entries: BillingTimeEntry[] }) {
  const minutes = entries.reduce((sum, e) => sum + e.duration_minutes, 0);
  return (
    <Box component="section">
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {BillingPageTexts.evidenceEntriesCount(entries.length, minutes)}
      </Typography>
      {entries.length === 0 ? (
        <Typography color="text.secondary">{BillingTexts.evidenceNoEntries}</Typography>
      ) : (
        <DataTable
          label={`${BillingTexts.evidenceEntries} ${month}`}
          columns={[
            BillingTexts.date,
            BillingTexts.minutes,
            BillingPageTexts.activity,
            BillingPageTexts.liveContact,
            BillingTexts.loggedBy,
            BillingTexts.notes,
          ]}
          containerSx={PRINT_TABLE}
        >
          {entries.map((e) => (
            <TableRow key={e.id}>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{e.date}</TableCell>
              <TableCell>{e.duration_minutes}</TableCell>
              <TableCell>{activityText(e)}</TableCell>
              <TableCell>{contactText(e)}</TableCell>
              <TableCell>{e.logged_by ?? ''}</TableCell>
              <TableCell sx={{ whiteSpace: 'pre-wrap' }}>{e.notes ?? ''}</TableCell>
            </TableRow>
          ))}
        </DataTable>
      )}
    </Box>
  );
}
