import type { AlertListQuery, AlertRule, AlertSeverity, WorklistSort } from '@rpm/contracts';
import type { UserScope } from '../scope.ts';

/**
 * GET /api/alerts/worklist's query (WorklistQuery). Spelled out: the contract's severity and rule
 * unions are cast schemas whose static type is lost in `Static<typeof WorklistQuery>`.
 */
export interface WorklistParams {
  status?: 'active' | 'open' | 'acknowledged';
  severity?: AlertSeverity;
  rule?: AlertRule;
  provider_id?: number;
  sort?: WorklistSort;
  order?: 'asc' | 'desc';
  limit?: number;
  offset?: number;
}

/**
 * Query keys of the alert calls. Every key is the user's scope then 'alerts', so one live event
 * refreshes every alert query on screen at once.
 */
export const alertKeys = {
  all: (scope: UserScope) => [...scope, 'alerts'] as const,
  list: (scope: UserScope, q: AlertListQuery) => [...scope, 'alerts', 'list', q] as const,
  worklist: (scope: UserScope, q: WorklistParams) => [...scope, 'alerts', 'worklist', q] as const,
  settings: (scope: UserScope, organizationId: number) => [...scope, 'alerts', 'settings', organizationId] as const,
  summary: (scope: UserScope) => [...scope, 'alerts', 'summary'] as const,
  thresholds: (scope: UserScope, patientId: number) => [...scope, 'alerts', 'thresholds', patientId] as const,
  marks: (scope: UserScope, patientId: number, days: number) => [...scope, 'alerts', 'marks', patientId, days] as const,
};
