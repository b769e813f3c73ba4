import type { Observation, ObservationSummary } from '@rpm/contracts';
import { isoTime } from '../../kernel/time.ts';
import type { KindSummaryRow, ObservationRow } from './observations.repository.ts';

/** Components as stored: numbers keyed by component code (anything else in the JSON is left out). */
function components(value: unknown): Record<string, number> {
  if (typeof value !== 'object' || value === null) return {};
  return Object.fromEntries(Object.entries(value).filter((e): e is [string, number] => typeof e[1] === 'number'));
}

export function presentObservation(row: ObservationRow): Observation {
  return {
    id: row.id,
    kind: row.kind,
    created_at: isoTime(row.created_at),
    components: components(row.components),
    unit: row.unit,
    source: row.source,
  };
}

export function presentSummary(rows: readonly KindSummaryRow[]): ObservationSummary {
  return {
    kinds: rows.map((r) => ({ kind: r.kind, total: r.total, latest: r.latest ? presentObservation(r.latest) : null })),
  };
}
