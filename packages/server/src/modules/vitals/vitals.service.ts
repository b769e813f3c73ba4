import { ApiErrors, VITAL_SERIES_MAX_POINTS, type ManualVitalBody, type Vital, type VitalPage, type VitalSeries } from '@rpm/contracts';
import type pg from 'pg';
import type { SignedInContext } from '../../kernel/request-context.ts';
import { evaluateStoredReadings } from '../alerts/index.ts';
import { audit, auditEntryOf } from '../../kernel/audit-writer.ts';
import { bloodPressure, measuredTime, ReadingRejected } from '../ingestion/index.ts';
import { auditedPatientRead } from '../../kernel/paged-list.ts';
import { authorize, requirePatientAccess } from '../../kernel/access.ts';
import { auditedTransaction, failure, recordingRefusals } from '../../kernel/audited-transaction.ts';
import { mayAccessPatient, patientListScope } from '../../policies/patients.ts';
import { presentVital, presentVitalSeries } from './vitals.presenter.ts';
import { insertManualVital, readScopedVitalPage, vitalSeries } from './vitals.repository.ts';

/**
 * The most frequent read of the portal (the patient page's table), in one statement after the
 * session check: the access check, the page, the total and the success record together
 * (readScopedVitalPage). No transaction is needed: the page and the total come from one
 * statement's snapshot, the record commits with the read that wrote it, and the answer leaves
 * only after that commit. The statement's scope comes from the patient policy and writes the
 * record only for a visible patient; a refusal is recorded as every patient read's is
 * (recordingRefusals), with the same 404 for a missing patient and another organization's.
 */
export async function listVitals(
  deps: { db: pg.Pool },
  ctx: SignedInContext,
  patientId: number,
  limit: number,
  offset: number,
  range: { from?: string; to?: string } = {},
): Promise<VitalPage> {
  const action = 'vitals.list';
  return recordingRefusals(deps.db, ctx, async () => {
    const read = await readScopedVitalPage(
      deps.db,
      { patientId, visibleOrganization: patientListScope(ctx.actor), limit, offset, from: range.from ?? null, to: range.to ?? null },
      auditEntryOf(ctx, { action, outcome: 'success', resourceType: 'patient', resourceId: patientId }),
    );
    if (!read) {
      throw failure(404, ApiErrors.notFound, { action, resourceType: 'patient', resourceId: patientId, reason: 'no such patient' });
    }
    authorize(mayAccessPatient(ctx.actor, read.patient), {
      action,
      resourceType: 'patient',
      resourceId: patientId,
      reason: 'patient of another organization',
      status: 404,
    });
    // The statement's scope filter comes from the same policy; should they ever disagree, answer
    // nothing rather than an empty page.
    if (!read.visible) throw new Error('vitals scope filter disagrees with the patient policy');
    return { items: read.rows.map(presentVital), total: read.total };
  });
}

export async function readVitalSeries(
  deps: { db: pg.Pool },
  ctx: SignedInContext,
  patientId: number,
  days: number,
): Promise<VitalSeries> {
  return auditedPatientRead(
    deps.db,
    ctx,
    patientId,
    'vitals.list',
    async (tx) => presentVitalSeries(await vitalSeries(tx, patientId, days, VITAL_SERIES_MAX_POINTS)),
    (series) => ({ series_days: days, count: series.t.length }),
  );
}

/** A reading typed in by staff on the patient page: the same rules as device readings, marked manual. */
export async function addManualVital(deps: { db: pg.Pool }, ctx: SignedInContext, patientId: number, body: ManualVitalBody): Promise<Vital> {
  const action = 'vitals.create';
  return auditedTransaction(deps.db, ctx, async (tx) => {
    await requirePatientAccess(tx, ctx, patientId, action);
    let measuredAt: Date;
    let pressure: { systolic: number; diastolic: number };
    try {
      measuredAt = measuredTime(body.measured_at, 'measured_at', null);
      pressure = bloodPressure(body.systolic, body.diastolic, { systolic: 'systolic', diastolic: 'diastolic' }, null);
    } catch (err) {
      if (!(err instanceof ReadingRejected)) throw err;
      throw failure(400, err.message, { action, resourceType: 'patient', resourceId: patientId, reason: err.message });
    }
    const { id, ...row } = await insertManualVital(tx, patientId, { measuredAt, ...pressure, pulse: body.pulse ?? null });
    const vital = presentVital(row);
    await evaluateStoredReadings(tx, [{ id, at: row.created_at }]);
    await audit(tx, ctx, { action, outcome: 'success', resourceType: 'patient', resourceId: patientId, details: { vital_id: id, source: vital.source } });
    return vital;
  });
}
