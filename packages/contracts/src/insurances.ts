import { Type, type Static } from 'typebox';
import { IsoDate } from './common.ts';
import { InputDate, InputText, OptionalText } from './fields.ts';

export const INSURANCE_TYPES = ['Medicare', 'Medicaid', 'Private', 'Other'] as const;
export const InsuranceType = Type.Union([
  Type.Literal('Medicare'),
  Type.Literal('Medicaid'),
  Type.Literal('Private'),
  Type.Literal('Other'),
]);
export type InsuranceType = (typeof INSURANCE_TYPES)[number];

export const Insurance = Type.Object({
  id: Type.Integer(),
  type: InsuranceType,
  provider_name: OptionalText(200),
  policy_number: OptionalText(100),
  policyholder: OptionalText(200),
  policyholder_birthdate: Type.Union([IsoDate, Type.Null()]),
});
export type Insurance = Static<typeof Insurance>;

export const InsuranceList = Type.Array(Insurance);

/* ---- Request bodies ---- */

// Plain `enum` schemas: a bad value gets one clear "must be equal to one of the allowed values".
const InputInsuranceType = Type.Unsafe<InsuranceType>({ type: 'string', enum: [...INSURANCE_TYPES] });

export const InsuranceInput = Type.Object(
  {
    type: InputInsuranceType,
    provider_name: Type.Optional(InputText(200)),
    policy_number: Type.Optional(InputText(100)),
    // Only for Private insurance; any other type with a non-empty value is refused.
    policyholder: Type.Optional(InputText(200)),
    policyholder_birthdate: Type.Optional(InputDate),
  },
  { additionalProperties: false },
);
export type InsuranceInput = Static<typeof InsuranceInput>;
