// A patient's save checked before it is stored: the rules a schema cannot express, each refusal recorded.
import {
  PatientErrors,
  Validation,
  isDateFrom1900ToToday,
  type InsuranceInput,
  type PatientInput,
  allowsPolicyholder,
  blankToNull,
  type AuditAction,
  MAX_DIAGNOSIS_CODES,
  diagnosisCodeProblems,
  normalizeDiagnosisCodes,
  EhrLaunchErrors,
} from '@rpm/contracts';
import type pg from 'pg';
import type { SignedInContext } from '../../kernel/request-context.ts';
import { authorize } from '../../kernel/access.ts';
import { mayPlacePatientIn } from '../../policies/patients.ts';
import { failure } from '../../kernel/audited-transaction.ts';
import { organizationExists } from '../organizations/index.ts';
import { isActiveProviderOf, isMrnTaken, type InsuranceRow, type PatientRow } from './patients.repository.ts';
/** A refused save of a patient: what is wrong with it, recorded. */
function refusal(message: string, action: AuditAction, id: number | null, reason: string) {
  return failure(400, message, { action, resourceType: 'patient', resourceId: id, reason });
}

/** Trims, turns '' into null and checks the rules a schema cannot express. */
export async function checkedPatientRow(
  tx: pg.PoolClient,
  ctx: SignedInContext,
  input: PatientInput,
  action: AuditAction,
  id: number | null,
  before: PatientRow | null = null,
): Promise<PatientRow> {
  const first = input.first_name.trim();
  const last = input.last_name.trim();
  if (!first) throw refusal(Validation.firstNameRequired, action, id, 'first name missing');
  if (!last) throw refusal(Validation.lastNameRequired, action, id, 'last name missing');

  authorize(mayPlacePatientIn(ctx.actor, input.organization_id), {
    action,
    resourceType: 'patient',
    resourceId: id,
    reason: 'organization of another provider',
    message: PatientErrors.otherOrganization,
  });
  if (!(await organizationExists(tx, input.organization_id))) {
    throw refusal(PatientErrors.organizationUnknown, action, id, 'unknown organization');
  }
  const providerId = input.primary_provider_id ?? null;
  // A provider kept as it was (who may have left since) does not block saving other changes.
  const unchanged = before !== null && keeps(before, { primary_provider_id: providerId, organization_id: input.organization_id });
  if (providerId !== null && !unchanged && !(await isActiveProviderOf(tx, providerId, input.organization_id))) {
    throw refusal(PatientErrors.providerNotInOrganization, action, id, 'not an active provider of the organization');
  }
  const dateOfBirth = blankToNull(input.date_of_birth);
  if (dateOfBirth !== null && !isDateFrom1900ToToday(dateOfBirth)) {
    throw refusal(PatientErrors.dateOfBirthOutOfRange, action, id, 'date of birth out of range');
  }
  const evidence = await checkedEvidence(tx, input, action, id, before);
  // Left out: kept (none on create). An EHR launch finds the patient by it, so two patients of one
  // organization may not share one.
  const mrn = input.mrn === undefined ? (before?.mrn ?? null) : blankToNull(input.mrn);
  if (mrn !== null && (await isMrnTaken(tx, input.organization_id, mrn, id))) {
    throw failure(409, EhrLaunchErrors.mrnTaken, { action, resourceType: 'patient', resourceId: id, reason: 'duplicate MRN' });
  }
  return {
    first_name: first,
    middle_name: blankToNull(input.middle_name),
    last_name: last,
    date_of_birth: dateOfBirth,
    gender: input.gender ?? null,
    organization_id: input.organization_id,
    primary_provider_id: providerId,
    enrolled_rpm: input.enrolled_rpm ?? false,
    enrollment_status: blankToNull(input.enrollment_status) as PatientRow['enrollment_status'],
    ...evidence,
    mrn,
  };
}

type EvidenceFields = Pick<PatientRow, 'ordering_provider_id' | 'consent_date' | 'diagnosis_codes'>;

/**
 * What an auditor asks of a claim: the ordering provider (an active provider of the patient's
 * organization, checked like the primary provider), the consent date (not in the future) and the
 * ICD-10-CM codes (normalized; each bad one named). A field left out keeps its value (none on create).
 */
async function checkedEvidence(
  tx: pg.PoolClient,
  input: PatientInput,
  action: AuditAction,
  id: number | null,
  before: PatientRow | null,
): Promise<EvidenceFields> {
  const ordering = input.ordering_provider_id === undefined ? (before?.ordering_provider_id ?? null) : input.ordering_provider_id;
  const keptOrdering = before !== null && keeps(before, { ordering_provider_id: ordering, organization_id: input.organization_id });
  if (ordering !== null && !keptOrdering && !(await isActiveProviderOf(tx, ordering, input.organization_id))) {
    throw refusal(PatientErrors.orderingProviderNotInOrganization, action, id, 'ordering provider not an active provider of the organization');
  }
  const consent = input.consent_date === undefined ? (before?.consent_date ?? null) : blankToNull(input.consent_date);
  if (consent !== null && consent !== before?.consent_date && !isDateFrom1900ToToday(consent)) {
    throw refusal(PatientErrors.consentDateOutOfRange, action, id, 'consent date out of range');
  }
  const codes = input.diagnosis_codes === undefined ? (before?.diagnosis_codes ?? []) : normalizeDiagnosisCodes(input.diagnosis_codes);
  // The form's own check: one text per bad code, so the person fixes them all at once.
  const problems = diagnosisCodeProblems(codes);
  if (problems.length > 0) {
    const reason = codes.length > MAX_DIAGNOSIS_CODES ? 'too many diagnosis codes' : 'invalid diagnosis code';
    throw refusal(problems.join(' '), action, id, reason);
  }
  return { ordering_provider_id: ordering, consent_date: consent, diagnosis_codes: codes };
}

export function checkedInsurances(items: InsuranceInput[], action: AuditAction, id: number | null): InsuranceRow[] {
  return items.map((i) => {
    const policyholder = blankToNull(i.policyholder);
    const birthdate = blankToNull(i.policyholder_birthdate);
    if (!allowsPolicyholder(i.type) && (policyholder !== null || birthdate !== null)) {
      throw refusal(PatientErrors.policyholderOnlyPrivate, action, id, 'policyholder on non-private insurance');
    }
    if (birthdate !== null && !isDateFrom1900ToToday(birthdate)) {
      throw refusal(PatientErrors.policyholderBirthdateOutOfRange, action, id, 'policyholder birthdate out of range');
    }
    return {
      type: i.type,
      provider_name: blankToNull(i.provider_name),
      policy_number: blankToNull(i.policy_number),
      policyholder,
      policyholder_birthdate: birthdate,
    };
  });
}

/** True when `after` changes none of the fields it names. */
function keeps<T extends object>(before: T, after: Partial<T>): boolean {
  return (Object.keys(after) as (keyof T)[]).every((k) => before[k] === after[k]);
}
