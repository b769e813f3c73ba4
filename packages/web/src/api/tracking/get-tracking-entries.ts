import { TrackingEntryPage } from '@rpm/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { patientKeys } from '../patients/keys.ts';
import { useUserScope, type UserScope } from '../scope.ts';

/** Tracking-time entries of a patient; the spec names their path "sessions". */
export const getTrackingEntriesCall = defineCall(
  'GET',
  '/api/patients/:id/sessions',
  import.meta.env.DEV && TrackingEntryPage,
);

export const getTrackingEntries = (id: number, limit: number, offset: number) =>
  callApi(getTrackingEntriesCall, { params: { id }, query: { limit, offset } });

export const trackingEntriesQuery = (scope: UserScope, id: number, limit: number, offset: number) =>
  queryOptions({
    queryKey: patientKeys.trackingPage(scope, id, limit, offset),
    queryFn: () => getTrackingEntries(id, limit, offset),
  });

export const useTrackingEntries = (id: number, limit: number, offset: number) =>
  useQuery({ ...trackingEntriesQuery(useUserScope(), id, limit, offset), placeholderData: keepPreviousData });
