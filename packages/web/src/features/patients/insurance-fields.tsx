import DeleteIcon from '@mui/icons-material/Delete';
import { Box, Button, IconButton, Paper, Stack, TextField, Typography } from '@mui/material';
import { INSURANCE_TYPES, PatientTexts, Validation } from '@rpm/contracts';
import { useFieldArray, useWatch, type Control, type FieldErrors, type UseFormRegister } from 'react-hook-form';
import type { PatientFormValues } from './patient-form-values.ts';
import { helperLine } from '../../components/helper-text.ts';

interface Props {
  control: Control<PatientFormValues>;
  register: UseFormRegister<PatientFormValues>;
  errors: FieldErrors<PatientFormValues>;
}

export const emptyInsurance = {
  type: '',
  provider_name: '',
  policy_number: '',
  policyholder: '',
  policyholder_birthdate: '',
} as const;

/**
 * The insurance entries of the patient form. Type, provider and policy number are required and
 * checked when a field loses focus; policyholder fields exist only for Private insurance.
 */
export function InsuranceFields({ control, register, errors }: Props) {
  const { fields, append, remove } = useFieldArray({ control, name: 'insurances' });
  const types = useWatch({ control, name: 'insurances' });

  const reg = (name: Parameters<typeof register>[0], required?: string) => {
    const { ref, ...rest } = register(name, required ? { validate: (v) => (String(v ?? '').trim() ? true : required) } : {});
    return { ...rest, inputRef: ref };
  };

  return (
    <Box component="section" aria-labelledby="insurance-heading">
      <Typography id="insurance-heading" variant="h6" component="h2" sx={{ mb: 1 }}>
        {PatientTexts.insurance}
      </Typography>
      <Stack spacing={2}>
        {fields.map((field, index) => {
          const err = errors.insurances?.[index];
          const isPrivate = types?.[index]?.type === 'Private';
          const n = index + 1;
          return (
            <Paper key={field.id} variant="outlined" sx={{ p: 2 }} data-testid={`insurance-${index}`}>
              <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: 'flex-start' }}>
                <TextField
                  select
                  label={PatientTexts.type}
                  slotProps={{ select: { native: true }, inputLabel: { shrink: true }, htmlInput: { 'aria-label': `${PatientTexts.type} ${n}` } }}
                  error={Boolean(err?.type)}
                  helperText={helperLine(err?.type?.message)}
                  sx={{ minWidth: 160 }}
                  {...reg(`insurances.${index}.type`, Validation.insuranceType)}
                >
                  <option value="" />
                  {INSURANCE_TYPES.map((t) => (
                    <option key={t} value={t}>
                      {t}
                    </option>
                  ))}
                </TextField>
                <TextField
                  label={PatientTexts.insuranceProvider}
                  slotProps={{ htmlInput: { 'aria-label': `${PatientTexts.insuranceProvider} ${n}` } }}
                  error={Boolean(err?.provider_name)}
                  helperText={helperLine(err?.provider_name?.message)}
                  {...reg(`insurances.${index}.provider_name`, Validation.insuranceProvider)}
                />
                <TextField
                  label={PatientTexts.policyNumber}
                  slotProps={{ htmlInput: { 'aria-label': `${PatientTexts.policyNumber} ${n}` } }}
                  error={Boolean(err?.policy_number)}
                  helperText={helperLine(err?.policy_number?.message)}
                  {...reg(`insurances.${index}.policy_number`, Validation.insurancePolicyNumber)}
                />
                {isPrivate && (
                  <>
                    <TextField
                      label={PatientTexts.policyholder}
                      slotProps={{ htmlInput: { 'aria-label': `${PatientTexts.policyholder} ${n}` } }}
                      {...reg(`insurances.${index}.policyholder`)}
                    />
                    <TextField
                      type="date"
                      label={PatientTexts.policyholderBirthdate}
                      slotProps={{
                        inputLabel: { shrink: true },
                        htmlInput: { 'aria-label': `${PatientTexts.policyholderBirthdate} ${n}` },
                      }}
                      {...reg(`insurances.${index}.policyholder_birthdate`)}
                    />
                  </>
                )}
                <IconButton aria-label={`${PatientTexts.removeInsurance} ${n}`} onClick={() => remove(index)}>
                  <DeleteIcon />
                </IconButton>
              </Stack>
            </Paper>
          );
        })}
        <Box>
          <Button variant="outlined" onClick={() => append({ ...emptyInsurance })}>
            {PatientTexts.addInsurance}
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}
