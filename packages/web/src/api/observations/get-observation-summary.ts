import { ObservationSummary } from '@rpm/contracts';
import { useQuery } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { useUserScope } from '../scope.ts';
import { observationKeys } from './keys.ts';

export const getObservationSummaryCall = defineCall(
  'GET',
  '/api/patients/:id/observations/summary',
  import.meta.env.DEV && ObservationSummary,
);

export const getObservationSummary = (id: number) => callApi(getObservationSummaryCall, { params: { id } });

/** The kinds the patient has, with the count and the newest reading of each. */
export const useObservationSummary = (id: number) =>
  useQuery({ queryKey: observationKeys.summary(useUserScope(), id), queryFn: () => getObservationSummary(id) });
