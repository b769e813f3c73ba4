import {
  BillingErrors,
  MEASUREMENT_KINDS,
  MeasurementTexts,
  checkComponents,
  componentOf,
  measurementKind,
  toCanonical,
  unitChoiceFor,
  type MeasurementKind,
  type Observation,
  type ObservationInput,
  type ObservationPage,
  type ObservationQuery,
  type ObservationSummary,
} from '@rpm/contracts';
import type pg from 'pg';
import type { SignedInContext } from '../../kernel/request-context.ts';
import { audit } from '../../kernel/audit-writer.ts';
import { auditedPatientRead } from '../../kernel/paged-list.ts';
import { requirePatientAccess } from '../../kernel/access.ts';
import { auditedTransaction, failure, recordingRefusals } from '../../kernel/audited-transaction.ts';
import { isClosedMonthRefusal } from '../../kernel/errors.ts';
import { evaluateStoredReadings } from '../alerts/index.ts';
import { readingsInClosedMonths } from '../billing/index.ts';
import { bloodPressure, measuredTime, ReadingRejected } from '../ingestion/index.ts';
import { presentObservation, presentSummary } from './observations.presenter.ts';
import {
  countObservations,
  insertManualObservation,
  pageObservations,
  summarizeObservations,
} from './observations.repository.ts';

type Deps = { db: pg.Pool };

/** The registry's kind, or a 400 with the registry's text (recorded: the caller asked for nothing known). */
function knownKind(name: string, action: 'observation.list' | 'observation.create', patientId: number): MeasurementKind {
  const kind = measurementKind(name);
  if (kind) return kind;
  throw failure(400, MeasurementTexts.unknownKind(name), { action, resourceType: 'patient', resourceId: patientId, reason: 'unknown kind' });
}

/**
 * GET /api/patients/{id}/observations: one kind, newest first, with the total (the per-kind
 * counter without a time range, a count of the range with one). One audited read.
 */
export async function listObservations(deps: Deps, ctx: SignedInContext, patientId: number, query: ObservationQuery): Promise<ObservationPage> {
  const action = 'observation.list';
  const limit = query.limit ?? 10;
  const offset = query.offset ?? 0;
  const range = {
    ...(query.from === undefined ? {} : { from: new Date(query.from) }),
    ...(query.to === undefined ? {} : { to: new Date(query.to) }),
  };
  return auditedPatientRead(
    deps.db,
    ctx,
    patientId,
    action,
    async (tx) => {
      const kind = knownKind(query.kind, action, patientId);
      const rows = await pageObservations(tx, patientId, kind.kind, range, limit, offset);
      const total = await countObservations(tx, patientId, kind.kind, range);
      return { items: rows.map(presentObservation), total };
    },
    ({ items }) => ({
      kind: query.kind,
      limit,
      offset,
      count: items.length,
      ...(query.from === undefined ? {} : { from: query.from }),
      ...(query.to === undefined ? {} : { to: query.to }),
    }),
  );
}

/** GET /api/patients/{id}/observations/summary: per kind the patient has (registry order), its total and latest. */
export async function summarizePatientObservations(deps: Deps, ctx: SignedInContext, patientId: number): Promise<ObservationSummary> {
  return auditedPatientRead(
    deps.db,
    ctx,
    patientId,
    'observation.summary',
    async (tx) => {
      const rows = await summarizeObservations(tx, patientId);
      const order = (kind: string) => MEASUREMENT_KINDS.findIndex((k) => k.kind === kind);
      return presentSummary(rows.filter((r) => order(r.kind) >= 0).sort((a, b) => order(a.kind) - order(b.kind)));
    },
    (summary) => ({ kinds: summary.kinds.map((k) => k.kind), count: summary.kinds.filter((k) => k.latest !== null).length }),
  );
}

/**
 * The values of a typed-in reading in the kind's canonical units. `unit` applies to the
 * components stored in the primary component's unit (a cuff's systolic and diastolic); the others
 * (a cuff's pulse) are given in their own canonical unit. Undefined when `unit` is not one of the kind's.
 */
function canonicalValues(kind: MeasurementKind, values: Record<string, number>, unit: string): Record<string, number> | undefined {
  const primaryUcum = componentOf(kind, kind.primary)?.ucum;
  if (!unitChoiceFor(kind, kind.primary, unit)) return undefined;
  const converted: Record<string, number> = {};
  for (const [code, value] of Object.entries(values)) {
    const definition = componentOf(kind, code);
    // An unknown component is left for checkComponents to name.
    converted[code] = definition && definition.ucum === primaryUcum ? (toCanonical(kind, code, value, unit) ?? value) : value;
  }
  return converted;
}

/**
 * A pair of pressures is checked as the vitals form's: systolic above diastolic (the ingestion's
 * reading rule). Kinds without such a pair have no rule between their components.
 */
function checkPair(values: Record<string, number>): void {
  const { systolic, diastolic } = values;
  if (systolic === undefined || diastolic === undefined) return;
  bloodPressure(systolic, diastolic, { systolic: 'systolic', diastolic: 'diastolic' }, null);
}

/**
 * POST /api/patients/{id}/observations: a reading typed in by staff on the patient page, under
 * the rules of the manual vitals form: any kind of the registry, its values converted from the
 * given unit and checked against the registry's ranges, not in the future, not in a month closed
 * for billing; stored as 'manual', evaluated for alerts and audited in one transaction.
 */
export async function addManualObservation(deps: Deps, ctx: SignedInContext, patientId: number, body: ObservationInput): Promise<Observation> {
  const action = 'observation.create';
  const target = { action, resourceType: 'patient', resourceId: patientId } as const;
  const refuse = (message: string, reason = message, status = 400) => failure(status, message, { ...target, reason });
  try {
    return await auditedTransaction(deps.db, ctx, async (tx) => {
      await requirePatientAccess(tx, ctx, patientId, action);
      const kind = knownKind(body.kind, action, patientId);
      const primary = componentOf(kind, kind.primary);
      const unit = body.unit ?? primary?.ucum ?? '';
      const given = canonicalValues(kind, body.components, unit);
      if (!given) throw refuse(MeasurementTexts.unknownUnit(unit, primary?.label ?? kind.label), 'unknown unit');
      const check = checkComponents(kind, given);
      if (!check.ok) throw refuse(check.message);
      let measuredAt: Date;
      try {
        measuredAt = measuredTime(body.created_at, 'created_at', null);
        checkPair(check.values);
      } catch (err) {
        if (!(err instanceof ReadingRejected)) throw err;
        throw refuse(err.message);
      }
      const [closed] = await readingsInClosedMonths(tx, [{ patientId, at: measuredAt.toISOString() }]);
      if (closed) throw refuse(BillingErrors.monthClosed, 'month closed for billing', 409);
      const row = await insertManualObservation(tx, patientId, {
        kind: kind.kind,
        measuredAt,
        components: check.values,
        unit: primary?.ucum ?? unit,
      });
      await evaluateStoredReadings(tx, [{ id: row.id, at: row.created_at }]);
      await audit(tx, ctx, { ...target, outcome: 'success', details: { observation_id: row.id, kind: kind.kind, source: row.source } });
      return presentObservation(row);
    });
  } catch (err) {
    // Closed between the check and the insert: the database's trigger refused it.
    if (!isClosedMonthRefusal(err)) throw err;
    return recordingRefusals(deps.db, ctx, () => {
      throw refuse(BillingErrors.monthClosed, 'month closed for billing', 409);
    });
  }
}
