import type { AuditAction } from '@rpm/contracts';
import type pg from 'pg';
import type { Queryable } from '../db/pool.ts';
import type { SignedInContext } from './request-context.ts';
import { audit, type AuditEvent } from './audit-writer.ts';
import { requirePatientAccess } from './access.ts';
import { auditedTransaction } from './audited-transaction.ts';

/**
 * A read of one patient's records: the access check, the read and its success record, all in
 * one transaction (a refused check is recorded by auditedTransaction). `details` says what was
 * read (sizes and paging, never the records themselves).
 */
export async function auditedPatientRead<T>(
  db: pg.Pool,
  ctx: SignedInContext,
  patientId: number,
  action: AuditAction,
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

/**
 * How one kind of patient record is paged: one page of rows, how many there are in all, and how
 * a row is answered.
 */
export interface PagedSource<Row, T> {
  page: (db: Queryable, patientId: number, limit: number, offset: number) => Promise<Row[]>;
  count: (db: Queryable, patientId: number) => Promise<number>;
  present: (row: Row) => T;
}

/** One page of a patient's records with the total, as the notes, tracking and vitals lists answer. */
export function listPatientPage<Row, T>(
  db: pg.Pool,
  ctx: SignedInContext,
  patientId: number,
  action: AuditAction,
  source: PagedSource<Row, T>,
  limit: number,
  offset: number,
): Promise<{ items: T[]; total: number }> {
  return auditedPatientRead(
    db,
    ctx,
    patientId,
    action,
    async (tx) => {
      const items = (await source.page(tx, patientId, limit, offset)).map(source.present);
      const total = await source.count(tx, patientId);
      return { items, total };
    },
    ({ items }) => ({ limit, offset, count: items.length }),
  );
}
