import { AlertSummary } from '@rpm/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { useUserScope, type UserScope } from '../scope.ts';
import { alertKeys } from './keys.ts';

export const getAlertSummaryCall = defineCall('GET', '/api/alerts/summary', import.meta.env.DEV && AlertSummary);

export const getAlertSummary = () => callApi(getAlertSummaryCall);

export const alertSummaryQuery = (scope: UserScope) =>
  queryOptions({ queryKey: alertKeys.summary(scope), queryFn: getAlertSummary });

/** Open alerts by severity and patients with stale data: the sidebar badge and the dashboard. */
export const useAlertSummary = () => useQuery(alertSummaryQuery(useUserScope()));
