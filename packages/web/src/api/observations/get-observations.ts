import { ObservationPage } from '@rpm/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { useUserScope } from '../scope.ts';
import { observationKeys } from './keys.ts';

export const getObservationsCall = defineCall(
  'GET',
  '/api/patients/:id/observations',
  import.meta.env.DEV && ObservationPage,
);

export const getObservations = (
  id: number,
  query: { kind: string; limit: number; offset: number; from?: string; to?: string },
) => callApi(getObservationsCall, { params: { id }, query });

/** One page of a kind's readings, newest first (the panel's table). */
export const useObservations = (id: number, kind: string, limit: number, offset: number) =>
  useQuery({
    queryKey: observationKeys.page(useUserScope(), id, kind, limit, offset),
    queryFn: () => getObservations(id, { kind, limit, offset }),
    placeholderData: keepPreviousData,
  });
