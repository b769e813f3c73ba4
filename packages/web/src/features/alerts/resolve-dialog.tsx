import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField } from '@mui/material';
import { ALERT_RESOLVE_MAX_MINUTES, AlertTexts, type Alert } from '@rpm/contracts';
import { useSnackbar } from '../../lib/toast/toast.ts';
import { useForm } from 'react-hook-form';
import { useResolveAlert } from '../../api/alerts/resolve-alert.ts';
import { errorMessage } from '../../api/errors.ts';

interface ResolveForm {
  note: string;
  minutes: string;
}

/** Resolve with a note (added to the patient's clinical notes) and optional minutes (a tracking entry). */
export function ResolveDialog({ alert, onClose }: { alert: Alert; onClose: () => void }) {
  const { enqueueSnackbar } = useSnackbar();
  const resolve = useResolveAlert();
  const { register, handleSubmit, formState } = useForm<ResolveForm>({ mode: 'onBlur', defaultValues: { note: '', minutes: '' } });
  const submit = handleSubmit((v) =>
    resolve.mutate(
      { id: alert.id, body: { note: v.note, ...(v.minutes.trim() ? { minutes: Number(v.minutes) } : {}) } },
      {
        onSuccess: () => {
          enqueueSnackbar(AlertTexts.resolved, { variant: 'success' });
          onClose();
        },
        onError: (err) => enqueueSnackbar(errorMessage(err, AlertTexts.resolveTitle), { variant: 'error' }),
      },
    ),
  );
  return (
    <Dialog open onClose={onClose} aria-labelledby="resolve-alert-title" fullWidth maxWidth="sm">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="resolve-alert-title">
          {AlertTexts.resolveTitle}: {alert.patient_name}, {AlertTexts.rules[alert.rule]}
        </DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ mt: 1 }}>
            <TextField
              label={AlertTexts.resolveNote}
              multiline
              minRows={3}
              autoFocus
              {...register('note', { validate: (v) => v.trim() !== '' || AlertTexts.resolveNoteRequired })}
              error={!!formState.errors.note}
              helperText={formState.errors.note?.message}
            />
            <TextField
              label={AlertTexts.resolveMinutes}
              inputMode="numeric"
              {...register('minutes', {
                validate: (v) => {
                  if (v.trim() === '') return true;
                  const n = Number(v);
                  return (Number.isInteger(n) && n >= 1 && n <= ALERT_RESOLVE_MAX_MINUTES) || AlertTexts.resolveMinutesRange;
                },
              })}
              error={!!formState.errors.minutes}
              helperText={formState.errors.minutes?.message}
            />
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
