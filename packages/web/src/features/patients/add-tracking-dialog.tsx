import { Box, Stack, TextField, Typography } from '@mui/material';
import {
  BillingTexts,
  CONTACT_TYPES,
  CareTimerTexts,
  ContactTypeLabels,
  Labels,
  PatientTexts,
  TRACKING_MAX_MINUTES,
  TRACKING_MIN_MINUTES,
  TRACKING_ACTIVITIES,
  TRACKING_ADJUSTMENT_REASON_MAX,
  TRACKING_MINUTES_DEFAULT,
  TrackingActivityLabels,
  TrackingErrors,
  TrackingEntryInput,
  UxTexts,
  anyText,
  formRule,
  formSchema,
  hasText,
  raiseNeedsReason,
  requiredText,
  wholeNumberText,
  type ContactType,
  type FormValues,
  type TrackingActivity,
} from '@rpm/contracts';
import { format } from 'date-fns';
import { TZDate } from '@date-fns/tz';
import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import { useSnackbar } from '../../lib/toast/toast.ts';
import { inputProps, textFieldProps } from '../../components/form/text-field-props.ts';
import { useSchemaForm } from '../../components/form/use-schema-form.ts';
import { errorMessage } from '../../api/errors.ts';
import { useTimezone } from '../../lib/timezone.ts';
import { useAddTrackingEntry } from '../../api/tracking/add-tracking-entry.ts';
import { SaveDialog } from './save-dialog.tsx';

const TrackingFields = formSchema({
  date: requiredText(UxTexts.trackingDateRequired),
  duration_minutes: wholeNumberText(TrackingEntryInput.properties.duration_minutes, UxTexts.trackingMinutesRange),
  notes: anyText(),
  /** '' or one of TRACKING_ACTIVITIES. */
  activity: anyText(),
  /** '' or one of CONTACT_TYPES (sent only with a live contact). */
  contact_type: anyText(),
  /** What the care timer measured ('' for time typed in by hand); not an input. */
  measured_minutes: anyText(),
  adjustment_reason: anyText(),
});
type TrackingValues = FormValues<typeof TrackingFields>;

/** Claiming more than the timer measured needs a reason: the server's rule, checked first here. */
const TrackingForm = formRule(
  TrackingFields,
  'adjustment_reason',
  (v: TrackingValues) => !raiseNeedsReason(Number(v.duration_minutes), measuredOf(v), v.adjustment_reason),
  TrackingErrors.adjustmentReasonRequired,
);

const measuredOf = (v: Pick<TrackingValues, 'measured_minutes'>) => (v.measured_minutes === '' ? null : Number(v.measured_minutes));

/** Time the care timer measured, to be logged: its minutes and the day it was counted on. */
export interface TimedCare {
  measuredMinutes: number;
  date: string;
}

/**
 * Adds a tracking entry: date, minutes, notes, what the time was spent on and whether it included
 * a live contact (and which). From the care timer (`timed`), it opens with the measured minutes:
 * they may be lowered, raised only with a reason. A failed save keeps everything typed.
 */
export default function AddTrackingDialog({
  patientId,
  onClose,
  timed,
  onSaved,
}: {
  patientId: number;
  onClose: () => void;
  timed?: TimedCare;
  /** After a successful save, before the dialog closes. */
  onSaved?: () => void;
}) {
  const { timezone } = useTimezone();
  // "Today" is today in the zone the user works in.
  const [initial] = useState<TrackingValues>(() => ({
    date: timed?.date ?? format(new TZDate(Date.now(), timezone), 'yyyy-MM-dd'),
    duration_minutes: String(timed?.measuredMinutes ?? TRACKING_MINUTES_DEFAULT),
    notes: '',
    activity: '',
    contact_type: '',
    measured_minutes: timed ? String(timed.measuredMinutes) : '',
    adjustment_reason: '',
  }));
  const form = useSchemaForm<TrackingValues>(TrackingForm, { defaultValues: initial });
  const [date, minutes, notes, activity, reason] = useWatch({
    control: form.control,
    name: ['date', 'duration_minutes', 'notes', 'activity', 'adjustment_reason'],
  });
  // Marks the entry as a live call or video with the patient (billing needs one a month).
  const [interactive, setInteractive] = useState(false);
  const add = useAddTrackingEntry(patientId);
  const { enqueueSnackbar } = useSnackbar();
  const raised = timed !== undefined && Number(minutes) > timed.measuredMinutes;

  // Save is never silently greyed out: a click on it says what still needs fixing.
  const handleSave = form.handleSubmit(async (values) => {
    try {
      const duration = Number(values.duration_minutes);
      const measured = measuredOf(values);
      await add.mutateAsync({
        date: values.date,
        duration_minutes: duration,
        notes: hasText(values.notes) ? values.notes : null,
        interactive,
        activity: values.activity === '' ? null : (values.activity as TrackingActivity),
        contact_type: interactive && values.contact_type !== '' ? (values.contact_type as ContactType) : null,
        ...(measured === null ? {} : { measured_minutes: measured }),
        ...(measured !== null && duration > measured ? { adjustment_reason: values.adjustment_reason.trim() } : {}),
      });
      enqueueSnackbar(PatientTexts.trackingAdded, { variant: 'success' });
      onSaved?.();
      onClose();
    } catch (err) {
      enqueueSnackbar(errorMessage(err, PatientTexts.trackingFailed), { variant: 'error' });
    }
  });

  return (
    <SaveDialog
      title={timed ? CareTimerTexts.logTitle : Labels.addTrackingTime}
      onClose={onClose}
      onSave={handleSave}
      saveDisabled={add.isPending}
      dirty={
        hasText(notes) ||
        hasText(reason) ||
        activity !== '' ||
        minutes !== initial.duration_minutes ||
        date !== initial.date ||
        interactive
      }
      discardTitle={UxTexts.discardTrackingTitle}
    >
      <Stack spacing={1} sx={{ mt: 1 }}>
        <TextField
          type="date"
          label={PatientTexts.date}
          slotProps={{ inputLabel: { shrink: true } }}
          {...textFieldProps(form, 'date')}
        />
        {timed && (
          <Typography variant="body2" color="text.secondary">
            {CareTimerTexts.measuredHelp(timed.measuredMinutes)}
          </Typography>
        )}
        <TextField
          type="number"
          label={PatientTexts.minutes}
          slotProps={{ htmlInput: { min: TRACKING_MIN_MINUTES, max: TRACKING_MAX_MINUTES, step: 1 } }}
          {...textFieldProps(form, 'duration_minutes')}
        />
        {raised && (
          <TextField
            label={CareTimerTexts.adjustmentReason}
            required
            multiline
            minRows={2}
            slotProps={{ htmlInput: { maxLength: TRACKING_ADJUSTMENT_REASON_MAX } }}
            {...textFieldProps(form, 'adjustment_reason')}
          />
        )}
        <TextField
          select
          label={CareTimerTexts.activity}
          slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
          {...inputProps(form, 'activity')}
        >
          <option value="">{CareTimerTexts.activityNone}</option>
          {TRACKING_ACTIVITIES.map((a) => (
            <option key={a} value={a}>
              {TrackingActivityLabels[a]}
            </option>
          ))}
        </TextField>
        <TextField label={PatientTexts.notes} multiline minRows={2} {...inputProps(form, 'notes')} />
        {/* A native checkbox: MUI's would add its own code to the patient page's first load. */}
        <Box component="label" sx={{ display: 'flex', alignItems: 'center', gap: 1.5, py: 1, cursor: 'pointer' }}>
          <Box
            component="input"
            type="checkbox"
            checked={interactive}
            onChange={(e: React.ChangeEvent<HTMLInputElement>) => setInteractive(e.target.checked)}
            sx={{ width: 18, height: 18, m: 0, accentColor: (t) => t.palette.primary.main }}
          />
          <Typography>{BillingTexts.interactiveCheckbox}</Typography>
        </Box>
        {interactive && (
          <TextField
            select
            label={CareTimerTexts.contactType}
            slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
            {...inputProps(form, 'contact_type')}
          >
            <option value="">{CareTimerTexts.activityNone}</option>
            {CONTACT_TYPES.map((c) => (
              <option key={c} value={c}>
                {ContactTypeLabels[c]}
              </option>
            ))}
          </TextField>
        )}
      </Stack>
    </SaveDialog>
  );
}
