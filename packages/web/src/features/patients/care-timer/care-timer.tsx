import { Alert, Box, Button, Paper, Stack, Typography } from '@mui/material';
import { CareTimerTexts, measuredMinutes } from '@rpm/contracts';
import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns';
import { Suspense, useState } from 'react';
import { useOrganizations } from '../../../api/organizations/get-organizations.ts';
import { useTimezone } from '../../../lib/timezone.ts';
import { useSnackbar } from '../../../lib/toast/toast.ts';
import { DialogLoading, lazyDialog } from '../paged-section.tsx';
import type { TimedCare } from '../add-tracking-dialog.tsx';
import { useCareTimer, type CareTimer } from './use-care-timer.ts';

const TrackingDialog = lazyDialog(() => import('../add-tracking-dialog.tsx'));

/** Seen by a screen reader only: the timer's announcements. */
const screenReaderOnly = {
  position: 'absolute',
  // Strings: in sx a bare 1 would mean 100 %.
  width: '1px',
  height: '1px',
  margin: '-1px',
  padding: 0,
  border: 0,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

/** mm:ss (minutes go past 59 rather than adding hours). */
export function formatElapsed(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  return `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
}

function statusText(timer: CareTimer): string {
  if (timer.status === 'running') return CareTimerTexts.running;
  if (timer.status === 'stopped') return CareTimerTexts.notStarted;
  if (timer.reason === 'hidden') return CareTimerTexts.pausedHidden;
  if (timer.reason === 'idle') return CareTimerTexts.pausedIdle;
  return CareTimerTexts.pausedByUser;
}

/**
 * The care timer on a patient's page: mm:ss, Start / Pause / Stop, and an earlier visit's
 * unlogged time (Log or Discard). Stop opens the tracking dialog with the measured minutes; the
 * timer goes back to zero only once the entry is saved (Cancel leaves it paused).
 *
 * It starts by itself for a provider when the organization's timer_start is 'open'; everyone
 * else starts it with a click.
 */
export default function CareTimerPanel({
  userId,
  patientId,
  organizationId,
  isProvider,
}: {
  userId: number;
  patientId: number;
  organizationId: number | null;
  /** Providers' timers start on opening the record when the organization says so. */
  isProvider: boolean;
}) {
  const { timezone } = useTimezone();
  const { enqueueSnackbar } = useSnackbar();
  const organizations = useOrganizations();
  const organization = organizations.data?.find((o) => o.id === organizationId);
  const autoStart = isProvider && organizations.isSuccess && (organization?.timer_start ?? 'open') === 'open';
  const timer = useCareTimer({ userId, patientId, autoStart });
  const [logging, setLogging] = useState<(TimedCare & { from: 'timer' | 'draft' }) | null>(null);
  const dayOf = (ms: number) => format(new TZDate(ms, timezone), 'yyyy-MM-dd');

  const stop = () => {
    const ms = timer.stop();
    setLogging({ from: 'timer', measuredMinutes: measuredMinutes(ms), date: dayOf(Date.now()) });
  };
  const draft = timer.draft;

  return (
    <Paper variant="outlined" sx={{ p: 1.5, position: 'relative' }} role="group" aria-label={CareTimerTexts.title}>
      <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', columnGap: 2, rowGap: 1 }}>
        <Typography component="span" sx={{ fontWeight: 600 }}>
          {CareTimerTexts.title}
        </Typography>
        <Box
          component="span"
          role="timer"
          data-testid="care-timer-elapsed"
          sx={{ fontSize: '1.5rem', fontVariantNumeric: 'tabular-nums', fontWeight: 500 }}
        >
          {formatElapsed(timer.elapsedMs)}
        </Box>
        <Typography component="span" variant="body2" color="text.secondary" data-testid="care-timer-status">
          {statusText(timer)}
        </Typography>
        <Stack direction="row" useFlexGap spacing={1} sx={{ ml: { sm: 'auto' }, flexWrap: 'wrap' }}>
          {timer.status === 'running' ? (
            <Button size="small" variant="outlined" onClick={timer.pause}>
              {CareTimerTexts.pause}
            </Button>
          ) : (
            <Button size="small" variant="outlined" onClick={timer.start} onPointerEnter={TrackingDialog.preload}>
              {CareTimerTexts.start}
            </Button>
          )}
          <Button
            size="small"
            variant="contained"
            onClick={stop}
            disabled={timer.status === 'stopped'}
            onPointerEnter={TrackingDialog.preload}
            onFocus={TrackingDialog.preload}
          >
            {CareTimerTexts.stop}
          </Button>
        </Stack>
      </Stack>
      {/* Only changes of state are announced, never the seconds. */}
      <Box role="status" aria-live="polite" sx={screenReaderOnly}>
        {timer.announcement}
      </Box>
      {draft && (
        <Alert
          severity="info"
          sx={{ mt: 1.5 }}
          action={
            <Stack direction="row" spacing={1}>
              <Button
                size="small"
                color="inherit"
                onClick={() => setLogging({ from: 'draft', measuredMinutes: measuredMinutes(draft.ms), date: dayOf(draft.at) })}
              >
                {CareTimerTexts.draftLog}
              </Button>
              <Button
                size="small"
                color="inherit"
                onClick={() => {
                  timer.discardDraft();
                  enqueueSnackbar(CareTimerTexts.draftDiscarded, { variant: 'info' });
                }}
              >
                {CareTimerTexts.draftDiscard}
              </Button>
            </Stack>
          }
        >
          {CareTimerTexts.draft(measuredMinutes(draft.ms), dayOf(draft.at))}
        </Alert>
      )}
      {logging && (
        <Suspense fallback={<DialogLoading />}>
          <TrackingDialog.Dialog
            patientId={patientId}
            timed={{ measuredMinutes: logging.measuredMinutes, date: logging.date }}
            onSaved={() => (logging.from === 'timer' ? timer.finish() : timer.discardDraft())}
            onClose={() => setLogging(null)}
          />
        </Suspense>
      )}
    </Paper>
  );
}
