import {
  canonicalUnitLabel,
  MEASUREMENT_KINDS,
  program,
  roundTo,
  unitChoiceFor,
  type BillingCodeUnits,
  type ClassifyContext,
  type MeasurementKind,
  type MonthlySummary,
  type SummaryAlerts,
  type SummaryKind,
} from '@rpm/contracts';
import type { SummaryHead, SummaryReading } from './summaries.repository.ts';

const registry: readonly MeasurementKind[] = MEASUREMENT_KINDS;

/**
 * Each registered kind the patient has readings of in the month, in the registry's order: count,
 * days measured, the share in target and each component's mean, min and max (canonical unit,
 * rounded to the unit's display decimals). "In target" is the kind's own classifier answering
 * level 'normal' with the patient's effective thresholds and programs: the same judgement as the
 * table marks and the alerts, so the physician reads what the care team saw.
 */
export function summarizeReadings(readings: readonly SummaryReading[], context: ClassifyContext): SummaryKind[] {
  return registry.flatMap((kind) => {
    const own = readings.filter((r) => r.kind === kind.kind);
    if (own.length === 0) return [];
    const inTarget = own.filter((r) => kind.classify(r.components, context).level === 'normal').length;
    const components = kind.components.flatMap((component) => {
      const values = own.map((r) => r.components[component.code]).filter((v): v is number => typeof v === 'number');
      if (values.length === 0) return [];
      const decimals = unitChoiceFor(kind, component.code, component.ucum)?.decimals ?? component.decimals;
      const round = (v: number) => roundTo(v, decimals);
      return [
        {
          code: component.code,
          label: component.label,
          ucum: component.ucum,
          unit: canonicalUnitLabel(kind, component),
          decimals,
          count: values.length,
          mean: round(values.reduce((a, b) => a + b, 0) / values.length),
          min: round(Math.min(...values)),
          max: round(Math.max(...values)),
        },
      ];
    });
    return [
      {
        kind: kind.kind,
        label: kind.label,
        count: own.length,
        days_measured: new Set(own.map((r) => r.day)).size,
        in_target: inTarget,
        in_target_share: inTarget / own.length,
        components,
      },
    ];
  });
}

export function summarizeAlerts(alerts: readonly { status: string; resolution_reason: string | null }[]): SummaryAlerts {
  const resolved = new Map<string | null, number>();
  for (const a of alerts) {
    if (a.status !== 'resolved') continue;
    resolved.set(a.resolution_reason, (resolved.get(a.resolution_reason) ?? 0) + 1);
  }
  return {
    raised: alerts.length,
    open: alerts.filter((a) => a.status !== 'resolved').length,
    resolved: [...resolved].map(([reason, count]) => ({ reason, count })).sort((a, b) => b.count - a.count),
  };
}

export interface SummaryParts {
  month: string;
  head: SummaryHead;
  programs: readonly string[];
  kinds: SummaryKind[];
  alerts: SummaryAlerts;
  notes: MonthlySummary['notes'];
  tracking: MonthlySummary['tracking']['entries'];
  codes: BillingCodeUnits[];
}

export function presentSummary(p: SummaryParts): MonthlySummary {
  return {
    month: p.month,
    time_zone: p.head.time_zone,
    period_start: p.head.period_start.toISOString(),
    period_end: p.head.period_end.toISOString(),
    complete: p.head.complete,
    patient: {
      id: p.head.patient_id,
      name: `${p.head.first_name} ${p.head.last_name}`.trim(),
      date_of_birth: p.head.date_of_birth,
    },
    organization: { id: p.head.organization_id, name: p.head.organization_name },
    programs: p.programs.map((id) => ({ id, label: program(id)?.label ?? id })),
    kinds: p.kinds,
    alerts: p.alerts,
    notes: p.notes,
    tracking: {
      minutes: p.tracking.reduce((sum, e) => sum + e.minutes, 0),
      live_contacts: p.tracking.filter((e) => e.interactive).length,
      entries: p.tracking,
    },
    codes: p.codes,
  };
}
