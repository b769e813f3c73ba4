import { Box, Button, Divider, Paper, Stack, Typography } from '@mui/material';
import { Labels, PatientTexts, type Insurance, type PatientDetail } from '@rpm/contracts';
import { lazy, Suspense, useDeferredValue } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { paths } from '../../config/paths.ts';
import { LoadingState } from '../../components/loading-state.tsx';
import { PatientAlerts } from '../../components/patient-alerts.tsx';
import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns';
import { useTimezone } from '../../lib/timezone.ts';
import { usePatient } from '../../api/patients/get-patient.ts';
import { ageOn, fullName, statusText } from './format.ts';
import { PatientBadLink, PatientLoadProblem, patientIdFrom } from './patient-problem.tsx';
import { VitalsSection } from './vitals-section.tsx';
import { PATIENT_ALERTS_PAGE, useAlerts } from '../../api/alerts/list-alerts.ts';
import { usePatientThresholds } from '../../api/alerts/patient-thresholds.ts';
import { PatientPrograms } from './patient-programs.tsx';
import { CareTimerSlot } from './care-timer/care-timer-slot.tsx';
import { AlertActions } from './alert-actions.tsx';
import { loadEarly } from '../../lib/load-early.ts';
import { AfterFirstScreen } from './after-first-screen.tsx';

// This month's progress (its bars) with the summary links, and below the demographics the notes,
// tracking time, outreach and the other kinds' panels load in one chunk of their own (see
// vite.config.ts): the page opens on alerts and readings, and these keep its first load near its
// budget. That chunk is asked for as this module runs, beside the page's data: asked for when
// each section first rendered, it came in waves after the first screen, each one more render.
const BillingProgress = lazy(loadEarly(() => import('./billing-progress.tsx')));
const SummaryLinks = lazy(
  loadEarly(() => import('../../components/summary-links.tsx').then((m) => ({ default: m.SummaryLinks }))),
);
const NotesSection = lazy(loadEarly(() => import('./notes-section.tsx').then((m) => ({ default: m.NotesSection }))));
const TrackingSection = lazy(
  loadEarly(() => import('./tracking-section.tsx').then((m) => ({ default: m.TrackingSection }))),
);
const OutreachSection = lazy(
  loadEarly(() => import('./outreach-section.tsx').then((m) => ({ default: m.OutreachSection }))),
);
const MeasurementPanels = lazy(
  loadEarly(() => import('./measurement-panels.tsx').then((m) => ({ default: m.MeasurementPanels }))),
);

/**
 * /patients/:id, opening on what needs attention: open alerts with their actions, the latest
 * readings and this month's progress; then the patient's details, insurance, the other kinds'
 * readings, notes, tracking time and outreach.
 */
export default function PatientDetailPage() {
  const id = patientIdFrom(useParams().id);
  if (id === null) return <PatientBadLink />;
  return <PatientRecord id={id} />;
}

function PatientRecord({ id }: { id: number }) {
  const patient = usePatient(id, true);
  // The alerts section sits above the readings: drawn before its data, it grew when the data came
  // and pushed the readings down (Lighthouse counted a layout shift of 0.6 on a phone). The page
  // waits for it as it waits for the details (the same queries the section reads, asked for once).
  const alerts = useAlerts({ patient_id: id, status: 'open', ...PATIENT_ALERTS_PAGE });
  const acknowledged = useAlerts({ patient_id: id, status: 'acknowledged', ...PATIENT_ALERTS_PAGE });
  const thresholds = usePatientThresholds(id);
  const { timezone } = useTimezone();

  const pending = patient.isPending || alerts.isPending || acknowledged.isPending || thresholds.isPending;
  // The data's arrival is an urgent update (the query cache is an external store), which React
  // renders in one task it cannot interrupt: on a phone the whole first screen, its alerts, timer
  // and readings table, blocked the page for about 190 ms. Deferred, the spinner stays for that
  // render and React draws the first screen in slices between which the page answers input.
  const loading = useDeferredValue(pending);
  if (pending || loading) {
    return <LoadingState />;
  }
  if (patient.isError) return <PatientLoadProblem error={patient.error} />;
  const p = patient.data;
  // Age as of today where the user works.
  const age = ageOn(p.date_of_birth, format(new TZDate(Date.now(), timezone), 'yyyy-MM-dd'));

  return (
    <Stack spacing={3}>
      <Stack direction="row" useFlexGap sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1 }}>
        <Box>
          <Typography variant="h4" component="h1">
            {fullName(p)}
          </Typography>
          {/* Under the name: after a launch from the EHR, the identifier the two records share confirms the match. */}
          {p.mrn && (
            <Typography color="text.secondary" data-testid="patient-mrn">
              {`${PatientTexts.mrn} ${p.mrn}`}
            </Typography>
          )}
        </Box>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Button variant="outlined" component={RouterLink} to={paths.patientEdit(p.id)}>
            {Labels.edit}
          </Button>
        </Stack>
      </Stack>
      <CareTimerSlot patientId={p.id} organizationId={p.organization_id} />
      {/* Drawn with the details (its data is asked for with theirs): a section loaded on its own
          was revealed late, React batching the reveals of lazy content. */}
      <PatientAlerts patientId={p.id} actions={(a) => <AlertActions alert={a} />} />
      <Divider />
      <VitalsSection patientId={p.id} />
      <AfterFirstScreen>
        <RecordBelowFirstScreen patient={p} age={age} />
      </AfterFirstScreen>
    </Stack>
  );
}

/** This month's progress, the details, insurance, the other kinds' panels, notes, tracking and outreach. */
function RecordBelowFirstScreen({ patient: p, age }: { patient: PatientDetail; age: number | null }) {
  return (
    <>
      <Suspense fallback={<LoadingState py={2} size={24} />}>
        <BillingProgress patientId={p.id} />
        <SummaryLinks patientId={p.id} />
      </Suspense>
      <Divider />
      <Box component="section" aria-labelledby="details-heading">
        <Typography id="details-heading" variant="h6" component="h2" sx={{ mb: 1 }}>
          {PatientTexts.details}
        </Typography>
        <Paper variant="outlined" sx={{ p: 2 }}>
          <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 3, rowGap: 1, m: 0 }}>
            <Field term={PatientTexts.dateOfBirth} value={p.date_of_birth ?? Labels.notAvailable} />
            <Field term={PatientTexts.age} value={age === null ? Labels.notAvailable : `${age} ${PatientTexts.years}`} />
            <Field term={PatientTexts.gender} value={p.gender ? PatientTexts[`gender_${p.gender}`] : Labels.notAvailable} />
            <Field term={PatientTexts.status} value={statusText(p.enrollment_status)} />
            {p.enrollment_status_legacy && <Field term={PatientTexts.previousStatus} value={p.enrollment_status_legacy} />}
            <Field term={Labels.enrollInRpm} value={p.enrolled_rpm ? PatientTexts.yes : PatientTexts.no} />
            <Field term={PatientTexts.provider} value={p.primary_provider_name ?? Labels.notAvailable} />
            <Field term={PatientTexts.orderingProvider} value={p.ordering_provider_name ?? Labels.notAvailable} />
            <Field term={PatientTexts.consentDate} value={p.consent_date ?? Labels.notAvailable} />
            <Field
              term={PatientTexts.diagnosisCodes}
              value={p.diagnosis_codes.length ? p.diagnosis_codes.join(', ') : PatientTexts.noDiagnosisCodes}
            />
            <Field term={PatientTexts.organization} value={p.organization_name ?? Labels.notAvailable} />
            <Field
              term={PatientTexts.assignedDevices}
              value={
                p.devices.length
                  ? p.devices.map((d) => [d.device_id, d.model].filter(Boolean).join(' · ')).join(', ')
                  : PatientTexts.noDevices
              }
            />
          </Box>
        </Paper>
      </Box>
      <PatientPrograms patientId={p.id} />
      <Box component="section" aria-labelledby="insurance-heading">
        <Typography id="insurance-heading" variant="h6" component="h2" sx={{ mb: 1 }}>
          {PatientTexts.insurance}
        </Typography>
        {p.insurances.length === 0 ? (
          <Typography color="text.secondary">{PatientTexts.noInsurance}</Typography>
        ) : (
          <Stack spacing={1}>
            {p.insurances.map((i) => (
              <InsuranceCard key={i.id} insurance={i} />
            ))}
          </Stack>
        )}
      </Box>
      <Divider />
      <Suspense fallback={<LoadingState />}>
        <MeasurementPanels patientId={p.id} organizationId={p.organization_id} />
      </Suspense>
      <Divider />
      <Suspense fallback={<LoadingState py={2} size={24} />}>
        <NotesSection patientId={p.id} />
        <Divider />
        <TrackingSection patientId={p.id} />
        <Divider />
        <OutreachSection patientId={p.id} />
      </Suspense>
    </>
  );
}

function Field({ term, value }: { term: string; value: string }) {
  return (
    <>
      <Typography component="dt" sx={{ fontWeight: 600 }}>
        {term}
      </Typography>
      <Typography component="dd" sx={{ m: 0 }}>
        {value}
      </Typography>
    </>
  );
}

function InsuranceCard({ insurance: i }: { insurance: Insurance }) {
  return (
    <Paper variant="outlined" sx={{ p: 1.5 }} data-testid="insurance-card">
      <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 3, rowGap: 0.5, m: 0 }}>
        <Field term={PatientTexts.type} value={i.type} />
        <Field term={PatientTexts.insuranceProvider} value={i.provider_name ?? Labels.notAvailable} />
        <Field term={PatientTexts.policyNumber} value={i.policy_number ?? Labels.notAvailable} />
        {i.type === 'Private' && (
          <>
            <Field term={PatientTexts.policyholder} value={i.policyholder ?? Labels.notAvailable} />
            <Field term={PatientTexts.policyholderBirthdate} value={i.policyholder_birthdate ?? Labels.notAvailable} />
          </>
        )}
      </Box>
    </Paper>
  );
}
