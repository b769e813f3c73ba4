import DeleteIcon from '@mui/icons-material/Delete';
import { Box, Button, IconButton, Paper, Stack, TextField, Typography } from '@mui/material';
import { INSURANCE_TYPES, PatientTexts, allowsPolicyholder } from '@rpm/contracts';
import { useFieldArray, useWatch, type UseFormReturn } from 'react-hook-form';
import { inputProps, textFieldProps } from '../../components/form/text-field-props.ts';
import type { PatientFormValues } from './patient-form-values.ts';

interface Props {
  form: UseFormReturn<PatientFormValues>;
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
export function InsuranceFields({ form }: Props) {
  const { control } = form;
  const { fields, append, remove } = useFieldArray({ control, name: 'insurances' });
  const types = useWatch({ control, name: 'insurances' });

  return (
    <Box component="section" aria-labelledby="insurance-heading">
      <Typography id="insurance-heading" variant="h6" component="h2" sx={{ mb: 1 }}>
        {PatientTexts.insurance}
      </Typography>
      <Stack spacing={2}>
        {fields.map((field, index) => {
          const isPrivate = allowsPolicyholder(types?.[index]?.type);
          const n = index + 1;
          return (
            <Paper key={field.id} variant="outlined" sx={{ p: 2 }} data-testid={`insurance-${index}`}>
              <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: 'flex-start' }}>
                <TextField
                  select
                  label={PatientTexts.type}
                  slotProps={{ select: { native: true }, inputLabel: { shrink: true }, htmlInput: { 'aria-label': `${PatientTexts.type} ${n}` } }}
                  sx={{ minWidth: 160 }}
                  {...textFieldProps(form, `insurances.${index}.type`)}
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
                  {...textFieldProps(form, `insurances.${index}.provider_name`)}
                />
                <TextField
                  label={PatientTexts.policyNumber}
                  slotProps={{ htmlInput: { 'aria-label': `${PatientTexts.policyNumber} ${n}` } }}
                  {...textFieldProps(form, `insurances.${index}.policy_number`)}
                />
                {isPrivate && (
                  <>
                    <TextField
                      label={PatientTexts.policyholder}
                      slotProps={{ htmlInput: { 'aria-label': `${PatientTexts.policyholder} ${n}` } }}
                      {...inputProps(form, `insurances.${index}.policyholder`)}
                    />
                    <TextField
                      type="date"
                      label={PatientTexts.policyholderBirthdate}
                      slotProps={{
                        inputLabel: { shrink: true },
                        htmlInput: { 'aria-label': `${PatientTexts.policyholderBirthdate} ${n}` },
                      }}
                      {...inputProps(form, `insurances.${index}.policyholder_birthdate`)}
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
