import { Button, LinearProgress, Stack, Typography } from '@mui/material';
import { BillingTexts, DEVICE_DAYS_FULL, MANAGEMENT_MINUTES_FULL } from '@rpm/contracts';
import { Link as RouterLink } from 'react-router';
import { usePatientBilling } from '../../api/billing/get-patient-billing.ts';
import { paths } from '../../config/paths.ts';
import { QueryStates } from '../../components/table-states.tsx';
import { PatientSection } from './paged-section.tsx';

const percent = (value: number, of: number) => Math.min(100, Math.round((value / of) * 100));

/**
 * This month's progress towards the RPM codes, and the way to its printable evidence. Part of what
 * the patient page opens on (after the alerts and the latest readings); a default export for
 * React.lazy, so its code comes in a chunk of its own.
 */
export default function BillingProgress({ patientId }: { patientId: number }) {
  const billing = usePatientBilling(patientId);
  return (
    <PatientSection
      headingId="billing-progress-heading"
      title={BillingTexts.progressTitle}
      action={
        <Button variant="outlined" component={RouterLink} to={paths.billingEvidence(patientId)}>
          {BillingTexts.evidenceLink}
        </Button>
      }
    >
      {/* Nothing while loading: the bars fill in once the answer arrives. */}
      <QueryStates query={billing} errorFallback={BillingTexts.failedToLoad} loading={null}>
        {({ row }) => (
          <Stack spacing={1} data-testid="billing-progress">
            <Typography>{BillingTexts.progressDeviceDays(row.device_days)}</Typography>
            <LinearProgress variant="determinate" value={percent(row.device_days, DEVICE_DAYS_FULL)} aria-hidden />
            <Typography>{BillingTexts.progressMinutes(row.minutes)}</Typography>
            <LinearProgress variant="determinate" value={percent(row.minutes, MANAGEMENT_MINUTES_FULL)} aria-hidden />
            <Typography>{BillingTexts.progressInteractive(row.interactive)}</Typography>
            {row.missing.length > 0 && (
              <Typography color="text.secondary">
                {BillingTexts.missing}: {row.missing.join('; ')}
              </Typography>
            )}
          </Stack>
        )}
      </QueryStates>
    </PatientSection>
  );
}
