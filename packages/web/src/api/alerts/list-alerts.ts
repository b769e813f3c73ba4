import { AlertPage, type AlertListQuery } from '@rpm/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { useUserScope, type UserScope } from '../scope.ts';
import { alertKeys } from './keys.ts';

export const listAlertsCall = defineCall('GET', '/api/alerts', import.meta.env.DEV && AlertPage);

export const listAlerts = (q: AlertListQuery) => callApi(listAlertsCall, { query: { ...q } });

export const alertsQuery = (scope: UserScope, q: AlertListQuery) =>
  queryOptions({ queryKey: alertKeys.list(scope, q), queryFn: () => listAlerts(q), placeholderData: keepPreviousData });

/** The page of a patient's open (and of their acknowledged) alerts the patient page shows. */
export const PATIENT_ALERTS_PAGE = { limit: 20, offset: 0 } as const;

/** A page of the worklist (or of one patient's alerts with `patient_id`). */
export const useAlerts = (q: AlertListQuery) => useQuery(alertsQuery(useUserScope(), q));
