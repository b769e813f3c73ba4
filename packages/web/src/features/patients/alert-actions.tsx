import { Button, Stack } from '@mui/material';
import { AlertTexts, type Alert } from '@rpm/contracts';
import { Link as RouterLink } from 'react-router';
import { errorMessage } from '../../api/errors.ts';
import { useAcknowledgeAlert } from '../../api/alerts/acknowledge-alert.ts';
import { paths } from '../../config/paths.ts';
import { useSnackbar } from '../../lib/toast/toast.ts';

/**
 * What the patient page offers on each alert: acknowledge it here, or resolve it from the
 * worklist (where the resolve dialog, with its reason, note, minutes and contact, lives).
 */
export function AlertActions({ alert }: { alert: Alert }) {
  const acknowledge = useAcknowledgeAlert();
  const { enqueueSnackbar } = useSnackbar();
  const handleAcknowledge = async () => {
    try {
      await acknowledge.mutateAsync({ id: alert.id, body: {} });
      enqueueSnackbar(AlertTexts.acknowledged, { variant: 'success' });
    } catch (err) {
      enqueueSnackbar(errorMessage(err, AlertTexts.acknowledge), { variant: 'error' });
    }
  };
  const rule = AlertTexts.rules[alert.rule];
  return (
    <Stack direction="row" spacing={1} sx={{ ml: 'auto' }}>
      {alert.status === 'open' && (
        <Button
          size="small"
          variant="outlined"
          onClick={() => void handleAcknowledge()}
          disabled={acknowledge.isPending}
          aria-label={`${AlertTexts.acknowledge}: ${rule}`}
        >
          {AlertTexts.acknowledge}
        </Button>
      )}
      <Button size="small" component={RouterLink} to={paths.alerts} aria-label={`${AlertTexts.resolve}: ${rule}`}>
        {AlertTexts.resolve}
      </Button>
    </Stack>
  );
}
