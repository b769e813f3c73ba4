import type { PatientListQuery } from '@rpm/contracts';
import type { UserScope } from '../scope.ts';

/**
 * Query keys of a patient and what hangs off it (vitals, notes, tracking entries): saves
 * invalidate exactly what they change, and invalidating one patient refreshes all of its parts.
 */
export const patientKeys = {
  all: (scope: UserScope) => [...scope, 'patients'] as const,
  lists: (scope: UserScope) => [...scope, 'patients', 'list'] as const,
  list: (scope: UserScope, query: PatientListQuery) => [...scope, 'patients', 'list', query] as const,
  detail: (scope: UserScope, id: number) => [...scope, 'patients', id] as const,
  /** A page of the readings table; `range` only when the table's dates are set. */
  vitals: (scope: UserScope, id: number, limit: number, offset: number, range?: { from?: string; to?: string }) =>
    range && (range.from || range.to)
      ? ([...scope, 'patients', id, 'vitals', limit, offset, range] as const)
      : ([...scope, 'patients', id, 'vitals', limit, offset] as const),
  series: (scope: UserScope, id: number) => [...scope, 'patients', id, 'vitals-series'] as const,
  notes: (scope: UserScope, id: number) => [...scope, 'patients', id, 'notes'] as const,
  notesPage: (scope: UserScope, id: number, limit: number, offset: number) =>
    [...scope, 'patients', id, 'notes', limit, offset] as const,
  tracking: (scope: UserScope, id: number) => [...scope, 'patients', id, 'tracking'] as const,
  outreach: (scope: UserScope, id: number) => [...scope, 'patients', id, 'outreach'] as const,
  outreachPage: (scope: UserScope, id: number, limit: number, offset: number) =>
    [...scope, 'patients', id, 'outreach', limit, offset] as const,
  trackingPage: (scope: UserScope, id: number, limit: number, offset: number) =>
    [...scope, 'patients', id, 'tracking', limit, offset] as const,
};
