import type { AlertListQuery } from '@rpm/contracts';
import type { UserScope } from '../scope.ts';

/**
 * Query keys of the alert calls. Every key is the user's scope then 'alerts', so one live event
 * refreshes every alert query on screen at once.
 */
export const alertKeys = {
  all: (scope: UserScope) => [...scope, 'alerts'] as const,
  list: (scope: UserScope, q: AlertListQuery) => [...scope, 'alerts', 'list', q] as const,
  summary: (scope: UserScope) => [...scope, 'alerts', 'summary'] as const,
  thresholds: (scope: UserScope, patientId: number) => [...scope, 'alerts', 'thresholds', patientId] as const,
  marks: (scope: UserScope, patientId: number, days: number) => [...scope, 'alerts', 'marks', patientId, days] as const,
};
