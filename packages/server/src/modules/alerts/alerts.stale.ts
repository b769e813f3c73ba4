import { ALERT_SEVERITY_RANK, DEFAULT_STALE_DAYS } from '@rpm/contracts';
import type pg from 'pg';
import { withTransaction } from '../../db/pool.ts';
import { notifyAlertChanges, type AlertChange } from './alerts.repository.ts';
import { raiseOrRefreshStale, stalePatients } from './alerts.stale.repository.ts';

/** The stale-data check (run by the job queue, once per scheduled run across instances). */
export async function checkStaleData(db: pg.Pool): Promise<{ raised: number; refreshed: number }> {
  return withTransaction(db, async (tx) => {
    const stale = await stalePatients(tx, DEFAULT_STALE_DAYS);
    const changes: AlertChange[] = [];
    let raised = 0;
    for (const s of stale) {
      const change = await raiseOrRefreshStale(tx, {
        patientId: s.patient_id,
        organizationId: s.organization_id,
        severityRank: ALERT_SEVERITY_RANK.info,
        values: { days_without_reading: s.days },
      });
      if (change) {
        changes.push(change);
        if (change.created) raised++;
      }
    }
    await notifyAlertChanges(tx, changes);
    return { raised, refreshed: changes.length - raised };
  });
}
