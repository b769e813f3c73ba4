// Following an export after its kick-off: its status or manifest, its cancellation, its files' download.
import { Readable } from 'node:stream';
import {
  BULK_EXPORT_RETRY_AFTER_SECONDS,
  BULK_FILES_PATH,
  BulkExportErrors,
  BulkExportTexts,
  type AuditAction,
  type BulkExportManifest,
  type BulkExportType,
} from '@rpm/contracts';
import type { OperationOutcome } from '@medplum/fhirtypes';
import type pg from 'pg';
import { withTransaction } from '../../db/pool.ts';
import { audit } from '../../kernel/audit-writer.ts';
import type { RequestContext } from '../../kernel/request-context.ts';
import { mayFollowExport } from '../../policies/bulk-export.ts';
import type { FhirScopeNeed } from '../../policies/fhir-scopes.ts';
import { notFound, operationOutcome, reader, sourceDetails } from '../fhir/index.ts';
import { isExportType } from './bulk-export.parameters.ts';
import {
  cancelExport,
  exportFiles,
  fileChunk,
  findExport,
  findFile,
  type ExportRow,
} from './bulk-export.repository.ts';
import type { BulkAnswer } from './bulk-export.service.ts';
/**
 * The export a caller follows: theirs (or any, for an administrator), not cancelled, not past its
 * expiry. Anything else, an unknown id included, answers the same 404 and is audited.
 */
async function followedExport(
  db: pg.Pool,
  ctx: RequestContext,
  authorization: string | undefined,
  exportId: string,
  action: AuditAction,
  need: (e: ExportRow | null) => FhirScopeNeed,
) {
  const found = await findExport(db, exportId);
  const who = await reader(db, ctx, authorization, action, need(found));
  const gone = !found || found.status === 'cancelled' || (found.expires_at !== null && found.expires_at <= new Date());
  const theirs = found !== null && mayFollowExport(who, { kind: found.requester_kind, id: found.requester_id });
  if (gone || !theirs) {
    await audit(db, ctx, {
      action,
      outcome: found && !theirs ? 'denied' : 'failure',
      resourceType: 'bulk_export',
      resourceId: exportId,
      reason: !found ? 'no such export' : !theirs ? 'export of another requester' : 'export cancelled or expired',
      details: sourceDetails(who),
    });
    throw notFound();
  }
  return { who, found };
}

/** The status and the files a kick-off needed: its group or its patients. */
const followNeed = (e: ExportRow | null): FhirScopeNeed => ({
  resourceType: e?.group_id ? 'Group' : 'Patient',
  interaction: 's',
});

/** The status request: 202 with progress while it runs, the manifest when complete, 500 when it failed. */
export async function exportStatus(
  db: pg.Pool,
  ctx: RequestContext,
  authorization: string | undefined,
  exportId: string,
  baseUrl: string,
): Promise<BulkAnswer> {
  const action = 'fhir.export.status';
  const { who, found } = await followedExport(db, ctx, authorization, exportId, action, followNeed);
  await audit(db, ctx, {
    action,
    outcome: 'success',
    resourceType: 'bulk_export',
    resourceId: exportId,
    details: { ...sourceDetails(who), status: found.status },
  });
  if (found.status === 'queued' || found.status === 'running') {
    return {
      status: 202,
      headers: {
        'x-progress': found.progress ?? BulkExportTexts.queued,
        'retry-after': String(BULK_EXPORT_RETRY_AFTER_SECONDS),
      },
    };
  }
  if (found.status === 'failed') {
    const outcome: OperationOutcome = operationOutcome('fatal', 'exception', BulkExportErrors.failed);
    return { status: 500, body: outcome, json: 'fhir' };
  }
  const files = await exportFiles(db, exportId);
  const manifest: BulkExportManifest = {
    transactionTime: (found.transaction_time ?? found.created_at).toISOString(),
    request: found.request_url,
    requiresAccessToken: true,
    output: files
      .filter((f) => isExportType(f.type))
      .map((f) => ({
        type: f.type as BulkExportType,
        url: `${baseUrl}${BULK_FILES_PATH}/${exportId}/${f.file_name}`,
        count: f.line_count,
      })),
    error: [],
  };
  return {
    status: 200,
    headers: found.expires_at ? { expires: found.expires_at.toUTCString() } : {},
    body: manifest,
    json: 'plain',
  };
}

/** DELETE on the status URL: stops the job and deletes the files; the export then answers 404. */
export async function cancel(
  db: pg.Pool,
  ctx: RequestContext,
  authorization: string | undefined,
  exportId: string,
): Promise<BulkAnswer> {
  const action = 'fhir.export.cancel';
  const { who, found } = await followedExport(db, ctx, authorization, exportId, action, followNeed);
  await withTransaction(db, async (tx) => {
    await cancelExport(tx, exportId);
    await audit(tx, ctx, {
      action,
      outcome: 'success',
      resourceType: 'bulk_export',
      resourceId: exportId,
      details: { ...sourceDetails(who), status_before: found.status },
    });
  });
  return {
    status: 202,
    body: operationOutcome('information', 'informational', BulkExportTexts.cancelled),
    json: 'fhir',
  };
}

/** The type a file holds, from its name (`Observation-2.ndjson`). */
const typeOfFile = (fileName: string) => fileName.split('-')[0] ?? '';

/**
 * One NDJSON file, streamed chunk by chunk from the database (one chunk in memory at a time), to
 * whoever asked for the export; audited with the file's size and the export's patient count.
 */
export async function downloadFile(
  db: pg.Pool,
  ctx: RequestContext,
  authorization: string | undefined,
  exportId: string,
  fileName: string,
): Promise<Readable> {
  const action = 'fhir.export.download';
  const type = typeOfFile(fileName);
  const need = (): FhirScopeNeed => ({ resourceType: isExportType(type) ? type : 'Patient', interaction: 'r' });
  const { who, found } = await followedExport(db, ctx, authorization, exportId, action, need);
  const file = found.status === 'complete' ? await findFile(db, exportId, fileName) : null;
  if (!file) {
    await audit(db, ctx, {
      action,
      outcome: 'failure',
      resourceType: 'bulk_export',
      resourceId: exportId,
      reason: 'no such file',
      details: { ...sourceDetails(who), file: fileName },
    });
    throw notFound();
  }
  await audit(db, ctx, {
    action,
    outcome: 'success',
    resourceType: 'bulk_export',
    resourceId: exportId,
    details: {
      ...sourceDetails(who),
      organization_id: found.organization_id,
      group: found.group_id ?? 'Patient',
      file: fileName,
      type: file.type,
      resources: file.line_count,
      patient_count: found.patient_count,
    },
  });
  return Readable.from(chunks(db, exportId, fileName));
}

async function* chunks(db: pg.Pool, exportId: string, fileName: string) {
  for (let seq = 0; ; seq++) {
    const chunk = await fileChunk(db, exportId, fileName, seq);
    if (!chunk) return;
    yield chunk;
  }
}
