import type { ContactType, TrackingActivity, TrackingEntry } from '@rpm/contracts';
import type { TrackingEntryRow } from './tracking.repository.ts';

/**
 * A tracking entry as the API answers it, under the spec's route /api/patients/{id}/sessions (the
 * spec's "Tracking session"); everywhere else it is a tracking entry, not a sign-in session.
 * The table's checks keep activity and contact type to the contract's lists.
 */
export function presentTrackingEntry(row: TrackingEntryRow): TrackingEntry {
  return {
    id: row.id,
    date: row.date,
    duration_minutes: row.duration_minutes,
    notes: row.notes,
    interactive: row.interactive,
    activity: row.activity as TrackingActivity | null,
    contact_type: row.contact_type as ContactType | null,
    measured_minutes: row.measured_minutes,
    adjustment_reason: row.adjustment_reason,
  };
}
