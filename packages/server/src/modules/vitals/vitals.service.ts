import { VITAL_SERIES_MAX_POINTS, type VitalPage, type VitalSeries } from '@rpm/contracts';
import type pg from 'pg';
import type { SignedInContext } from '../../plugins/context.ts';
import { auditedPatientRead, listPatientPage } from '../patients/paged-list.ts';
import { countVitals, pageVitals, vitalSeries } from './vitals.repository.ts';

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
    { page: pageVitals, count: countVitals },
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
    (tx) => vitalSeries(tx, patientId, days, VITAL_SERIES_MAX_POINTS),
    (series) => ({ series_days: days, count: series.t.length }),
  );
}
