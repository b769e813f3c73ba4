import { VitalPage } from '@rpm/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { patientKeys } from '../patients/keys.ts';
import { useUserScope, type UserScope } from '../scope.ts';

export const getVitalsCall = defineCall('GET', '/api/patients/:id/vitals', import.meta.env.DEV && VitalPage);

/** Measured from `from` (inclusive) to `to` (exclusive), ISO timestamps; either may be left out. */
export interface VitalsRange {
  from?: string;
  to?: string;
}

export const getVitals = (id: number, limit: number, offset: number, range: VitalsRange = {}) =>
  callApi(getVitalsCall, { params: { id }, query: { limit, offset, ...range } });

export const vitalsQuery = (scope: UserScope, id: number, limit: number, offset: number, range: VitalsRange = {}) =>
  queryOptions({
    queryKey: patientKeys.vitals(scope, id, limit, offset, range),
    queryFn: () => getVitals(id, limit, offset, range),
  });

export const useVitals = (id: number, limit: number, offset: number, range: VitalsRange = {}) =>
  useQuery({ ...vitalsQuery(useUserScope(), id, limit, offset, range), placeholderData: keepPreviousData });
