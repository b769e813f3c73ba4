import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  TextField,
} from '@mui/material';
import {
  BILLING_REOPEN_REASON_MAX,
  BillingPageTexts,
  formSchema,
  hasText,
  Labels,
  textRule,
  type FormValues,
} from '@rpm/contracts';
import { useId, useState } from 'react';
import { useReopenBillingMonth } from '../../api/billing/reopen-billing-month.ts';
import { errorMessage } from '../../api/errors.ts';
import { textFieldProps } from '../../components/form/text-field-props.ts';
import { useSchemaForm } from '../../components/form/use-schema-form.ts';
import { useSnackbar } from '../../lib/toast/toast.ts';

// The contract's BillingReopenBody: some text, at most BILLING_REOPEN_REASON_MAX characters.
const ReopenForm = formSchema({
  reason: textRule(
    (value) => hasText(value) && value.trim().length <= BILLING_REOPEN_REASON_MAX,
    BillingPageTexts.reopenReasonRequired,
  ),
});

/**
 * Reopening a closed month asks why; the reason goes with the request and is kept. The server's
 * refusal (not closed, claims already sent) is shown in the dialog, which stays open.
 */
export default function ReopenMonthDialog({ month, onClose }: { month: string; onClose: () => void }) {
  const form = useSchemaForm<FormValues<typeof ReopenForm>>(ReopenForm, { defaultValues: { reason: '' } });
  const reopen = useReopenBillingMonth();
  const [refusal, setRefusal] = useState<string | null>(null);
  const { enqueueSnackbar } = useSnackbar();
  const titleId = useId();

  const handleSubmit = form.handleSubmit(async ({ reason }) => {
    setRefusal(null);
    try {
      await reopen.mutateAsync({ month, body: { reason: reason.trim() } });
      enqueueSnackbar(BillingPageTexts.reopenedToast, { variant: 'success' });
      onClose();
    } catch (err) {
      setRefusal(errorMessage(err, BillingPageTexts.failedToReopen));
    }
  });

  return (
    <Dialog open onClose={reopen.isPending ? undefined : onClose} fullWidth maxWidth="sm" aria-labelledby={titleId}>
      <form noValidate onSubmit={(e) => void handleSubmit(e)}>
        <DialogTitle id={titleId}>{BillingPageTexts.reopenTitle}</DialogTitle>
        <DialogContent>
          <DialogContentText>{`${month}: ${BillingPageTexts.reopenBody}`}</DialogContentText>
          {refusal && (
            <Alert severity="error" sx={{ mt: 2 }}>
              {refusal}
            </Alert>
          )}
          <TextField
            autoFocus
            required
            multiline
            minRows={3}
            fullWidth
            margin="normal"
            label={BillingPageTexts.reopenReason}
            slotProps={{ htmlInput: { maxLength: BILLING_REOPEN_REASON_MAX } }}
            {...textFieldProps(form, 'reason', { quietWhenEmpty: true })}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={reopen.isPending}>
            {Labels.cancel}
          </Button>
          <Button type="submit" variant="contained" color="warning" disabled={reopen.isPending}>
            {BillingPageTexts.reopenMonth}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
