import { patientKeys } from '../patients/keys.ts';
import type { UserScope } from '../scope.ts';

/**
 * Observation keys hang off the patient's key: adding a reading (or anything that invalidates the
 * patient) refreshes the panels' summary, tables and charts together.
 */
export const observationKeys = {
  all: (scope: UserScope, id: number) => [...patientKeys.detail(scope, id), 'observations'] as const,
  summary: (scope: UserScope, id: number) => [...patientKeys.detail(scope, id), 'observations', 'summary'] as const,
  page: (scope: UserScope, id: number, kind: string, limit: number, offset: number) =>
    [...patientKeys.detail(scope, id), 'observations', kind, 'page', limit, offset] as const,
  series: (scope: UserScope, id: number, kind: string) =>
    [...patientKeys.detail(scope, id), 'observations', kind, 'series'] as const,
};
