import { VitalPage } from '@rpm/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { patientKeys } from '../patients/keys.ts';
import { useUserScope, type UserScope } from '../scope.ts';

export const getVitalsCall = defineCall('GET', '/api/patients/:id/vitals', import.meta.env.DEV && VitalPage);

export const getVitals = (id: number, limit: number, offset: number) =>
  callApi(getVitalsCall, { params: { id }, query: { limit, offset } });

export const vitalsQuery = (scope: UserScope, id: number, limit: number, offset: number) =>
  queryOptions({ queryKey: patientKeys.vitals(scope, id, limit, offset), queryFn: () => getVitals(id, limit, offset) });

export const useVitals = (id: number, limit: number, offset: number) =>
  useQuery({ ...vitalsQuery(useUserScope(), id, limit, offset), placeholderData: keepPreviousData });
