import { VITAL_SERIES_MAX_POINTS, type VitalPage, type VitalSeries } from '@rpm/contracts';
import type pg from 'pg';
import type { SignedInContext } from '../../plugins/context.ts';
import { audit } from '../audit/audit.service.ts';
import { auditedTransaction, requirePatientAccess } from '../patients/patient-access.ts';
import { countVitals, pageVitals, vitalSeries } from './vitals.repository.ts';

export async function listVitals(
  deps: { db: pg.Pool },
  ctx: SignedInContext,
  patientId: number,
  limit: number,
  offset: number,
): Promise<VitalPage> {
  return auditedTransaction(deps.db, ctx, async (tx) => {
    await requirePatientAccess(tx, ctx, patientId, 'vitals.list');
    const items = await pageVitals(tx, patientId, limit, offset);
    const total = await countVitals(tx, patientId);
    await audit(tx, ctx, {
      action: 'vitals.list',
      outcome: 'success',
      resourceType: 'patient',
      resourceId: patientId,
      details: { limit, offset, count: items.length },
    });
    return { items, total };
  });
}

export async function readVitalSeries(
  deps: { db: pg.Pool },
  ctx: SignedInContext,
  patientId: number,
  days: number,
): Promise<VitalSeries> {
  return auditedTransaction(deps.db, ctx, async (tx) => {
    await requirePatientAccess(tx, ctx, patientId, 'vitals.list');
    const series = await vitalSeries(tx, patientId, days, VITAL_SERIES_MAX_POINTS);
    await audit(tx, ctx, {
      action: 'vitals.list',
      outcome: 'success',
      resourceType: 'patient',
      resourceId: patientId,
      details: { series_days: days, count: series.t.length },
    });
    return series;
  });
}
