import { VITAL_SERIES_MAX_POINTS, type ManualVitalBody, type Vital, type VitalPage, type VitalSeries } from '@rpm/contracts';
import type pg from 'pg';
import type { SignedInContext } from '../../plugins/context.ts';
import { evaluateStoredReadings } from '../alerts/alerts.service.ts';
import { audit } from '../audit/audit.service.ts';
import { bloodPressure, measuredTime, ReadingRejected } from '../ingestion/reading-rules.ts';
import { auditedPatientRead, listPatientPage } from '../../kernel/paged-list.ts';
import { requirePatientAccess } from '../../kernel/access.ts';
import { auditedTransaction, failure } from '../../kernel/audited-transaction.ts';
import { presentVital, presentVitalSeries } from '../../presenters/vitals.ts';
import { countVitals, insertManualVital, pageVitals, vitalSeries } from './vitals.repository.ts';

export async function listVitals(
  deps: { db: pg.Pool },
  ctx: SignedInContext,
  patientId: number,
  limit: number,
  offset: number,
): Promise<VitalPage> {
  return listPatientPage(
    deps.db,
    ctx,
    patientId,
    'vitals.list',
    { page: pageVitals, count: countVitals, present: presentVital },
    limit,
    offset,
  );
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
    await evaluateStoredReadings(tx, [id]);
    await audit(tx, ctx, { action, outcome: 'success', resourceType: 'patient', resourceId: patientId, details: { vital_id: id, source: vital.source } });
    return vital;
  });
}
