import { Type, type Static, type TObject, type TProperties, type TSchema } from 'typebox';
import { Validation } from './messages.ts';
import type { InsuranceType } from './insurances.ts';
import { isValidEmail, meetsPasswordPolicy, normalizeMfaCode } from './validation.ts';

/**
 * Rules the browser's forms and the server's services both apply, written once. The server
 * stays the authority; the forms use them so a person learns of a problem before saving.
 */

/** Optional free text: surrounding blanks dropped, and nothing but blanks stored as null. */
export function blankToNull(value: string | null | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

/** Policyholder name and birth date belong to Private insurance only. */
export function allowsPolicyholder(type: InsuranceType | '' | null | undefined): boolean {
  return type === 'Private';
}

/** Text that holds more than blanks: what a required text field needs. */
export function hasText(value: string | null | undefined): boolean {
  return blankToNull(value) !== null;
}

/** Typed text that is a whole number within an integer schema's bounds (the contract's own). */
export function isWholeNumberIn(value: string, bounds: { minimum?: number; maximum?: number }): boolean {
  const n = Number(value);
  return (
    value.trim() !== '' &&
    Number.isInteger(n) &&
    n >= (bounds.minimum ?? Number.NEGATIVE_INFINITY) &&
    n <= (bounds.maximum ?? Number.POSITIVE_INFINITY)
  );
}

/*
 * Form schemas. A form holds text (what its inputs hold) and converts once, on submit; each field
 * is a TypeBox string refined by the rules above, and each refinement carries the spec's message,
 * so a form shows exactly the text the spec fixes.
 */

/** A text field checked by `check`; `message` is what the form shows when it fails. */
export function textRule(check: (value: string) => boolean, message: string) {
  return Type.Refine(Type.String(), check, () => message);
}

/** Free text with no rule of its own (optional fields). */
export const anyText = () => Type.String();

export const requiredText = (message: string) => textRule(hasText, message);

export const emailText = () => textRule(isValidEmail, Validation.email);

export const newPasswordText = () => textRule(meetsPasswordPolicy, Validation.passwordPolicy);

export const mfaCodeText = () => textRule((value) => normalizeMfaCode(value) !== null, Validation.mfaCode);

/** The bounds of a contract's integer schema. */
const boundsOf = (integer: TSchema) => integer as { minimum?: number; maximum?: number };

/** A whole number typed into a field, within the bounds of the contract's integer schema. */
export const wholeNumberText = (integer: TSchema, message: string) =>
  textRule((value) => isWholeNumberIn(value, boundsOf(integer)), message);

/** Like `wholeNumberText`, but an empty field is fine (the value is optional). */
export const optionalWholeNumberText = (integer: TSchema, message: string) =>
  textRule((value) => value.trim() === '' || isWholeNumberIn(value, boundsOf(integer)), message);

/** Blank, or text matching a contract string schema's pattern (optional fields with a format). */
export function isBlankOrMatches(value: string, schema: TSchema): boolean {
  return value.trim() === '' || new RegExp((schema as { pattern?: string }).pattern ?? '').test(value.trim());
}

/**
 * A rule across the fields of a form (or one that only applies in some cases), reported at the
 * field `at`, where the person looks.
 */
export function formRule<Values, Properties extends TProperties>(
  form: TObject<Properties>,
  at: keyof Values & string,
  check: (values: Values) => boolean,
  message: string,
) {
  return Type.Refine(Type.Object(form.properties, { errorAt: at }), check, () => message);
}

/**
 * The new-password pair: the password meets the policy and the confirmation repeats it. The
 * mismatch is a rule of the pair, reported at `confirm` (`errorAt`) where the person looks.
 */
export function newPasswordPair<Extra extends TProperties>(extra: Extra = {} as Extra) {
  return formRule(
    Type.Object({ ...extra, password: newPasswordText(), confirm: anyText() }),
    'confirm',
    (values: { password: string; confirm: string }) => values.password === values.confirm,
    Validation.passwordsMismatch,
  );
}

/** A form: its fields by name, each a rule above (web code builds form schemas only through these). */
export const formSchema = <Properties extends TProperties>(properties: Properties) => Type.Object(properties);

/** A list of like entries in a form (a patient's insurances). */
export const formList = <Properties extends TProperties>(properties: Properties) => Type.Array(Type.Object(properties));

/** The values a form schema describes: text in every field. */
export type FormValues<Schema extends TSchema> = Static<Schema>;
