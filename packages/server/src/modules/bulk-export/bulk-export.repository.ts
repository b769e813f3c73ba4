import { BULK_EXPORT_RETENTION_HOURS, type BulkExportStatus } from '@rpm/contracts';
import { sql } from 'kysely';
import type { Queryable } from '../../db/pool.ts';
import { kysely } from '../../db/kysely.ts';

/** The queue of the export job and of the retention job (created by migration 0992). */
export const BULK_EXPORT_QUEUE = 'fhir-bulk-export';
export const BULK_EXPORT_RETENTION_QUEUE = 'fhir-bulk-export-retention';

/** Who the export covers: a group of an organization, or (group null) all its patients. */
export type ExportScope =
  | { kind: 'organization'; organizationId: number }
  | { kind: 'program'; organizationId: number }
  | { kind: 'panel'; organizationId: number; providerId: number };

export interface ExportRow {
  id: string;
  organization_id: number;
  requester_kind: 'staff' | 'source' | 'client';
  requester_id: string;
  group_id: string | null;
  types: string[];
  since: Date | null;
  status: BulkExportStatus;
  progress: string | null;
  error: string | null;
  request_url: string;
  transaction_time: Date | null;
  patient_count: number | null;
  created_at: Date;
  completed_at: Date | null;
  expires_at: Date | null;
}

const EXPORT_COLUMNS = [
  'id',
  'organization_id',
  'requester_kind',
  'requester_id',
  'group_id',
  'types',
  'since',
  'status',
  'progress',
  'error',
  'request_url',
  'transaction_time',
  'patient_count',
  'created_at',
  'completed_at',
  'expires_at',
] as const;

/** Exports of this requester queued or running. */
export async function countActiveExports(db: Queryable, requester: { kind: string; id: string }): Promise<number> {
  const row = await kysely(db)
    .selectFrom('bulk_exports')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('requester_kind', '=', requester.kind)
    .where('requester_id', '=', requester.id)
    .where('status', 'in', ['queued', 'running'])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Records an export and queues its job in the caller's transaction: the job exists exactly when
 * the export does. Written as pg-boss's own insert would (see alerts.reevaluation.repository.ts),
 * with the queue's retry and an expiry long enough for the largest program.
 */
export async function insertExport(
  db: Queryable,
  e: {
    id: string;
    organizationId: number;
    requester: { kind: 'staff' | 'source' | 'client'; id: string };
    groupId: string | null;
    types: string[];
    since: Date | null;
    requestUrl: string;
  },
): Promise<void> {
  await kysely(db)
    .insertInto('bulk_exports')
    .values({
      id: e.id,
      organization_id: e.organizationId,
      requester_kind: e.requester.kind,
      requester_id: e.requester.id,
      group_id: e.groupId,
      types: e.types,
      since: e.since,
      request_url: e.requestUrl,
    })
    .execute();
  await sql`INSERT INTO pgboss.job (name, data, retry_limit, retry_delay, expire_in)
            VALUES (${BULK_EXPORT_QUEUE}, ${JSON.stringify({ export_id: e.id })}::jsonb, 1, 10, interval '1 hour')`.execute(
    kysely(db),
  );
}

export async function findExport(db: Queryable, id: string): Promise<ExportRow | null> {
  const row = await kysely(db)
    .selectFrom('bulk_exports')
    .select(EXPORT_COLUMNS)
    .where('id', '=', id)
    .executeTakeFirst();
  return (row as ExportRow | undefined) ?? null;
}

/** The export's files in the order the job wrote them. */
export async function exportFiles(db: Queryable, id: string) {
  return kysely(db)
    .selectFrom('bulk_export_files')
    .select(['file_name', 'type', 'seq', 'line_count'])
    .where('export_id', '=', id)
    .orderBy('seq')
    .execute();
}

export async function findFile(db: Queryable, id: string, fileName: string) {
  return (
    (await kysely(db)
      .selectFrom('bulk_export_files')
      .select(['file_name', 'type', 'line_count'])
      .where('export_id', '=', id)
      .where('file_name', '=', fileName)
      .executeTakeFirst()) ?? null
  );
}

/** One stored chunk of a file (null after the last): the download reads one at a time. */
export async function fileChunk(db: Queryable, id: string, fileName: string, seq: number): Promise<Buffer | null> {
  const row = await kysely(db)
    .selectFrom('bulk_export_chunks')
    .select('content')
    .where('export_id', '=', id)
    .where('file_name', '=', fileName)
    .where('seq', '=', seq)
    .executeTakeFirst();
  return row?.content ?? null;
}

/**
 * Cancels an export: marks it and deletes its files. Waits for a chunk being written (which holds
 * the export's row in share mode), so no chunk lands after the files are gone.
 */
export async function cancelExport(db: Queryable, id: string): Promise<void> {
  await kysely(db)
    .updateTable('bulk_exports')
    .set({ status: 'cancelled', progress: null })
    .where('id', '=', id)
    .execute();
  await kysely(db).deleteFrom('bulk_export_files').where('export_id', '=', id).execute();
}

/**
 * Takes a queued export (or one whose earlier run died: the job's retry) for running: fixes its
 * transaction time and drops whatever files an earlier run left. Null when there is nothing to
 * run (cancelled, expired, done).
 */
export async function startExport(db: Queryable, id: string): Promise<ExportRow | null> {
  const row = await kysely(db)
    .updateTable('bulk_exports')
    .set({ status: 'running', transaction_time: sql<Date>`now()`, progress: null })
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'running'])
    .returning(EXPORT_COLUMNS)
    .executeTakeFirst();
  if (!row) return null;
  await kysely(db).deleteFrom('bulk_export_files').where('export_id', '=', id).execute();
  return row as ExportRow;
}

/** Whether the export is still running; holds its row in share mode until the caller's transaction ends. */
export async function lockRunning(db: Queryable, id: string): Promise<boolean> {
  const row = await kysely(db)
    .selectFrom('bulk_exports')
    .select('status')
    .where('id', '=', id)
    .forShare()
    .executeTakeFirst();
  return row?.status === 'running';
}

export async function insertFile(
  db: Queryable,
  f: { exportId: string; fileName: string; type: string; seq: number },
): Promise<void> {
  await kysely(db)
    .insertInto('bulk_export_files')
    .values({ export_id: f.exportId, file_name: f.fileName, type: f.type, seq: f.seq, line_count: 0 })
    .execute();
}

export async function appendChunk(
  db: Queryable,
  c: { exportId: string; fileName: string; seq: number; content: Buffer; lines: number },
): Promise<void> {
  await kysely(db)
    .insertInto('bulk_export_chunks')
    .values({ export_id: c.exportId, file_name: c.fileName, seq: c.seq, content: c.content })
    .execute();
  await kysely(db)
    .updateTable('bulk_export_files')
    .set((eb) => ({ line_count: eb('line_count', '+', c.lines) }))
    .where('export_id', '=', c.exportId)
    .where('file_name', '=', c.fileName)
    .execute();
}

export async function setProgress(db: Queryable, id: string, progress: string): Promise<void> {
  await kysely(db)
    .updateTable('bulk_exports')
    .set({ progress })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .execute();
}

/** Marks a running export complete; it expires the retention's hours later. False if it was cancelled meanwhile. */
export async function completeExport(db: Queryable, id: string, patientCount: number): Promise<boolean> {
  const done = await kysely(db)
    .updateTable('bulk_exports')
    .set({
      status: 'complete',
      progress: null,
      patient_count: patientCount,
      completed_at: sql<Date>`now()`,
      expires_at: sql<Date>`now() + make_interval(hours => ${BULK_EXPORT_RETENTION_HOURS})`,
    })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(done.numUpdatedRows) === 1;
}

export async function failExport(db: Queryable, id: string, error: string): Promise<void> {
  await kysely(db)
    .updateTable('bulk_exports')
    .set({
      status: 'failed',
      error: error.slice(0, 1000),
      completed_at: sql<Date>`now()`,
      expires_at: sql<Date>`now() + make_interval(hours => ${BULK_EXPORT_RETENTION_HOURS})`,
    })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .execute();
  await kysely(db).deleteFrom('bulk_export_files').where('export_id', '=', id).execute();
}

/**
 * Deletes expired exports with their files: complete or failed ones past their expiry, and any
 * other (cancelled, or queued or running and never finished) a retention period after it was asked.
 */
export async function deleteExpiredExports(db: Queryable) {
  return kysely(db)
    .deleteFrom('bulk_exports')
    .where((eb) =>
      eb.or([
        eb('expires_at', '<', sql<Date>`now()`),
        eb('created_at', '<', sql<Date>`now() - make_interval(hours => ${BULK_EXPORT_RETENTION_HOURS})`),
      ]),
    )
    .returning(['id', 'organization_id', 'status'])
    .execute();
}
