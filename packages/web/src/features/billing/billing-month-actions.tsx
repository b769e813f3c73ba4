import { Box, Button, Typography } from '@mui/material';
import { AdminTexts, BillingPageTexts, BillingTexts, type BillingReport } from '@rpm/contracts';
import { lazy, Suspense, useState } from 'react';
import { useCloseBillingMonth } from '../../api/billing/close-billing-month.ts';
import { useMarkBillingClaimsSent } from '../../api/billing/mark-billing-claims-sent.ts';
import { errorMessage } from '../../api/errors.ts';
import { useOrganizations } from '../../api/organizations/get-organizations.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { LoadingState, QueryStates } from '../../components/table-states.tsx';
import { useSnackbar } from '../../lib/toast/toast.ts';
import { useTimezone } from '../../lib/timezone.ts';
import { monthHasEnded } from './billing-month.ts';

// The reason form (and its form library) loads when an admin opens it.
const ReopenMonthDialog = lazy(() => import('./reopen-month-dialog.tsx'));

type Asking = 'close' | 'reopen' | 'claims' | null;

/**
 * An admin's steps for the report's month: close it once it has ended (the dialog names every
 * organization the close covers), then reopen it with a reason or mark its claims sent; once the
 * claims are sent, nothing more.
 */
export function BillingMonthActions({ report }: { report: BillingReport }) {
  const { month } = report;
  const { timezone } = useTimezone();
  const [asking, setAsking] = useState<Asking>(null);
  const close = useCloseBillingMonth();
  const claims = useMarkBillingClaimsSent();
  const { enqueueSnackbar } = useSnackbar();

  const run = async (action: () => Promise<unknown>, done: string, failed: string) => {
    try {
      await action();
      enqueueSnackbar(done, { variant: 'success' });
    } catch (err) {
      enqueueSnackbar(errorMessage(err, failed), { variant: 'error' });
    } finally {
      setAsking(null);
    }
  };

  const open = !report.closed;
  const reopenable = report.closed && report.claims_sent_at === null;
  return (
    <>
      {open && monthHasEnded(month, timezone) && (
        <Button variant="contained" onClick={() => setAsking('close')}>
          {BillingTexts.closeMonth}
        </Button>
      )}
      {reopenable && (
        <>
          <Button variant="outlined" onClick={() => setAsking('reopen')}>
            {BillingPageTexts.reopenMonth}
          </Button>
          <Button variant="contained" onClick={() => setAsking('claims')}>
            {BillingPageTexts.markClaimsSent}
          </Button>
        </>
      )}
      <ConfirmDialog
        open={asking === 'close'}
        title={BillingTexts.closeMonthTitle}
        body={<CloseMonthBody month={month} />}
        confirmLabel={BillingTexts.closeMonth}
        pending={close.isPending}
        onConfirm={() =>
          void run(() => close.mutateAsync(month), BillingTexts.monthClosedToast, BillingTexts.failedToClose)
        }
        onCancel={() => setAsking(null)}
      />
      <ConfirmDialog
        open={asking === 'claims'}
        title={BillingPageTexts.claimsSentTitle}
        body={`${month}: ${BillingPageTexts.claimsSentBody}`}
        confirmLabel={BillingPageTexts.markClaimsSent}
        pending={claims.isPending}
        onConfirm={() =>
          void run(() => claims.mutateAsync(month), BillingPageTexts.claimsSentToast, BillingPageTexts.failedClaimsSent)
        }
        onCancel={() => setAsking(null)}
      />
      {asking === 'reopen' && (
        <Suspense fallback={null}>
          <ReopenMonthDialog month={month} onClose={() => setAsking(null)} />
        </Suspense>
      )}
    </>
  );
}

/** The close covers the month in every organization: they are named, whatever the filter shows. */
function CloseMonthBody({ month }: { month: string }) {
  const organizations = useOrganizations();
  return (
    <>
      <Typography>{`${month}: ${BillingTexts.closeMonthBody}`}</Typography>
      <Typography sx={{ mt: 2 }}>{BillingPageTexts.closeMonthCovers}</Typography>
      <QueryStates
        query={organizations}
        errorFallback={AdminTexts.failedToLoadOrganizations}
        loading={<LoadingState py={1} size={24} />}
      >
        {(list) => (
          <Box component="ul" aria-label={BillingTexts.allOrganizations} sx={{ my: 1, pl: 3 }}>
            {list.map((o) => (
              <li key={o.id}>{o.name}</li>
            ))}
          </Box>
        )}
      </QueryStates>
    </>
  );
}
