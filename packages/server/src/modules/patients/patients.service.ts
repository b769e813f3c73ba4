import {
  PatientErrors,
  type Insurance,
  type PatientDetail,
  type PatientInput,
  NO_ENROLLMENT_STATUS,
  PATIENT_LIST_PAGE_SIZE,
  type PatientList,
  type PatientListQuery,
  type PatientUpdate,
  type AuditAction,
} from '@rpm/contracts';
import type pg from 'pg';
import type { SignedInContext } from '../../kernel/request-context.ts';
import type { Queryable } from '../../db/pool.ts';
import { audit } from '../../kernel/audit-writer.ts';
import { authorize, requirePatientAccess } from '../../kernel/access.ts';
import { mayAssignDevices } from '../../policies/devices.ts';
import { patientListScope } from '../../policies/patients.ts';
import { auditedTransaction, failure, recordingRefusals } from '../../kernel/audited-transaction.ts';
import { presentInsurance, presentPatientDetail, presentPatientListItem } from './patients.presenter.ts';
import { assignDevicesToPatient } from '../devices/index.ts';
import { closeAlertsForEnrollmentEnd } from '../alerts/index.ts';
import {
  currentDeviceIds,
  findPatientDetail,
  findPatientIdByMrn,
  findPatientRow,
  insertPatient,
  listInsurances,
  listPatientDevices,
  listPatients,
  replaceInsurances,
  updatePatient,
  type PatientListFilter,
  type PatientRow,
} from './patients.repository.ts';
import { checkedInsurances, checkedPatientRow } from './patients.checks.ts';

export interface PatientsDeps {
  db: pg.Pool;
  /** The clock of the month figures (tests give a fixed one); the real time by default. */
  now?: () => Date;
}

/**
 * The patient list in two statements after the session check, like the vitals page: the page
 * and its total in one (same snapshot), then the success record. No transaction is needed: the
 * answer leaves only once its record is committed, so a list that cannot be recorded is not
 * answered.
 */
export async function listPatientsFor(
  deps: PatientsDeps,
  ctx: SignedInContext,
  query: PatientListQuery,
): Promise<PatientList> {
  return recordingRefusals(deps.db, ctx, async () => {
    const scope = patientListScope(ctx.actor);
    const search = parseSearch(query.q ?? '');
    const limit = query.limit ?? PATIENT_LIST_PAGE_SIZE;
    const offset = query.offset ?? 0;
    const sort = query.sort ?? 'name';
    const { rows, total } = await listPatients(deps.db, {
      organizationId: scope,
      ...search,
      status: query.status === undefined ? undefined : query.status === NO_ENROLLMENT_STATUS ? null : query.status,
      sort,
      order: query.order ?? 'asc',
      limit,
      offset,
      now: deps.now?.() ?? new Date(),
    });
    const page = { items: rows.map(presentPatientListItem), total };
    await audit(deps.db, ctx, {
      action: 'patient.list',
      outcome: 'success',
      resourceType: 'patient',
      // What kind of search, never the typed text: a name or birth date identifies a patient.
      details: {
        count: page.items.length,
        total: page.total,
        organization_id: scope,
        limit,
        offset,
        sort,
        search: search.birthRange ? 'date_of_birth' : search.nameWords.length ? 'name' : null,
        ...(query.status !== undefined ? { status: query.status } : {}),
      },
    });
    return page;
  });
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An existing calendar day as YYYY-MM-DD, or null. */
function isoDay(y: number, m: number, d: number): string | null {
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return `${y}-${pad(m)}-${pad(d)}`;
}

/**
 * What the list's search box means: a date of birth (YYYY-MM-DD, MM/DD/YYYY, or a year) or
 * name words (at most five; each matches the start of the first or the last name).
 */
export function parseSearch(q: string): Pick<PatientListFilter, 'nameWords' | 'birthRange'> {
  const text = q.trim();
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text);
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  const day = iso ? isoDay(+iso[1]!, +iso[2]!, +iso[3]!) : us ? isoDay(+us[3]!, +us[1]!, +us[2]!) : null;
  if (day) return { nameWords: [], birthRange: { from: day, to: day } };
  if (/^\d{4}$/.test(text)) return { nameWords: [], birthRange: { from: `${text}-01-01`, to: `${text}-12-31` } };
  const nameWords = text.split(/[\s,;]+/).filter(Boolean).slice(0, 5);
  return { nameWords, birthRange: null };
}

export async function readPatient(deps: PatientsDeps, ctx: SignedInContext, id: number): Promise<PatientDetail> {
  return auditedTransaction(deps.db, ctx, async (tx) => {
    await requirePatientAccess(tx, ctx, id, 'patient.read');
    const patient = await patientDetail(tx, id);
    await audit(tx, ctx, { action: 'patient.read', outcome: 'success', resourceType: 'patient', resourceId: id });
    return patient;
  });
}

export async function listPatientInsurances(deps: PatientsDeps, ctx: SignedInContext, id: number): Promise<Insurance[]> {
  return auditedTransaction(deps.db, ctx, async (tx) => {
    await requirePatientAccess(tx, ctx, id, 'insurance.list');
    const items = (await listInsurances(tx, id)).map(presentInsurance);
    await audit(tx, ctx, {
      action: 'insurance.list',
      outcome: 'success',
      resourceType: 'patient',
      resourceId: id,
      details: { count: items.length },
    });
    return items;
  });
}

/**
 * Creates a patient with its insurances and devices, and the audit record, in one transaction.
 */
export async function createPatient(deps: PatientsDeps, ctx: SignedInContext, input: PatientInput): Promise<PatientDetail> {
  return auditedTransaction(deps.db, ctx, async (tx) => {
    const action = 'patient.create';
    const row = await checkedPatientRow(tx, ctx, input, action, null);
    const insurances = checkedInsurances(input.insurances ?? [], action, null);
    const deviceIds = input.device_ids ?? [];
    authorizeDeviceAssignment(ctx, deviceIds.length > 0, action, null);
    const id = await insertPatient(tx, row);
    await replaceInsurances(tx, id, insurances);
    const moved = await assignDevices(tx, id, deviceIds, action);
    await audit(tx, ctx, {
      action,
      outcome: 'success',
      resourceType: 'patient',
      resourceId: id,
      details: {
        organization_id: row.organization_id,
        insurance_count: insurances.length,
        device_ids: deviceIds,
        ...(moved.length ? { devices_moved: moved } : {}),
      },
    });
    return patientDetail(tx, id);
  });
}

/**
 * Saves a patient: its fields, then (when given) the whole insurance set and the device
 * assignment, and the audit record, in one transaction, so a failure at any step saves nothing.
 */
export async function savePatient(
  deps: PatientsDeps,
  ctx: SignedInContext,
  id: number,
  input: PatientUpdate,
): Promise<PatientDetail> {
  return auditedTransaction(deps.db, ctx, async (tx) => {
    const action = 'patient.update';
    await requirePatientAccess(tx, ctx, id, action, true);
    const before = (await findPatientRow(tx, id))!;
    const row = await checkedPatientRow(tx, ctx, input, action, id, before);
    const current = await currentDeviceIds(tx, id);
    const wanted = input.device_ids === undefined ? null : [...input.device_ids].sort((a, b) => a - b);
    const devicesChange = wanted !== null && !sameIds(wanted, current);
    authorizeDeviceAssignment(ctx, devicesChange, action, id);
    await updatePatient(tx, id, row);
    if (enrollmentEnds(before, row)) await closeAlertsForEnrollmentEnd(tx, id, ctx);
    let insuranceCount: number | undefined;
    if (input.insurances !== undefined) {
      const insurances = checkedInsurances(input.insurances, action, id);
      await replaceInsurances(tx, id, insurances);
      insuranceCount = insurances.length;
    }
    // Devices go last: an unknown device id undoes the whole save, insurances included.
    const moved = devicesChange ? await assignDevices(tx, id, wanted, action) : [];
    const changed = (Object.keys(row) as (keyof PatientRow)[]).filter((k) => !sameValue(row[k], before[k]));
    await audit(tx, ctx, {
      action,
      outcome: 'success',
      resourceType: 'patient',
      resourceId: id,
      // Names of changed fields only: the values are health information.
      details: {
        changed_fields: changed,
        ...(insuranceCount !== undefined ? { insurance_count: insuranceCount } : {}),
        ...(devicesChange ? { device_ids: wanted, devices_before: current } : {}),
        ...(moved.length ? { devices_moved: moved } : {}),
      },
    });
    return patientDetail(tx, id);
  });
}

/** The patient page's answer: the patient read back with its insurances and devices. */
async function patientDetail(tx: Queryable, id: number): Promise<PatientDetail> {
  // One after the other: a transaction's client runs one query at a time anyway.
  const row = await findPatientDetail(tx, id);
  return presentPatientDetail(row!, await listInsurances(tx, id), await listPatientDevices(tx, id));
}

/** Changing which devices a patient has is for admins (only checked when it changes). */
function authorizeDeviceAssignment(ctx: SignedInContext, changes: boolean, action: AuditAction, id: number | null): void {
  authorize(!changes || mayAssignDevices(ctx.actor), {
    action,
    resourceType: 'patient',
    resourceId: id,
    reason: 'device assignment is admin only',
    message: PatientErrors.deviceAssignmentAdminOnly,
  });
}

async function assignDevices(tx: pg.PoolClient, id: number, deviceIds: number[], action: AuditAction) {
  const { unknown, moved } = await assignDevicesToPatient(tx, id, deviceIds);
  if (unknown.length) {
    throw failure(400, PatientErrors.deviceUnknown, {
      action,
      resourceType: 'patient',
      resourceId: id,
      reason: 'unknown device',
      details: { unknown_device_ids: unknown },
    });
  }
  return moved;
}

/** Discharged, paused, declined or taken out of RPM: nobody reviews the readings, the alerts close. */
function enrollmentEnds(before: PatientRow, after: PatientRow): boolean {
  const stopped = after.enrollment_status !== before.enrollment_status && after.enrollment_status !== null && after.enrollment_status !== 'Active';
  return (before.enrolled_rpm && !after.enrolled_rpm) || stopped;
}

/** Field values compare by content (the diagnosis codes are a list). */
function sameValue(a: unknown, b: unknown): boolean {
  return Array.isArray(a) && Array.isArray(b) ? a.length === b.length && a.every((v, i) => v === b[i]) : a === b;
}

function sameIds(a: number[], b: number[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/**
 * The organization's patient with this MRN, for matching a patient an EHR names (the EHR launch).
 * No access check here: the caller runs requirePatientAccess on the answer before using it.
 */
export async function patientIdByMrn(tx: Queryable, organizationId: number, mrn: string): Promise<number | undefined> {
  return findPatientIdByMrn(tx, organizationId, mrn);
}
