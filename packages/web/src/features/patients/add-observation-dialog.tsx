import { TZDate } from '@date-fns/tz';
import { Alert, MenuItem, Stack, TextField } from '@mui/material';
import {
  MEASUREMENT_KINDS,
  bloodPressure,
  componentOf,
  roundTo,
  toCanonical,
  ObservationTexts,
  formSchema,
  hasText,
  measurementKind,
  requiredText,
  textRule,
  type DisplayUnits,
  type MeasurementKind,
  type ObservationInput,
} from '@rpm/contracts';
import { format } from 'date-fns';
import { useMemo } from 'react';
import { Controller, useForm, useWatch, type Resolver } from 'react-hook-form';
import { errorMessage } from '../../api/errors.ts';
import { useAddObservation } from '../../api/observations/add-observation.ts';
import { schemaResolver } from '../../components/form/schema-resolver.ts';
import { controlledInputProps, textFieldProps } from '../../components/form/text-field-props.ts';
import { useSnackbar } from '../../lib/toast/toast.ts';
import { useTimezone } from '../../lib/timezone.ts';
import { componentUnit } from './measurement-units.ts';
import { SaveDialog } from './save-dialog.tsx';

/** What the form holds: the kind, the measured time as typed, and each component's value as typed. */
export interface ObservationFormValues {
  kind: string;
  measured_at: string;
  values: Record<string, string>;
}

const isNumber = (text: string) => text.trim() !== '' && Number.isFinite(Number(text.trim()));

/**
 * The form's rules for one kind: each component a number (an optional one may be blank). The
 * plausible ranges are the server's to judge: its 400 names the value and the range, in words
 * the registry fixes, and the dialog shows it.
 */
export function observationFormSchema(kind: MeasurementKind | undefined) {
  const components = Object.fromEntries(
    (kind?.components ?? []).map((c) => [
      c.code,
      textRule((v) => (c.optional ? v.trim() === '' || isNumber(v) : isNumber(v)), ObservationTexts.enterNumber(c.label)),
    ]),
  );
  return formSchema({
    kind: requiredText(''),
    measured_at: requiredText(ObservationTexts.measuredAtRequired),
    values: formSchema(components),
  });
}

/** The form's rules follow the kind chosen in it: the resolver picks the schema of the kind of the values it checks. */
const observationResolver: Resolver<ObservationFormValues> = (values, context, options) =>
  schemaResolver<ObservationFormValues>(observationFormSchema(measurementKind(values.kind)))(values, context, options);

/**
 * The reading as the API takes it: each value typed in the organization's display unit (e.g. lb),
 * converted here to the kind's canonical unit (kg) and rounded as the server stores it, so the
 * server keeps exactly what the person will see again.
 */
export function toObservationInput(
  values: ObservationFormValues,
  timezone: string,
  displayUnits: DisplayUnits | undefined,
): ObservationInput {
  const kind = measurementKind(values.kind)!;
  const components: Record<string, number> = {};
  for (const c of kind.components) {
    const text = values.values[c.code]?.trim() ?? '';
    if (text === '') continue;
    const typed = Number(text);
    const unit = componentUnit(kind, c.code, displayUnits);
    const canonical = unit ? toCanonical(kind, c.code, typed, unit.ucum) : undefined;
    components[c.code] = canonical === undefined ? typed : roundTo(canonical, c.decimals);
  }
  return {
    kind: kind.kind,
    created_at: fromLocalInput(values.measured_at, timezone),
    components,
    unit: componentOf(kind, kind.primary)?.ucum,
  };
}

/** "yyyy-MM-ddTHH:mm" as typed, read as a wall-clock time in `timezone` (the one chosen in the top bar). */
export function fromLocalInput(text: string, timezone: string): string {
  const [date = '', time = '00:00'] = text.split('T');
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [h, min] = time.split(':').map(Number) as [number, number];
  return new Date(new TZDate(y, m - 1, d, h, min, 0, timezone).getTime()).toISOString();
}

const nowInput = (timezone: string) => format(new TZDate(Date.now(), timezone), "yyyy-MM-dd'T'HH:mm");

/** A reading of any kind typed in by staff, in the organization's display unit; loaded when first wanted. */
export default function AddObservationDialog({
  patientId,
  kind: initialKind,
  displayUnits,
  onClose,
}: {
  patientId: number;
  kind?: string;
  displayUnits: DisplayUnits | undefined;
  onClose: () => void;
}) {
  const { timezone } = useTimezone();
  const { enqueueSnackbar } = useSnackbar();
  const add = useAddObservation(patientId);
  const form = useForm<ObservationFormValues>({
    mode: 'onBlur',
    reValidateMode: 'onBlur',
    resolver: observationResolver,
    defaultValues: {
      kind: initialKind ?? MEASUREMENT_KINDS.find((k) => k.kind !== bloodPressure.kind)?.kind ?? MEASUREMENT_KINDS[0].kind,
      measured_at: nowInput(timezone),
      values: {},
    },
  });
  const kindName = useWatch({ control: form.control, name: 'kind' });
  const typed = useWatch({ control: form.control, name: 'values' });
  const kind = useMemo(() => measurementKind(kindName), [kindName]);

  const handleSave = form.handleSubmit(async (values) => {
    try {
      await add.mutateAsync(toObservationInput(values, timezone, displayUnits));
      enqueueSnackbar(ObservationTexts.readingAdded, { variant: 'success' });
      onClose();
    } catch {
      // The server's message shows in the dialog (below); the dialog keeps what was typed.
    }
  });

  return (
    <SaveDialog
      title={ObservationTexts.addMeasurement}
      onClose={onClose}
      onSave={handleSave}
      saveDisabled={add.isPending}
      dirty={Object.values(typed ?? {}).some((v) => hasText(v))}
      discardTitle={ObservationTexts.discardReading}
    >
      <Stack spacing={2} sx={{ mt: 1 }}>
        {add.isError && (
          <Alert severity="error" role="alert">
            {errorMessage(add.error, ObservationTexts.failedToAddReading)}
          </Alert>
        )}
        <Controller
          control={form.control}
          name="kind"
          render={({ field }) => (
            <TextField
              select
              label={ObservationTexts.kind}
              {...controlledInputProps(field)}
              onChange={(e) => {
                field.onChange(e);
                add.reset();
              }}
            >
              {MEASUREMENT_KINDS.map((k) => (
                <MenuItem key={k.kind} value={k.kind}>
                  {k.label}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
        {kind?.components.map((c) => (
          <TextField
            key={`${kind.kind}-${c.code}`}
            label={`${c.label} (${componentUnit(kind, c.code, displayUnits)?.label ?? c.ucum})`}
            inputMode="decimal"
            required={!c.optional}
            {...textFieldProps(form, `values.${c.code}`)}
          />
        ))}
        <TextField
          label={ObservationTexts.measuredAt}
          type="datetime-local"
          slotProps={{ inputLabel: { shrink: true } }}
          {...textFieldProps(form, 'measured_at')}
        />
      </Stack>
    </SaveDialog>
  );
}
