import {
  MeasurementTexts,
  PROGRAMS,
  ProgramErrors,
  measurementKind,
  type PatientPrograms,
  type PatientProgramsInput,
  type ProgramInfo,
  type ProgramInput,
  type ProgramList,
} from '@rpm/contracts';
import type pg from 'pg';
import type { SignedInContext } from '../../kernel/request-context.ts';
import { audit } from '../../kernel/audit-writer.ts';
import { auditedPatientRead } from '../../kernel/paged-list.ts';
import { authorize, requirePatientAccess } from '../../kernel/access.ts';
import { auditedTransaction, failure } from '../../kernel/audited-transaction.ts';
import { mayListPrograms, mayManagePrograms } from '../../policies/programs.ts';
import { presentProgram } from './programs.presenter.ts';
import { existingProgramIds, insertProgram, listPrograms, patientProgramIds, setPatientPrograms } from './programs.repository.ts';
import { requestReevaluation } from '../alerts/index.ts';

type Deps = { db: pg.Pool };

/** The built-in programs in the contracts' order, then those admins added, as they were added. */
function builtInOrder(id: string): number {
  const i = PROGRAMS.findIndex((p) => p.id === id);
  return i < 0 ? PROGRAMS.length : i;
}

/** GET /api/programs: every program (the patient form and the settings page offer them). */
export async function getPrograms(deps: Deps, ctx: SignedInContext): Promise<ProgramList> {
  return auditedTransaction(deps.db, ctx, async (tx) => {
    authorize(mayListPrograms(ctx.actor), { action: 'access.denied', resourceType: 'program', reason: 'programs are for staff' });
    const rows = await listPrograms(tx);
    // A stable sort: rows outside PROGRAMS keep the repository's order (as added).
    return { items: [...rows].sort((a, b) => builtInOrder(a.id) - builtInOrder(b.id)).map(presentProgram) };
  });
}

/** POST /api/programs (admins): a new program; its kinds must be kinds of the measurement registry. */
export async function createProgram(deps: Deps, ctx: SignedInContext, input: ProgramInput): Promise<ProgramInfo> {
  const target = { action: 'program.create', resourceType: 'program', resourceId: input.id } as const;
  return auditedTransaction(deps.db, ctx, async (tx) => {
    authorize(mayManagePrograms(ctx.actor), { ...target, reason: 'programs are added by admins' });
    const label = input.label.trim();
    if (!label) throw failure(400, ProgramErrors.labelRequired, { ...target, reason: 'label required' });
    const unknown = input.kinds.find((k) => !measurementKind(k));
    if (unknown !== undefined) throw failure(400, MeasurementTexts.unknownKind(unknown), { ...target, reason: 'unknown kind' });
    const row = await insertProgram(tx, { id: input.id, label, kinds: input.kinds });
    if (!row) throw failure(409, ProgramErrors.programExists(input.id), { ...target, reason: 'duplicate id' });
    await audit(tx, ctx, { ...target, outcome: 'success', details: { label, kinds: input.kinds } });
    return presentProgram(row);
  });
}

/** GET /api/patients/{id}/programs: whoever may read the patient; an audited read. */
export async function getPatientPrograms(deps: Deps, ctx: SignedInContext, patientId: number): Promise<PatientPrograms> {
  return auditedPatientRead(
    deps.db,
    ctx,
    patientId,
    'patient.programs_read',
    async (tx) => ({ programs: await patientProgramIds(tx, patientId) }),
    ({ programs }) => ({ count: programs.length }),
  );
}

/** PUT /api/patients/{id}/programs: whoever may edit the patient; the whole list, audited with before and after. */
export async function updatePatientPrograms(
  deps: Deps,
  ctx: SignedInContext,
  patientId: number,
  input: PatientProgramsInput,
): Promise<PatientPrograms> {
  const target = { action: 'patient.programs_update', resourceType: 'patient', resourceId: patientId } as const;
  return auditedTransaction(deps.db, ctx, async (tx) => {
    // As the patient form's save: the row lock makes concurrent saves of one patient take turns.
    await requirePatientAccess(tx, ctx, patientId, target.action, true);
    const known = await existingProgramIds(tx, input.programs);
    const unknown = input.programs.find((p) => !known.has(p));
    if (unknown !== undefined) throw failure(400, ProgramErrors.unknownProgram(unknown), { ...target, reason: 'unknown program' });
    const before = await patientProgramIds(tx, patientId);
    await setPatientPrograms(tx, patientId, input.programs);
    const after = await patientProgramIds(tx, patientId);
    await audit(tx, ctx, { ...target, outcome: 'success', details: { programs: { from: before, to: after } } });
    // A program changes which thresholds apply (COPD: the oxygen target): the patient's alerts are
    // evaluated again, in a job queued with this change.
    if (before.join() !== after.join()) await requestReevaluation(tx, { cause: 'programs', patient_ids: [patientId] });
    return { programs: after };
  });
}
