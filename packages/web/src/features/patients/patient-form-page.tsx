import {
  Alert,
  Autocomplete,
  Box,
  Button,
  Checkbox,
  FormControlLabel,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { ENROLLMENT_STATUSES, GENDERS, Labels, MRN_MAX_LENGTH, PatientTexts, type Device } from '@rpm/contracts';
import { useSnackbar } from '../../lib/toast/toast.ts';
import { useEffect, useRef } from 'react';
import { Controller, useWatch } from 'react-hook-form';
import { useNavigate, useParams } from 'react-router';
import { paths } from '../../config/paths.ts';
import { LoadingState } from '../../components/loading-state.tsx';
import {
  controlledFieldProps,
  controlledInputProps,
  inputProps,
  textFieldProps,
} from '../../components/form/text-field-props.ts';
import { useSchemaForm } from '../../components/form/use-schema-form.ts';
import { errorMessage } from '../../api/errors.ts';
import { useAuth } from '../../lib/auth/auth-context.tsx';
import { useDevices } from '../../api/devices/get-devices.ts';
import { useOrganizations } from '../../api/organizations/get-organizations.ts';
import { useProviders } from '../../api/organizations/get-providers.ts';
import { usePatient } from '../../api/patients/get-patient.ts';
import { useSavePatient } from '../../api/patients/save-patient.ts';
import { fullName } from './format.ts';
import { InsuranceFields } from './insurance-fields.tsx';
import {
  PatientFormSchema,
  emptyPatientForm,
  toFormValues,
  toPatientInput,
  type PatientFormValues,
} from './patient-form-values.ts';
import { PatientBadLink, PatientLoadProblem, patientIdFrom } from './patient-problem.tsx';

/** /patients/add ('Add Patient') and /patients/:id/edit ('Update Patient'). */
export default function PatientFormPage() {
  const params = useParams();
  const isEdit = params.id !== undefined;
  const patientId = isEdit ? patientIdFrom(params.id) : null;
  // The role only decides what is shown; the server refuses a provider's device change anyway.
  const { user } = useAuth();
  const patient = usePatient(patientId ?? 0, patientId !== null);

  if (isEdit && patientId === null) return <PatientBadLink />;
  if (isEdit && patient.isError) return <PatientLoadProblem error={patient.error} />;
  if (isEdit && patient.isPending) {
    return <LoadingState />;
  }
  const initial = isEdit && patient.data ? toFormValues(patient.data) : emptyPatientForm(user?.organization_id ?? null);
  return (
    <PatientForm
      key={patientId ?? 'new'}
      patientId={patientId}
      initial={initial}
      isAdmin={user?.role === 'admin'}
      currentOrganizationName={patient.data?.organization_name ?? null}
      currentProviderName={patient.data?.primary_provider_name ?? null}
      currentOrderingName={patient.data?.ordering_provider_name ?? null}
    />
  );
}

interface FormProps {
  patientId: number | null;
  initial: PatientFormValues;
  isAdmin: boolean;
  currentOrganizationName: string | null;
  currentProviderName?: string | null;
  currentOrderingName?: string | null;
}

export function PatientForm({
  patientId,
  initial,
  isAdmin,
  currentOrganizationName,
  currentProviderName = null,
  currentOrderingName = null,
}: FormProps) {
  const navigate = useNavigate();
  const { enqueueSnackbar } = useSnackbar();
  const save = useSavePatient(patientId);
  const form = useSchemaForm<PatientFormValues>(PatientFormSchema, {
    // 'all': a field is checked when left and when changed, also after a Save attempt (with
    // 'onBlur', checks on leaving would stop after the first Save, e.g. for insurance added then).
    mode: 'all',
    reValidateMode: 'onChange',
    defaultValues: initial,
  });
  const {
    control,
    handleSubmit,
    setValue,
    formState: { isSubmitting },
  } = form;

  const organizationId = useWatch({ control, name: 'organization_id' });
  const organizations = useOrganizations();
  const providers = useProviders(organizationId ? Number(organizationId) : null);
  const devices = useDevices({ enabled: isAdmin });

  // A provider chosen for one organization is meaningless in another: clear it on a change.
  const firstOrg = useRef(organizationId);
  useEffect(() => {
    if (firstOrg.current !== organizationId) {
      setValue('primary_provider_id', '');
      setValue('ordering_provider_id', '');
    }
    firstOrg.current = organizationId;
  }, [organizationId, setValue]);

  const onSubmit = async (values: PatientFormValues) => {
    try {
      const saved = await save.mutateAsync(toPatientInput(values, isAdmin));
      enqueueSnackbar(PatientTexts.saved, { variant: 'success' });
      void navigate(paths.patient(saved.id));
    } catch (err) {
      // The form keeps everything typed; only the toast says what went wrong.
      enqueueSnackbar(errorMessage(err, PatientTexts.saveFailed), { variant: 'error' });
    }
  };

  // The organization list a provider gets may be just their own; the patient's own organization
  // is always an option so an edit never shows an empty choice.
  const orgOptions = [...(organizations.data ?? [])];
  if (initial.organization_id && !orgOptions.some((o) => String(o.id) === initial.organization_id)) {
    orgOptions.push({ id: Number(initial.organization_id), name: currentOrganizationName ?? initial.organization_id });
  }
  // Until the provider list is in, the saved providers stay options (by name when known).
  const withSaved = (id: string, name: string | null) => {
    const options = [...(providers.data ?? [])];
    if (id && organizationId === initial.organization_id && !options.some((p) => String(p.id) === id)) {
      options.push({ id: Number(id), name: name ?? id });
    }
    return options;
  };
  const providerOptions = withSaved(initial.primary_provider_id, currentProviderName);
  const orderingOptions = withSaved(initial.ordering_provider_id, currentOrderingName);
  const title = patientId === null ? Labels.addPatient : Labels.updatePatient;

  return (
    <Box component="form" noValidate onSubmit={handleSubmit(onSubmit)} aria-label={title}>
      <Typography variant="h4" component="h1" sx={{ mb: 2 }}>
        {title}
      </Typography>
      <Stack spacing={3}>
        <Paper variant="outlined" sx={{ p: 2 }}>
          <Stack spacing={2}>
            <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
              <TextField label={PatientTexts.firstName} required fullWidth {...textFieldProps(form, 'first_name')} />
              <TextField label={PatientTexts.middleName} fullWidth {...inputProps(form, 'middle_name')} />
              <TextField label={PatientTexts.lastName} required fullWidth {...textFieldProps(form, 'last_name')} />
            </Stack>
            <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
              <TextField
                type="date"
                label={PatientTexts.dateOfBirth}
                fullWidth
                slotProps={{ inputLabel: { shrink: true } }}
                {...inputProps(form, 'date_of_birth')}
              />
              <TextField
                select
                label={PatientTexts.gender}
                fullWidth
                slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
                {...inputProps(form, 'gender')}
              >
                <option value="" />
                {GENDERS.map((g) => (
                  <option key={g} value={g}>
                    {PatientTexts[`gender_${g}`]}
                  </option>
                ))}
              </TextField>
              <TextField
                label={PatientTexts.mrn}
                fullWidth
                slotProps={{ htmlInput: { maxLength: MRN_MAX_LENGTH, autoComplete: 'off' } }}
                {...inputProps(form, 'mrn')}
              />
            </Stack>
            <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
              {/* Controlled, like the provider selects (see ProviderSelect). */}
              <Controller
                control={control}
                name="organization_id"
                render={({ field, fieldState }) => (
                  <TextField
                    select
                    label={PatientTexts.organization}
                    required
                    fullWidth
                    slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
                    {...controlledFieldProps(field, fieldState)}
                  >
                    <option value="" />
                    {orgOptions.map((o) => (
                      <option key={o.id} value={String(o.id)}>
                        {o.name}
                      </option>
                    ))}
                  </TextField>
                )}
              />
              <ProviderSelect
                form={form}
                name="primary_provider_id"
                label={PatientTexts.primaryProvider}
                options={providerOptions}
              />
            </Stack>
            <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: 'center' }}>
              <Controller
                control={control}
                name="enrolled_rpm"
                render={({ field }) => (
                  <FormControlLabel
                    control={
                      <Checkbox
                        checked={field.value}
                        onChange={(e) => field.onChange(e.target.checked)}
                        onBlur={field.onBlur}
                      />
                    }
                    label={Labels.enrollInRpm}
                  />
                )}
              />
              <TextField
                select
                label={PatientTexts.enrollmentStatus}
                fullWidth
                slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
                {...inputProps(form, 'enrollment_status')}
              >
                <option value="" />
                {ENROLLMENT_STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </TextField>
            </Stack>
          </Stack>
        </Paper>

        <Paper variant="outlined" sx={{ p: 2 }}>
          <Stack spacing={2}>
            <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
              <ProviderSelect
                form={form}
                name="ordering_provider_id"
                label={PatientTexts.orderingProvider}
                options={orderingOptions}
              />
              <TextField
                type="date"
                label={PatientTexts.consentDate}
                fullWidth
                slotProps={{ inputLabel: { shrink: true } }}
                {...textFieldProps(form, 'consent_date')}
              />
            </Stack>
            <DiagnosisCodesField form={form} />
          </Stack>
        </Paper>

        <InsuranceFields form={form} />

        {isAdmin && (
          <Box component="section" aria-labelledby="devices-heading">
            <Typography id="devices-heading" variant="h6" component="h2" sx={{ mb: 1 }}>
              {PatientTexts.devices}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
              {PatientTexts.deviceMovesNote}
            </Typography>
            {devices.isError ? (
              <Alert severity="error">{errorMessage(devices.error, PatientTexts.saveFailed)}</Alert>
            ) : (
              <Controller
                control={control}
                name="device_ids"
                render={({ field }) => {
                  const options = devices.data ?? [];
                  return (
                    // A searchable multi-select: a clinic has hundreds of devices, not a screenful.
                    <Autocomplete
                      multiple
                      options={options}
                      loading={devices.isPending}
                      value={options.filter((d) => field.value.includes(d.id))}
                      onChange={(_e, chosen) => field.onChange(chosen.map((d) => d.id))}
                      onBlur={field.onBlur}
                      isOptionEqualToValue={(a, b) => a.id === b.id}
                      getOptionLabel={(d) => deviceLabel(d, patientId)}
                      filterSelectedOptions
                      renderInput={(params) => (
                        <TextField
                          {...params}
                          label={PatientTexts.assignedDevices}
                          placeholder={PatientTexts.devicesSearch}
                        />
                      )}
                    />
                  );
                }}
              />
            )}
          </Box>
        )}

        <Stack direction="row" spacing={2}>
          <Button type="submit" variant="contained" disabled={isSubmitting}>
            {Labels.save}
          </Button>
          <Button onClick={() => void navigate(patientId === null ? paths.patients : paths.patient(patientId))}>
            {PatientTexts.cancel}
          </Button>
        </Stack>
      </Stack>
    </Box>
  );
}

/**
 * A provider of the chosen organization, or none (primary and ordering provider). Controlled: its
 * options arrive after the first render, and a select holding a value that has no option yet would
 * otherwise fall back to the first option and save the wrong provider.
 */
function ProviderSelect({
  form,
  name,
  label,
  options,
}: {
  form: ReturnType<typeof useSchemaForm<PatientFormValues>>;
  name: 'primary_provider_id' | 'ordering_provider_id';
  label: string;
  options: { id: number; name: string }[];
}) {
  const organizationId = useWatch({ control: form.control, name: 'organization_id' });
  return (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => (
        <TextField
          select
          label={label}
          fullWidth
          disabled={!organizationId}
          slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
          {...controlledInputProps(field)}
        >
          <option value="">{PatientTexts.none}</option>
          {options.map((p) => (
            <option key={p.id} value={String(p.id)}>
              {p.name}
            </option>
          ))}
        </TextField>
      )}
    />
  );
}

/** The codes, comma separated; the example stays under the field until a code is wrong. */
function DiagnosisCodesField({ form }: { form: ReturnType<typeof useSchemaForm<PatientFormValues>> }) {
  const props = textFieldProps(form, 'diagnosis_codes');
  return (
    <TextField
      label={PatientTexts.diagnosisCodes}
      fullWidth
      {...props}
      helperText={props.error ? props.helperText : PatientTexts.diagnosisCodesHelp}
    />
  );
}

function deviceLabel(d: Device, patientId: number | null): string {
  const base = [d.device_id, d.model, d.type].filter(Boolean).join(' · ');
  if (d.patient && d.patient_id !== patientId) return `${base} — ${fullName(d.patient)}`;
  return base;
}
