import { Button, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, Stack, TextField } from '@mui/material';
import {
  AlertTexts,
  CONTACT_TYPES,
  CareTimerTexts,
  ContactTypeLabels,
  RESOLUTION_REASONS,
  ResolveAlertBody,
  anyText,
  formSchema,
  optionalWholeNumberText,
  requiredText,
  textRule,
  type Alert,
  type ContactType,
  type FormValues,
  type ResolveAlertBody as ResolveBody,
} from '@rpm/contracts';
import { Controller, useWatch } from 'react-hook-form';
import { useResolveAlert } from '../../api/alerts/resolve-alert.ts';
import { errorMessage } from '../../api/errors.ts';
import { controlledFieldProps, textFieldProps } from '../../components/form/text-field-props.ts';
import { useSchemaForm } from '../../components/form/use-schema-form.ts';
import { useSnackbar } from '../../lib/toast/toast.ts';

/** The form's rules are the contract's: a reason of RESOLUTION_REASONS, a note, minutes in range. */
const ResolveForm = formSchema({
  reason: textRule((v) => (RESOLUTION_REASONS as readonly string[]).includes(v), AlertTexts.resolveReasonRequired),
  note: requiredText(AlertTexts.resolveNoteRequired),
  minutes: optionalWholeNumberText(ResolveAlertBody.properties.minutes, AlertTexts.resolveMinutesRange),
  /** '' (none) or one of CONTACT_TYPES: the minutes' live contact, which makes the entry interactive. */
  contact_type: anyText(),
});

/**
 * Resolve with a reason, a note (added to the patient's clinical notes) and optional minutes (a
 * tracking entry), with the live contact they included if any (phone, video, in person).
 */
export function ResolveDialog({
  alert,
  onClose,
  onResolved,
}: {
  alert: Alert;
  onClose: () => void;
  /** After a successful resolve (the dialog has closed): the worklist moves focus on. */
  onResolved?: () => void;
}) {
  const { enqueueSnackbar } = useSnackbar();
  const resolve = useResolveAlert();
  const form = useSchemaForm<FormValues<typeof ResolveForm>>(ResolveForm, {
    defaultValues: { reason: '', note: '', minutes: '', contact_type: '' },
  });
  const minutesGiven = useWatch({ control: form.control, name: 'minutes' }).trim() !== '';
  const submit = form.handleSubmit((v) => {
    const body: ResolveBody = {
      reason: v.reason as ResolveBody['reason'],
      note: v.note,
      ...(v.minutes.trim() ? { minutes: Number(v.minutes) } : {}),
      ...(v.minutes.trim() && v.contact_type ? { contact_type: v.contact_type as ContactType } : {}),
    };
    resolve.mutate(
      { id: alert.id, body },
      {
        onSuccess: () => {
          enqueueSnackbar(AlertTexts.resolved, { variant: 'success' });
          onClose();
          onResolved?.();
        },
        onError: (err) => enqueueSnackbar(errorMessage(err, AlertTexts.resolveTitle), { variant: 'error' }),
      },
    );
  });
  return (
    // The worklist moves focus to the next row itself after a resolve.
    <Dialog
      open
      onClose={onClose}
      aria-labelledby="resolve-alert-title"
      fullWidth
      maxWidth="sm"
      disableRestoreFocus={!!onResolved}
    >
      <form onSubmit={submit} noValidate>
        <DialogTitle id="resolve-alert-title">
          {AlertTexts.resolveTitle}: {alert.patient_name}, {AlertTexts.rules[alert.rule]}
        </DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ mt: 1 }}>
            <Controller
              control={form.control}
              name="reason"
              render={({ field, fieldState }) => (
                <TextField
                  select
                  label={AlertTexts.resolveReason}
                  required
                  autoFocus
                  {...controlledFieldProps(field, fieldState)}
                >
                  {RESOLUTION_REASONS.map((r) => (
                    <MenuItem key={r} value={r}>
                      {AlertTexts.reasons[r]}
                    </MenuItem>
                  ))}
                </TextField>
              )}
            />
            <TextField
              label={AlertTexts.resolveNote}
              required
              multiline
              minRows={3}
              {...textFieldProps(form, 'note')}
            />
            <TextField label={AlertTexts.resolveMinutes} inputMode="numeric" {...textFieldProps(form, 'minutes')} />
            {minutesGiven && (
              <TextField
                select
                label={CareTimerTexts.resolveContact}
                slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
                {...textFieldProps(form, 'contact_type')}
              >
                <option value="">{CareTimerTexts.noContact}</option>
                {CONTACT_TYPES.map((c) => (
                  <option key={c} value={c}>
                    {ContactTypeLabels[c]}
                  </option>
                ))}
              </TextField>
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{AlertTexts.cancel}</Button>
          <Button type="submit" variant="contained" disabled={resolve.isPending}>
            {AlertTexts.resolve}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
