import type pg from 'pg';
import type { Queryable } from '../../db/pool.ts';
import type { SignedInContext } from '../../plugins/context.ts';
import { audit, type AuditEvent } from '../audit/audit.service.ts';
import { auditedTransaction, requirePatientAccess } from './patient-access.ts';

/**
 * A read of one patient's records: the access check, the read and its success record, all in
 * one transaction (a refused check is recorded by auditedTransaction). `details` says what was
 * read (sizes and paging, never the records themselves).
 */
export async function auditedPatientRead<T>(
  db: pg.Pool,
  ctx: SignedInContext,
  patientId: number,
  action: string,
  read: (tx: Queryable) => Promise<T>,
  details: (result: T) => AuditEvent['details'],
): Promise<T> {
  return auditedTransaction(db, ctx, async (tx) => {
    await requirePatientAccess(tx, ctx, patientId, action);
    const result = await read(tx);
    await audit(tx, ctx, {
      action,
      outcome: 'success',
      resourceType: 'patient',
      resourceId: patientId,
      details: details(result),
    });
    return result;
  });
}

/** How one kind of patient record is paged: one page of rows, and how many there are in all. */
export interface PagedSource<T> {
  page: (db: Queryable, patientId: number, limit: number, offset: number) => Promise<T[]>;
  count: (db: Queryable, patientId: number) => Promise<number>;
}

/** One page of a patient's records with the total, as the notes, tracking and vitals lists answer. */
export function listPatientPage<T>(
  db: pg.Pool,
  ctx: SignedInContext,
  patientId: number,
  action: string,
  source: PagedSource<T>,
  limit: number,
  offset: number,
): Promise<{ items: T[]; total: number }> {
  return auditedPatientRead(
    db,
    ctx,
    patientId,
    action,
    async (tx) => {
      const items = await source.page(tx, patientId, limit, offset);
      const total = await source.count(tx, patientId);
      return { items, total };
    },
    ({ items }) => ({ limit, offset, count: items.length }),
  );
}
