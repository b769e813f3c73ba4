import { Alert, Box, Button, GlobalStyles, Stack, TableCell, TableRow, Typography } from '@mui/material';
import {
  AlertTexts,
  ContactTypeLabels,
  SummaryTexts,
  TrackingActivityLabels,
  shiftMonth,
  summaryFigure,
  summaryMonthLabel,
  summaryPagePath,
  summaryShare,
  type ContactType,
  type MonthlySummary,
  type ResolutionReason,
  type TrackingActivity,
} from '@rpm/contracts';
import type { ReactNode } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { useMonthlySummary } from '../../api/summaries/get-monthly-summary.ts';
import { summaryArchiveUrl, summaryPdfUrl } from '../../api/summaries/summary-downloads.ts';
import { DataTable, QueryStates } from '../../components/table-states.tsx';
import { paths } from '../../config/paths.ts';

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/*
 * Printing: the portal's chrome (top bar, navigation, this page's buttons) is left out, the page
 * uses the paper's whole width, pages break between sections (not inside one that fits on a
 * page: a page per section would print a summary of a quiet month on five sheets), a table row is
 * never split and its heading repeats, and cells wrap rather than run past the page's edge. The
 * same page fits A4 (210 mm) and Letter (8.5 in) at 100 %: nothing in it has a fixed width.
 */
const printStyles = (
  <GlobalStyles
    styles={{
      '@page': { margin: '12mm' },
      '@media print': {
        'body > #root header, body > #root nav, .summary-no-print, a[href="#main-content"]': {
          display: 'none !important',
        },
        '#main-content > .MuiContainer-root': { maxWidth: 'none !important', padding: '0 !important' },
        // Pages break between sections: a section that fits on a page is kept whole, a longer one
        // breaks between table rows; a heading never ends a page.
        '.summary-section': { breakInside: 'avoid' },
        '.summary-section h2': { breakAfter: 'avoid' },
        '.summary-section .MuiTableContainer-root': { overflow: 'visible !important', boxShadow: 'none' },
        '.summary-section table': { tableLayout: 'auto', width: '100%' },
        '.summary-section th, .summary-section td': { overflowWrap: 'break-word', padding: '2px 6px !important', fontSize: '9pt' },
        // Free text may hold a word longer than the page is wide: only there may a word break anywhere.
        '.summary-section td.summary-free-text': { overflowWrap: 'anywhere' },
        '.summary-section tr': { breakInside: 'avoid' },
        '.summary-section thead': { display: 'table-header-group' },
      },
    }}
  />
);

const reasonLabel = (reason: string | null) =>
  reason === null ? SummaryTexts.resolvedWithoutReason : (AlertTexts.reasons[reason as ResolutionReason] ?? reason);
const activityLabel = (a: string | null) => (a === null ? '' : (TrackingActivityLabels[a as TrackingActivity] ?? a));
const contactLabel = (interactive: boolean, c: string | null) =>
  !interactive || c === null ? SummaryTexts.noContact : (ContactTypeLabels[c as ContactType] ?? c);

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Box component="section" className="summary-section" aria-labelledby={id}>
      <Typography id={id} variant="h6" component="h2" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

const Empty = ({ text }: { text: string }) => <Typography color="text.secondary">{text}</Typography>;

function Readings({ s }: { s: MonthlySummary }) {
  if (s.kinds.length === 0) return <Empty text={SummaryTexts.noReadings} />;
  return (
    <>
      <DataTable
        label={SummaryTexts.readings}
        columns={[
          SummaryTexts.kind,
          SummaryTexts.component,
          { label: SummaryTexts.count, align: 'right' },
          { label: SummaryTexts.mean, align: 'right' },
          { label: SummaryTexts.min, align: 'right' },
          { label: SummaryTexts.max, align: 'right' },
          { label: SummaryTexts.daysMeasured, align: 'right' },
          { label: SummaryTexts.inTarget, align: 'right' },
        ]}
      >
        {s.kinds.flatMap((k) =>
          k.components.map((c, i) => (
            <TableRow key={`${k.kind}-${c.code}`}>
              <TableCell component={i === 0 ? 'th' : 'td'} scope="row" sx={{ fontWeight: i === 0 ? 600 : undefined }}>
                {i === 0 ? k.label : ''}
              </TableCell>
              <TableCell>
                {c.label} ({c.unit})
              </TableCell>
              <TableCell align="right">{c.count}</TableCell>
              <TableCell align="right">{summaryFigure(c.mean, c.decimals)}</TableCell>
              <TableCell align="right">{summaryFigure(c.min, c.decimals)}</TableCell>
              <TableCell align="right">{summaryFigure(c.max, c.decimals)}</TableCell>
              <TableCell align="right">{i === 0 ? k.days_measured : ''}</TableCell>
              <TableCell align="right">{i === 0 ? summaryShare(k.in_target_share) : ''}</TableCell>
            </TableRow>
          )),
        )}
      </DataTable>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
        {SummaryTexts.inTargetHelp}
      </Typography>
    </>
  );
}

function Alerts({ s }: { s: MonthlySummary }) {
  if (s.alerts.raised === 0) return <Empty text={SummaryTexts.noAlerts} />;
  return (
    <DataTable label={SummaryTexts.alerts} columns={[SummaryTexts.alerts, { label: SummaryTexts.alertsCount, align: 'right' }]}>
      <TableRow>
        <TableCell>{SummaryTexts.alertsRaised}</TableCell>
        <TableCell align="right">{s.alerts.raised}</TableCell>
      </TableRow>
      {s.alerts.resolved.map((r) => (
        <TableRow key={r.reason ?? 'none'}>
          <TableCell>
            {SummaryTexts.alertsResolvedAs}: {reasonLabel(r.reason)}
          </TableCell>
          <TableCell align="right">{r.count}</TableCell>
        </TableRow>
      ))}
      <TableRow>
        <TableCell>{SummaryTexts.alertsOpen}</TableCell>
        <TableCell align="right">{s.alerts.open}</TableCell>
      </TableRow>
    </DataTable>
  );
}

function Time({ s }: { s: MonthlySummary }) {
  return (
    <>
      <Typography sx={{ mb: 1 }}>
        {SummaryTexts.minutes}: {s.tracking.minutes} · {SummaryTexts.liveContacts}: {s.tracking.live_contacts}
      </Typography>
      {s.tracking.entries.length === 0 ? (
        <Empty text={SummaryTexts.noTime} />
      ) : (
        <DataTable
          label={SummaryTexts.time}
          columns={[SummaryTexts.noteDate, { label: SummaryTexts.minutes, align: 'right' }, SummaryTexts.activity, SummaryTexts.contact]}
        >
          {s.tracking.entries.map((e, i) => (
            <TableRow key={i}>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{e.date}</TableCell>
              <TableCell align="right">{e.minutes}</TableCell>
              <TableCell>{activityLabel(e.activity)}</TableCell>
              <TableCell>{contactLabel(e.interactive, e.contact_type)}</TableCell>
            </TableRow>
          ))}
        </DataTable>
      )}
    </>
  );
}

function Codes({ s }: { s: MonthlySummary }) {
  if (s.codes.length === 0) return <Empty text={SummaryTexts.noCodes} />;
  return (
    <DataTable
      label={SummaryTexts.codes}
      columns={[SummaryTexts.code, { label: SummaryTexts.units, align: 'right' }, SummaryTexts.servicePeriod]}
    >
      {s.codes.map((c) => (
        <TableRow key={`${c.code}-${c.period_start}`}>
          <TableCell>{c.code}</TableCell>
          <TableCell align="right">{c.units}</TableCell>
          <TableCell>
            {c.period_start} – {c.period_end}
          </TableCell>
        </TableRow>
      ))}
    </DataTable>
  );
}

function Notes({ s }: { s: MonthlySummary }) {
  if (s.notes.length === 0) return <Empty text={SummaryTexts.noNotes} />;
  return (
    <DataTable label={SummaryTexts.notes} columns={[SummaryTexts.noteDate, SummaryTexts.noteAuthor, SummaryTexts.noteText]}>
      {s.notes.map((n, i) => (
        <TableRow key={i}>
          <TableCell sx={{ whiteSpace: 'nowrap' }}>{n.date}</TableCell>
          <TableCell>{n.author ?? SummaryTexts.unknownAuthor}</TableCell>
          <TableCell className="summary-free-text" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {n.text}
          </TableCell>
        </TableRow>
      ))}
    </DataTable>
  );
}

export function SummaryView({ s }: { s: MonthlySummary }) {
  return (
    <Stack spacing={3}>
      <Box>
        <Typography variant="h4" component="h1">
          {SummaryTexts.title}: {summaryMonthLabel(s.month)}
        </Typography>
        <Box
          component="dl"
          sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.5, m: 0, mt: 1 }}
        >
          {(
            [
              [SummaryTexts.patient, s.patient.name],
              [SummaryTexts.dateOfBirth, s.patient.date_of_birth ?? SummaryTexts.noContact],
              [SummaryTexts.organization, s.organization.name],
              [SummaryTexts.timeZone, s.time_zone],
              [SummaryTexts.programs, s.programs.length ? s.programs.map((p) => p.label).join(', ') : SummaryTexts.noPrograms],
            ] as const
          ).map(([term, value]) => (
            <Box key={term} sx={{ display: 'contents' }}>
              <Typography component="dt" sx={{ fontWeight: 600 }}>
                {term}
              </Typography>
              <Typography component="dd" sx={{ m: 0 }}>
                {value}
              </Typography>
            </Box>
          ))}
        </Box>
        {!s.complete && (
          <Alert severity="info" sx={{ mt: 2 }}>
            {SummaryTexts.incomplete}
          </Alert>
        )}
      </Box>
      <Section id="summary-readings" title={SummaryTexts.readings}>
        <Readings s={s} />
      </Section>
      <Section id="summary-alerts" title={SummaryTexts.alerts}>
        <Alerts s={s} />
      </Section>
      <Section id="summary-time" title={SummaryTexts.time}>
        <Time s={s} />
      </Section>
      <Section id="summary-codes" title={SummaryTexts.codes}>
        <Codes s={s} />
      </Section>
      <Section id="summary-notes" title={SummaryTexts.notes}>
        <Notes s={s} />
      </Section>
    </Stack>
  );
}

/** /patients/:id/summary/:month — the printable monthly summary for the patient's physician. */
export default function SummaryPage() {
  const params = useParams();
  const id = Number(params.id);
  const month = params.month ?? '';
  const valid = Number.isInteger(id) && id > 0 && MONTH.test(month);
  const summary = useMonthlySummary(valid ? id : 0, month, valid);

  if (!valid) return <Alert severity="error">{SummaryTexts.loadFailed}</Alert>;
  return (
    <Box>
      {printStyles}
      <Stack
        className="summary-no-print"
        direction="row"
        sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1, mb: 2 }}
      >
        <Button component={RouterLink} to={paths.patient(id)}>
          {SummaryTexts.patient}
        </Button>
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
          <Button component={RouterLink} to={summaryPagePath(id, shiftMonth(month, -1))}>
            {SummaryTexts.previousMonth}
          </Button>
          <Button component={RouterLink} to={summaryPagePath(id, shiftMonth(month, 1))}>
            {SummaryTexts.nextMonth}
          </Button>
          <Button variant="contained" component="a" href={summaryPdfUrl(id, month)} download>
            {SummaryTexts.downloadPdf}
          </Button>
          <Button variant="outlined" component="a" href={summaryPdfUrl(id, month, 'letter')} download>
            {SummaryTexts.downloadLetter}
          </Button>
          <Button variant="outlined" component="a" href={summaryArchiveUrl(month)} download>
            {SummaryTexts.downloadArchive}
          </Button>
          <Button variant="outlined" onClick={() => window.print()}>
            {SummaryTexts.print}
          </Button>
        </Stack>
      </Stack>
      <QueryStates query={summary} errorFallback={SummaryTexts.loadFailed}>
        {(s) => <SummaryView s={s} />}
      </QueryStates>
    </Box>
  );
}
