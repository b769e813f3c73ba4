import {
  ApiErrors,
  MeasurementTexts,
  componentOf,
  measurementKind,
  type DisplayUnits,
  type OrganizationDisplayUnits,
} from '@rpm/contracts';
import type pg from 'pg';
import type { SignedInContext } from '../../kernel/request-context.ts';
import { audit } from '../../kernel/audit-writer.ts';
import { authorize } from '../../kernel/access.ts';
import { auditedTransaction, failure } from '../../kernel/audited-transaction.ts';
import { mayChangeDisplayUnits, mayReadDisplayUnits } from '../../policies/display-units.ts';
import { presentDisplayUnits } from './organizations.presenter.ts';
import { findDisplayUnits, setDisplayUnits } from './organizations.repository.ts';

/**
 * GET /api/organizations/{id}/display-units: admins, and the organization's own staff (their
 * pages show values in them). Another organization's answers 404, as one that does not exist.
 */
export async function getDisplayUnits(db: pg.Pool, ctx: SignedInContext, id: number): Promise<OrganizationDisplayUnits> {
  const target = { action: 'organization.display_units_read', resourceType: 'organization', resourceId: id } as const;
  return auditedTransaction(db, ctx, async (tx) => {
    authorize(mayReadDisplayUnits(ctx.actor, { id }), { ...target, reason: 'another organization', status: 404 });
    const stored = await findDisplayUnits(tx, id);
    if (stored === undefined) throw failure(404, ApiErrors.notFound, { ...target, reason: 'not found' });
    const units = presentDisplayUnits(stored);
    await audit(tx, ctx, { ...target, outcome: 'success' });
    return units;
  });
}

/** The first kind or unit the registry does not know, as the refusal's message; undefined when all are known. */
function unknownUnitOrKind(units: DisplayUnits): string | undefined {
  for (const [name, ucum] of Object.entries(units)) {
    const kind = measurementKind(name);
    if (!kind) return MeasurementTexts.unknownKind(name);
    // A display unit is one of the kind's unit choices (the canonical unit is always one).
    if (!kind.unitChoices.some((u) => u.ucum === ucum)) {
      return MeasurementTexts.unknownUnit(ucum, componentOf(kind, kind.primary)?.label ?? kind.label);
    }
  }
  return undefined;
}

/** PUT /api/organizations/{id}/display-units (admins): the whole map, each kind and unit checked against the registry. */
export async function updateDisplayUnits(
  db: pg.Pool,
  ctx: SignedInContext,
  id: number,
  body: OrganizationDisplayUnits,
): Promise<OrganizationDisplayUnits> {
  const target = { action: 'organization.display_units_update', resourceType: 'organization', resourceId: id } as const;
  return auditedTransaction(db, ctx, async (tx) => {
    authorize(mayChangeDisplayUnits(ctx.actor), { ...target, reason: 'display units are set by admins' });
    const refusal = unknownUnitOrKind(body.display_units);
    if (refusal !== undefined) throw failure(400, refusal, { ...target, reason: refusal });
    const before = await findDisplayUnits(tx, id);
    if (before === undefined || !(await setDisplayUnits(tx, id, body.display_units))) {
      throw failure(404, ApiErrors.notFound, { ...target, reason: 'not found' });
    }
    const after = presentDisplayUnits(body.display_units);
    await audit(tx, ctx, { ...target, outcome: 'success', details: { from: presentDisplayUnits(before).display_units, to: after.display_units } });
    return after;
  });
}
