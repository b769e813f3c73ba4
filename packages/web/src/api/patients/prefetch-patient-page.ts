import { NOTES_PAGE_SIZE, TRACKING_PAGE_SIZE, VITALS_PAGE_SIZE } from '@rpm/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { PATIENT_ALERTS_PAGE, alertsQuery } from '../alerts/list-alerts.ts';
import { patientThresholdsQuery } from '../alerts/patient-thresholds.ts';
import { notesQuery } from '../notes/get-notes.ts';
import { userScope } from '../scope.ts';
import { trackingEntriesQuery } from '../tracking/get-tracking-entries.ts';
import { vitalsQuery } from '../vitals/get-vitals.ts';
import { patientQuery } from './get-patient.ts';

/**
 * Starts every request the patient page makes when it opens, so that a reload of the page does not
 * wait for its code to arrive before asking for its data. That includes the alerts section's
 * (its thresholds line is the largest thing the page draws).
 */
export function prefetchPatientPage(client: QueryClient, id: number): void {
  if (!Number.isSafeInteger(id) || id < 1) return;
  const scope = userScope(client);
  void client.prefetchQuery(patientQuery(scope, id));
  void client.prefetchQuery(vitalsQuery(scope, id, VITALS_PAGE_SIZE, 0));
  void client.prefetchQuery(notesQuery(scope, id, NOTES_PAGE_SIZE, 0));
  void client.prefetchQuery(trackingEntriesQuery(scope, id, TRACKING_PAGE_SIZE, 0));
  void client.prefetchQuery(patientThresholdsQuery(scope, id));
  for (const status of ['open', 'acknowledged'] as const) {
    void client.prefetchQuery(alertsQuery(scope, { patient_id: id, status, ...PATIENT_ALERTS_PAGE }));
  }
}
