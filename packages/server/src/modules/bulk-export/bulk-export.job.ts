import {
  BULK_EXPORT_CHUNK_BYTES,
  BULK_EXPORT_FILE_MAX_LINES,
  BULK_EXPORT_PAGE_ROWS,
  BulkExportTexts,
  MEASUREMENT_KINDS,
  type BulkExportType,
} from '@rpm/contracts';
import type { Resource } from '@medplum/fhirtypes';
import type pg from 'pg';
import { withTransaction } from '../../db/pool.ts';
import { audit } from '../../kernel/audit-writer.ts';
import type { RequestContext } from '../../kernel/request-context.ts';
import { presentDevice, presentObservation, presentPatient } from '../fhir/index.ts';
import {
  appendChunk,
  completeExport,
  failExport,
  findExport,
  insertFile,
  lockRunning,
  setProgress,
  startExport,
  type ExportRow,
} from './bulk-export.repository.ts';
import {
  countScopePatients,
  devicesOf,
  observationPage,
  patientPage,
  type ObservationCursor,
} from './bulk-export.resources.repository.ts';
import { scopeOfExport } from './bulk-export.groups.ts';

/** The job acts for nobody: its audit records say so (no user, no address). */
const systemContext = (requestId: string): RequestContext => ({ actor: null, ip: '', userAgent: null, requestId });

/** The export was cancelled (or deleted) while running: stop and leave nothing behind. */
class ExportCancelled extends Error {}

/** The server is shutting down: stop, and let the job's retry start the export over. */
export class ExportInterrupted extends Error {}

const KINDS = MEASUREMENT_KINDS.map((k) => k.kind);

/**
 * NDJSON of one resource type, written as it comes: lines are gathered up to a chunk's size and
 * stored; a file is closed after BULK_EXPORT_FILE_MAX_LINES lines and the next one opened. At
 * most one chunk per type is ever held in memory.
 */
class NdjsonFiles {
  private lines: string[] = [];
  private bytes = 0;
  private fileNo = 0;
  private fileLines = 0;
  private chunkSeq = 0;
  total = 0;

  constructor(
    private readonly db: pg.Pool,
    private readonly exportId: string,
    private readonly type: BulkExportType,
    private readonly nextFileSeq: () => number,
  ) {}

  private get fileName() {
    return `${this.type}-${this.fileNo}.ndjson`;
  }

  async write(resource: Resource): Promise<void> {
    if (this.fileNo === 0 || this.fileLines === BULK_EXPORT_FILE_MAX_LINES) {
      await this.flush();
      this.fileNo++;
      this.fileLines = 0;
      this.chunkSeq = 0;
      await this.store(async (tx) =>
        insertFile(tx, { exportId: this.exportId, fileName: this.fileName, type: this.type, seq: this.nextFileSeq() }),
      );
    }
    const line = `${JSON.stringify(resource)}\n`;
    this.lines.push(line);
    this.bytes += Buffer.byteLength(line);
    this.fileLines++;
    this.total++;
    if (this.bytes >= BULK_EXPORT_CHUNK_BYTES) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.lines.length === 0) return;
    const content = Buffer.from(this.lines.join(''));
    const lines = this.lines.length;
    this.lines = [];
    this.bytes = 0;
    const seq = this.chunkSeq++;
    await this.store((tx) =>
      appendChunk(tx, { exportId: this.exportId, fileName: this.fileName, seq, content, lines }),
    );
  }

  /** Writes only while the export is still running; its row is held so a cancel waits for the write. */
  private async store(write: (tx: pg.PoolClient) => Promise<void>): Promise<void> {
    await withTransaction(this.db, async (tx) => {
      if (!(await lockRunning(tx, this.exportId))) throw new ExportCancelled();
      await write(tx);
    });
  }
}

/**
 * Runs one export: pages through the scope's patients by id (BULK_EXPORT_PAGE_ROWS at a time),
 * and for each page writes the patients, each patient's observations (paged newest first, by the
 * patient's time index) and the devices they hold, each type to its own files. Only resources
 * stored or changed between `_since` and the export's transaction time are written. Records one
 * audit row when done: the group, the number of patients and of resources of each type (a list
 * of patient ids would make a row as large as the export; the group and time say who they were).
 */
export async function runExport(
  db: pg.Pool,
  exportId: string,
  jobId: string,
  shouldStop: () => boolean = () => false,
): Promise<{ status: string; counts?: Record<string, number> }> {
  const ctx = systemContext(`job:${jobId}`);
  const started = await withTransaction(db, (tx) => startExport(tx, exportId));
  if (!started) return { status: 'skipped' };
  try {
    const result = await writeExport(db, started, shouldStop);
    const done = await withTransaction(db, async (tx) => {
      if (!(await completeExport(tx, exportId, result.patients))) return false;
      await audit(tx, ctx, {
        action: 'fhir.export.complete',
        outcome: 'success',
        resourceType: 'bulk_export',
        resourceId: exportId,
        details: {
          organization_id: started.organization_id,
          group: started.group_id ?? 'Patient',
          requester: `${started.requester_kind}:${started.requester_id}`,
          since: started.since?.toISOString() ?? null,
          transaction_time: started.transaction_time?.toISOString() ?? null,
          patient_count: result.patients,
          counts: result.counts,
        },
      });
      return true;
    });
    return { status: done ? 'complete' : 'cancelled', counts: result.counts };
  } catch (err) {
    if (err instanceof ExportCancelled) return { status: 'cancelled' };
    if (err instanceof ExportInterrupted) throw err;
    await withTransaction(db, async (tx) => {
      await failExport(tx, exportId, err instanceof Error ? err.message : String(err));
      await audit(tx, ctx, {
        action: 'fhir.export.complete',
        outcome: 'failure',
        resourceType: 'bulk_export',
        resourceId: exportId,
        reason: 'export failed',
        details: { organization_id: started.organization_id, group: started.group_id ?? 'Patient' },
      });
    });
    throw err;
  }
}

async function writeExport(db: pg.Pool, e: ExportRow, shouldStop: () => boolean) {
  const until = e.transaction_time ?? new Date();
  const since = e.since;
  const types = new Set(e.types);
  let fileSeq = 0;
  const nextFileSeq = () => ++fileSeq;
  const files = {
    Patient: new NdjsonFiles(db, e.id, 'Patient', nextFileSeq),
    Observation: new NdjsonFiles(db, e.id, 'Observation', nextFileSeq),
    Device: new NdjsonFiles(db, e.id, 'Device', nextFileSeq),
  };
  const scope = scopeOfExport(e);
  const total = await countScopePatients(db, scope);
  let patients = 0;
  let afterId = 0;
  for (;;) {
    if (shouldStop()) throw new ExportInterrupted('server stopping');
    const page = await patientPage(db, { scope, afterId, limit: BULK_EXPORT_PAGE_ROWS });
    if (page.length === 0) break;
    afterId = page.at(-1)!.id;
    for (const p of page) {
      patients++;
      const changed = p.updated_at <= until && (since === null || p.updated_at >= since);
      if (types.has('Patient') && changed) await files.Patient.write(presentPatient(p));
      if (types.has('Observation')) await writeObservations(db, files.Observation, p.id, { since, until });
    }
    if (types.has('Device')) {
      for (const d of await devicesOf(
        db,
        page.map((p) => p.id),
        since,
      ))
        await files.Device.write(presentDevice(d));
    }
    await setProgress(db, e.id, BulkExportTexts.progress(patients, total));
    // A cancel between chunks is seen here, even for a page that wrote nothing.
    const now = await findExport(db, e.id);
    if (now?.status !== 'running') throw new ExportCancelled();
  }
  for (const f of Object.values(files)) await f.flush();
  return {
    patients,
    counts: Object.fromEntries(
      Object.entries(files)
        .filter(([t]) => types.has(t))
        .map(([t, f]) => [t, f.total]),
    ),
  };
}

async function writeObservations(
  db: pg.Pool,
  out: NdjsonFiles,
  patientId: number,
  window: { since: Date | null; until: Date },
) {
  let after: ObservationCursor | null = null;
  for (;;) {
    const rows = await observationPage(db, { patientId, kinds: KINDS, ...window, after, limit: BULK_EXPORT_PAGE_ROWS });
    for (const r of rows) {
      const o = presentObservation(r);
      if (o) await out.write(o);
    }
    if (rows.length < BULK_EXPORT_PAGE_ROWS) return;
    const last = rows.at(-1)!;
    after = { at: last.cursor_at, id: last.id };
  }
}
