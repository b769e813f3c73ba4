import { TextField } from '@mui/material';
import { AdminTexts, Toasts, Validation, type CreateDeviceBody } from '@rpm/contracts';
import { useSnackbar } from 'notistack';
import { useState, type FormEvent } from 'react';
import { FormPage } from '../../components/form-page.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { useAddDevice } from './api.ts';
import { helperLine } from '../../components/helper-text.ts';

const EMPTY = { device_id: '', model: '', type: '' };

/** /devices/add: device_id is required; model and type are optional (spec section 5). */
export default function DeviceAddPage() {
  const { enqueueSnackbar } = useSnackbar();
  const add = useAddDevice();
  const [values, setValues] = useState(EMPTY);
  const [error, setError] = useState<string | null>(null);

  const set = (key: keyof typeof EMPTY) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [key]: e.target.value }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!values.device_id.trim()) {
      setError(Validation.deviceIdRequired);
      return;
    }
    setError(null);
    const body: CreateDeviceBody = { device_id: values.device_id.trim() };
    if (values.model.trim()) body.model = values.model.trim();
    if (values.type.trim()) body.type = values.type.trim();
    add.mutate(body, {
      onSuccess: () => {
        setValues(EMPTY);
        enqueueSnackbar(Toasts.deviceAdded, { variant: 'success' });
      },
      onError: (err) => enqueueSnackbar(errorMessage(err, Toasts.failedToAddDevice), { variant: 'error' }),
    });
  };

  return (
    <FormPage title={AdminTexts.addDeviceTitle} onSubmit={submit} pending={add.isPending}>
      <TextField
        id="device-id"
        label={AdminTexts.deviceId}
        value={values.device_id}
        onChange={set('device_id')}
        onBlur={() => setError(values.device_id.trim() ? null : Validation.deviceIdRequired)}
        required
        error={Boolean(error)}
        helperText={helperLine(error)}
        fullWidth
      />
      <TextField id="device-model" label={AdminTexts.model} value={values.model} onChange={set('model')} fullWidth />
      <TextField id="device-type" label={AdminTexts.type} value={values.type} onChange={set('type')} fullWidth />
    </FormPage>
  );
}
