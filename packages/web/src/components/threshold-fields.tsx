import { Box, Grid, TextField, Typography } from '@mui/material';
import {
  AlertSettingsTexts, AlertTexts,
  GuidelineSources,
  formSchema,
  textRule,
  type ThresholdDefinition,
  type ThresholdKey,
  type ThresholdKind,
  type ThresholdOverrides,
} from '@rpm/contracts';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { textFieldProps } from './form/text-field-props.ts';

/** Whether a typed value is one the contract takes: in range, with no more decimals than allowed. */
export function isThresholdText(value: string, d: ThresholdDefinition): boolean {
  const v = value.trim();
  if (v === '') return true;
  const pattern = d.decimals === 0 ? /^\d+$/ : new RegExp(`^\\d+(\\.\\d{1,${d.decimals}})?$`);
  if (!pattern.test(v)) return false;
  const n = Number(v);
  return n >= d.min && n <= d.max;
}

/** The form rules of the given thresholds (each may be left empty: the default then applies). */
export function thresholdRules(definitions: readonly ThresholdDefinition[]) {
  return Object.fromEntries(
    definitions.map((d) => [
      d.key,
      textRule((v) => isThresholdText(v, d), AlertTexts.thresholdRange(d.min, d.max, d.decimals)),
    ]),
  );
}

/** A form's text for each saved value ('' where none is set). */
export function thresholdTexts(definitions: readonly ThresholdDefinition[], overrides: ThresholdOverrides) {
  return Object.fromEntries(
    definitions.map((d) => {
      const v = overrides[d.key as ThresholdKey];
      return [d.key, v === null || v === undefined ? '' : String(v)];
    }),
  ) as Record<string, string>;
}

/** The body's values from the form's texts: empty → null (the default applies). */
export function thresholdValues(definitions: readonly ThresholdDefinition[], texts: Record<string, string>) {
  return Object.fromEntries(
    definitions.map((d) => {
      const t = (texts[d.key] ?? '').trim();
      return [d.key, t === '' ? null : Number(t)];
    }),
  ) as ThresholdOverrides;
}

/** A schema for a form of exactly these thresholds (no other fields). */
export const thresholdsFormSchema = (definitions: readonly ThresholdDefinition[]) =>
  formSchema(thresholdRules(definitions));

/**
 * The threshold fields, grouped by measurement kind. Each is labelled with its unit, shows what
 * applies when left empty as its placeholder, and cites the source of its default below it.
 */
export function ThresholdFields<Values extends FieldValues>({
  form,
  definitions,
  fallback,
  idPrefix,
}: {
  form: UseFormReturn<Values>;
  definitions: readonly ThresholdDefinition[];
  /** What applies when a field is empty (the organization's or the portal's value). */
  fallback: (key: ThresholdKey) => number;
  idPrefix: string;
}) {
  const kinds = [...new Set(definitions.map((d) => d.kind))] as ThresholdKind[];
  return (
    <>
      {kinds.map((kind) => (
        <Box key={kind} component="fieldset" sx={{ border: 0, p: 0, m: 0, mb: 2, minWidth: 0 }} data-kind={kind}>
          <Typography component="legend" variant="subtitle2" sx={{ mb: 1 }}>
            {AlertSettingsTexts.thresholdGroups[kind]}
          </Typography>
          <Grid container spacing={2}>
            {definitions
              .filter((d) => d.kind === kind)
              .map((d) => {
                const key = d.key as ThresholdKey;
                const props = textFieldProps(form, key as Path<Values>);
                const source = `${AlertSettingsTexts.thresholdSource}: ${GuidelineSources[d.source]}`;
                return (
                  <Grid key={key} size={{ xs: 12, sm: 6 }}>
                    <TextField
                      id={`${idPrefix}-${key}`}
                      fullWidth
                      size="small"
                      label={`${AlertSettingsTexts.thresholdLabels[key]} [${d.unit}]`}
                      placeholder={AlertTexts.defaultPlaceholder(fallback(key))}
                      {...props}
                      // The source is the help text: what the default rests on, read with the field.
                      helperText={
                        props.error ? (
                          <>
                            {props.helperText}
                            <br />
                            {source}
                          </>
                        ) : (
                          source
                        )
                      }
                      slotProps={{
                        inputLabel: { shrink: true },
                        htmlInput: { inputMode: d.decimals > 0 ? 'decimal' : 'numeric' },
                      }}
                    />
                  </Grid>
                );
              })}
          </Grid>
        </Box>
      ))}
    </>
  );
}
