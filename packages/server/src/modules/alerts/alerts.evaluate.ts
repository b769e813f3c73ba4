import {
  ALERT_SEVERITY_RANK,
  BP_CRISIS_CONFIRM_MINUTES,
  DEFAULT_BP_WINDOW_MIN_READINGS,
  effectiveThresholds,
  GLUCOSE_HIGH_PAIR_HOURS,
  SPO2_PAIR_MINUTES,
  type AlertRule,
  type AlertValues,
} from '@rpm/contracts';
import type { Queryable } from '../../db/pool.ts';
import {
  bpCategory,
  bpReadingRules,
  bpWindowRules,
  gainMet,
  glucoseCategory,
  glucoseCompletesHighPair,
  glucoseReadingRules,
  glucoseStartsHighPair,
  isFever,
  mean,
  pulseCategory,
  pulseWindowRules,
  severityOf,
  spo2BelowTarget,
  spo2Category,
  spo2Critical,
  temperatureCategory,
  weightGain,
  type ClassifyOptions,
} from './alert-rules.ts';
import {
  closeStaleAlerts,
  notifyAlertChanges,
  raiseAlert,
  readingsToCheck,
  type AlertChange,
  type ReadingToCheck,
  type StoredReading,
  type WindowReading,
} from './alerts.repository.ts';
import { readingsAround, setCleared, weightBaselines } from './alerts.window.repository.ts';

/**
 * What one evaluation says of a rule: met (with the values the alert shows), not met (an open
 * alert of the rule is marked cleared), or nothing (not enough readings to say: left as it is).
 */
type Verdict =
  { rule: AlertRule; met: true; values: AlertValues; confirmed?: boolean } | { rule: AlertRule; met: false };

/**
 * How verdicts are applied. `reading`: a new reading, each met rule raises its alert or counts
 * on the open one. `reevaluate`: stored readings judged again (thresholds or programs changed):
 * an open alert is only marked cleared or not (nothing new was measured, nothing is counted), and
 * a rule met with no open alert raises one only when `raiseNew` allows it.
 */
export type EvaluationMode = { mode: 'reading' } | { mode: 'reevaluate'; raiseNew: (r: ReadingToCheck) => boolean };

/**
 * Checks readings just stored, in the storing transaction (`tx`), against the rules of their
 * kind with the patient's thresholds: each met rule raises its alert or counts on the open one,
 * a rule no longer met marks its open alert cleared, an open stale-data alert ends, and every
 * instance hears of the changes once the transaction commits. Only patients enrolled in RPM with
 * status Active are checked. Blood-pressure readings that break nothing cost one query however
 * many they are (the readings with their patients' settings and their windows). Callers: device
 * ingestion, FHIR, manual readings, the demo seed.
 */
export async function evaluateStoredReadings(tx: Queryable, stored: StoredReading[]): Promise<AlertChange[]> {
  const readings = await readingsToCheck(tx, stored);
  if (readings.length === 0) return [];
  const changes = await evaluateReadings(tx, readings, { mode: 'reading' });
  const stale = [...new Set(readings.filter((r) => r.stale_open).map((r) => r.patient_id))];
  if (stale.length) {
    const closed = await closeStaleAlerts(tx, stale);
    await notifyAlertChanges(tx, closed);
    changes.push(...closed);
  }
  return changes;
}

/** Evaluates each reading of an active patient and applies the verdicts; answers the alerts that changed. */
export async function evaluateReadings(
  db: Queryable,
  readings: ReadingToCheck[],
  how: EvaluationMode,
): Promise<AlertChange[]> {
  const changes: AlertChange[] = [];
  // The open rules as this batch changes them (a batch may hold several readings of a patient).
  const openRules = new Map<number, Set<AlertRule>>();
  // Each reading's blood-pressure and pulse window came with it (readingsToCheck), read after
  // all the batch's readings were stored; evaluating writes alerts only, never readings.
  for (const r of readings) {
    if (!r.active) continue;
    const open = openRules.get(r.patient_id) ?? new Set(r.open_rules);
    openRules.set(r.patient_id, open);
    const o: ClassifyOptions = {
      thresholds: effectiveThresholds(r.organization, r.patient, r.programs),
      programs: r.programs,
    };
    const verdicts = await verdictsOf(db, r, o, r.window ?? undefined);
    changes.push(...(await apply(db, r, open, verdicts, how)));
  }
  return changes;
}

/** Met again only on readings measured after the rule's last resolution for the patient. */
const after = (r: ReadingToCheck, rule: AlertRule) => {
  const resolvedAt = r.resolved[rule];
  return (at: Date) => resolvedAt === undefined || at.getTime() > new Date(resolvedAt).getTime();
};

const round1 = (v: number) => Math.round(v * 10) / 10;
const pick = (rule: AlertRule, met: boolean, values: AlertValues, confirmed?: boolean): Verdict =>
  met ? { rule, met, values, ...(confirmed === undefined ? {} : { confirmed }) } : { rule, met };

type Window = { from: Date; readings: WindowReading[] };

async function verdictsOf(
  db: Queryable,
  r: ReadingToCheck,
  o: ClassifyOptions,
  window: Window | undefined,
): Promise<Verdict[]> {
  const c = r.components;
  const at = r.measured_at.toISOString();
  const out: Verdict[] = [];
  const hasPressure = c.systolic !== undefined && c.diastolic !== undefined;
  if (hasPressure) {
    const values: AlertValues = {
      systolic: c.systolic!,
      diastolic: c.diastolic!,
      pulse: c.pulse ?? null,
      measured_at: at,
    };
    const one = bpReadingRules(bpCategory(c, o));
    let confirmed: boolean | undefined;
    if (one.bp_crisis) {
      // ACC/AHA 2017: a severe reading is repeated after a few minutes; a second one confirms it.
      const around = await readingsAround(db, {
        patientId: r.patient_id,
        kind: r.kind,
        at: r.measured_at,
        minutes: BP_CRISIS_CONFIRM_MINUTES,
        exceptId: r.vital_id,
      });
      confirmed = around.some((x) => bpReadingRules(bpCategory(x.components, o)).bp_crisis);
    }
    out.push(pick('bp_crisis', one.bp_crisis, values, confirmed), pick('bp_low_severe', one.bp_low_severe, values));
    if (r.irregular !== null)
      out.push(pick('irregular_heartbeat', r.irregular, { ...values, irregular_heartbeat: true }));
  }
  if (window) out.push(...windowVerdicts(window, r, o, hasPressure, c.pulse !== undefined));
  if (c.weight !== undefined) {
    const base = await weightBaselines(db, { patientId: r.patient_id, at: r.measured_at, timeZone: r.time_zone });
    for (const [rule, before, limit] of [
      ['weight_gain_day', base.day, o.thresholds.weight_gain_day],
      ['weight_gain_week', base.week, o.thresholds.weight_gain_week],
    ] as const) {
      if (before === null) continue;
      const gain = weightGain(c.weight, before);
      out.push(pick(rule, gainMet(gain, limit), { weight: c.weight, gain, measured_at: at }));
    }
  }
  if (c.glucose !== undefined) out.push(...(await glucoseVerdicts(db, r, o, c.glucose)));
  if (c.spo2 !== undefined) out.push(...(await spo2Verdicts(db, r, o, c.spo2)));
  if (c.temperature !== undefined) {
    out.push(
      pick('fever', isFever(temperatureCategory(c.temperature, o)), { temperature: c.temperature, measured_at: at }),
    );
  }
  return out;
}

/**
 * The window rules: the means of the patient's readings over the organization's window (ACC/AHA
 * 2017, section 4.2: home blood pressure is judged on a week's average, not one reading), each
 * rule counting only readings after its own last resolution. Fewer readings than the minimum say
 * nothing (no alert, and an open one is neither cleared nor un-cleared).
 */
function windowVerdicts(
  w: Window,
  r: ReadingToCheck,
  o: ClassifyOptions,
  pressure: boolean,
  pulse: boolean,
): Verdict[] {
  const min = r.bp_window_min_readings ?? DEFAULT_BP_WINDOW_MIN_READINGS;
  const out: Verdict[] = [];
  const windowOf = (rule: AlertRule, has: (x: WindowReading) => boolean) => {
    const isAfter = after(r, rule);
    const rows = w.readings.filter((x) => has(x) && isAfter(x.at));
    const resolvedAt = r.resolved[rule];
    const from = resolvedAt !== undefined && new Date(resolvedAt) > w.from ? new Date(resolvedAt) : w.from;
    const common = { mean_of: rows.length, window_from: from.toISOString(), measured_at: r.measured_at.toISOString() };
    return { rows, common, enough: rows.length >= min };
  };
  if (pressure) {
    for (const rule of ['bp_stage2', 'bp_low'] as const) {
      const { rows, common, enough } = windowOf(rule, (x) => x.systolic !== null && x.diastolic !== null);
      if (!enough) continue;
      const systolic = mean(rows.map((x) => x.systolic!))!;
      const diastolic = mean(rows.map((x) => x.diastolic!))!;
      const met = bpWindowRules(bpCategory({ systolic, diastolic }, o))[rule];
      out.push(pick(rule, met, { systolic: round1(systolic), diastolic: round1(diastolic), ...common }));
    }
  }
  if (pulse) {
    for (const rule of ['pulse_low', 'pulse_high'] as const) {
      const { rows, common, enough } = windowOf(rule, (x) => x.pulse !== null);
      if (!enough) continue;
      const m = mean(rows.map((x) => x.pulse!))!;
      out.push(pick(rule, pulseWindowRules(pulseCategory(m, o))[rule], { pulse: round1(m), ...common }));
    }
  }
  return out;
}

/** ADA 2025 section 6: hypoglycemia levels 1 and 2 and very high on one reading; high on two within 24 hours. */
async function glucoseVerdicts(
  db: Queryable,
  r: ReadingToCheck,
  o: ClassifyOptions,
  value: number,
): Promise<Verdict[]> {
  const values: AlertValues = { glucose: value, measured_at: r.measured_at.toISOString() };
  const category = glucoseCategory(value, o);
  const one = glucoseReadingRules(category);
  const out: Verdict[] = [
    pick('glucose_very_low', one.glucose_very_low, values),
    pick('glucose_low', one.glucose_low, values),
    pick('glucose_very_high', one.glucose_very_high, values),
  ];
  if (!glucoseCompletesHighPair(category)) return [...out, pick('glucose_high', false, values)];
  // A pair is one 'high' reading and another at least as high (a 'very_high' one alerts by itself).
  const partner = glucoseStartsHighPair(category) ? glucoseCompletesHighPair : glucoseStartsHighPair;
  const isAfter = after(r, 'glucose_high');
  const around = await readingsAround(db, {
    patientId: r.patient_id,
    kind: r.kind,
    at: r.measured_at,
    minutes: GLUCOSE_HIGH_PAIR_HOURS * 60,
    exceptId: r.vital_id,
  });
  const paired = around.some(
    (x) => isAfter(x.at) && x.components.glucose !== undefined && partner(glucoseCategory(x.components.glucose, o)),
  );
  if (paired) out.push(pick('glucose_high', true, values));
  return out;
}

/** BTS 2017 / NEWS2: below the patient's target on two readings within an hour; below critical once. */
async function spo2Verdicts(db: Queryable, r: ReadingToCheck, o: ClassifyOptions, value: number): Promise<Verdict[]> {
  const values: AlertValues = { spo2: value, measured_at: r.measured_at.toISOString() };
  const category = spo2Category(value, o);
  const out: Verdict[] = [pick('spo2_critical', spo2Critical(category), values)];
  if (!spo2BelowTarget(category)) return [...out, pick('spo2_low', false, values)];
  const isAfter = after(r, 'spo2_low');
  const around = await readingsAround(db, {
    patientId: r.patient_id,
    kind: r.kind,
    at: r.measured_at,
    minutes: SPO2_PAIR_MINUTES,
    exceptId: r.vital_id,
  });
  // One low reading may be a poor probe contact: a second within the hour makes it an alert.
  if (
    around.some(
      (x) => isAfter(x.at) && x.components.spo2 !== undefined && spo2BelowTarget(spo2Category(x.components.spo2, o)),
    )
  ) {
    out.push(pick('spo2_low', true, values));
  }
  return out;
}

/** Raises or counts the met rules, marks the unmet ones' open alerts cleared; answers the changes. */
async function apply(
  db: Queryable,
  r: ReadingToCheck,
  open: Set<AlertRule>,
  verdicts: Verdict[],
  how: EvaluationMode,
): Promise<AlertChange[]> {
  const changes: AlertChange[] = [];
  const unclear: AlertRule[] = [];
  for (const v of verdicts) {
    if (!v.met) continue;
    // A resolved alert does not come back on the readings it was resolved with.
    if (!after(r, v.rule)(r.measured_at)) continue;
    if (how.mode === 'reevaluate' && open.has(v.rule)) {
      unclear.push(v.rule);
      continue;
    }
    if (how.mode === 'reevaluate' && !how.raiseNew(r)) continue;
    const severity = severityOf(v.rule);
    const change = await raiseAlert(db, {
      patientId: r.patient_id,
      organizationId: r.organization_id,
      rule: v.rule,
      severity,
      severityRank: ALERT_SEVERITY_RANK[severity],
      at: r.measured_at,
      values: v.values,
      vitalId: r.vital_id,
      confirmed: v.rule === 'bp_crisis' ? (v.confirmed ?? false) : null,
    });
    open.add(v.rule);
    // raiseAlert announces its own change.
    const { created: _created, ...slim } = change;
    changes.push(slim);
  }
  const cleared = verdicts.filter((v) => !v.met && open.has(v.rule)).map((v) => v.rule);
  const quiet = [
    ...(await setCleared(db, { patientId: r.patient_id, rules: cleared, clearedAt: r.measured_at, at: r.measured_at })),
    ...(await setCleared(db, { patientId: r.patient_id, rules: unclear, clearedAt: null, at: r.measured_at })),
  ];
  await notifyAlertChanges(db, quiet);
  return [...changes, ...quiet];
}
