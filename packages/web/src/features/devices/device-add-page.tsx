import { TextField } from '@mui/material';
import {
  AdminTexts,
  DEVICE_TYPES,
  deviceTypeLabel,
  Toasts,
  Validation,
  anyText,
  blankToNull,
  formSchema,
  requiredText,
  type CreateDeviceBody,
  type FormValues,
} from '@rpm/contracts';
import type { UseFormReturn } from 'react-hook-form';
import { useSnackbar } from '../../lib/toast/toast.ts';
import { FormPage } from '../../components/form-page.tsx';
import { textFieldProps } from '../../components/form/text-field-props.ts';
import { useSchemaForm } from '../../components/form/use-schema-form.ts';
import { errorMessage } from '../../api/errors.ts';
import { useAddDevice } from '../../api/devices/create-device.ts';

const DeviceForm = formSchema({
  device_id: requiredText(Validation.deviceIdRequired),
  model: anyText(),
  type: anyText(),
});
type DeviceFormValues = FormValues<typeof DeviceForm>;

const EMPTY: DeviceFormValues = { device_id: '', model: '', type: '' };

/** Optional fields are left out of the body when blank (spec section 5). */
function toCreateDeviceBody(values: DeviceFormValues): CreateDeviceBody {
  const body: CreateDeviceBody = { device_id: values.device_id.trim() };
  const model = blankToNull(values.model);
  const type = blankToNull(values.type);
  if (model) body.model = model;
  if (type) body.type = type;
  return body;
}

/**
 * The type as a choice of the registry's device types, by name. A value stored as free text
 * before (or a type this build does not list) stays selectable as it is, so editing never
 * silently changes it.
 */
function DeviceTypeSelect({ form }: { form: UseFormReturn<DeviceFormValues> }) {
  const current = form.watch('type');
  const types: readonly string[] = DEVICE_TYPES;
  const options = current && !types.includes(current) ? [...types, current] : types;
  return (
    <TextField
      id="device-type"
      select
      label={AdminTexts.type}
      fullWidth
      {...textFieldProps(form, 'type')}
      slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
    >
      <option value="" />
      {options.map((t) => (
        <option key={t} value={t}>
          {deviceTypeLabel(t)}
        </option>
      ))}
    </TextField>
  );
}

/** /devices/add: device_id is required; model and type are optional (spec section 5). */
export default function DeviceAddPage() {
  const { enqueueSnackbar } = useSnackbar();
  const add = useAddDevice();
  const form = useSchemaForm<DeviceFormValues>(DeviceForm, { defaultValues: EMPTY });

  const submit = form.handleSubmit((values) =>
    add.mutate(toCreateDeviceBody(values), {
      onSuccess: () => {
        form.reset(EMPTY);
        enqueueSnackbar(Toasts.deviceAdded, { variant: 'success' });
      },
      onError: (err) => enqueueSnackbar(errorMessage(err, Toasts.failedToAddDevice), { variant: 'error' }),
    }),
  );

  return (
    <FormPage title={AdminTexts.addDeviceTitle} onSubmit={submit} pending={add.isPending}>
      <TextField id="device-id" label={AdminTexts.deviceId} required fullWidth {...textFieldProps(form, 'device_id')} />
      <TextField id="device-model" label={AdminTexts.model} fullWidth {...textFieldProps(form, 'model')} />
      <DeviceTypeSelect form={form} />
    </FormPage>
  );
}
