import { WorklistPage } from '@rpm/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { useUserScope, type UserScope } from '../scope.ts';
import { alertKeys, type WorklistParams } from './keys.ts';

export type { WorklistParams };

export const getWorklistCall = defineCall('GET', '/api/alerts/worklist', import.meta.env.DEV && WorklistPage);

export const getWorklist = (q: WorklistParams) => callApi(getWorklistCall, { query: { ...q } });

export const worklistQuery = (scope: UserScope, q: WorklistParams) =>
  queryOptions({
    queryKey: alertKeys.worklist(scope, q),
    queryFn: () => getWorklist(q),
    placeholderData: keepPreviousData,
  });

/** A page of the worklist: one row per patient with all of their matching alerts. */
export const useWorklist = (q: WorklistParams) => useQuery(worklistQuery(useUserScope(), q));
