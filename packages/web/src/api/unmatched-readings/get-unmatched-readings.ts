import { UnmatchedReadingsResponse } from '@rpm/contracts';
import { useQuery } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { useUserScope } from '../scope.ts';

export const getUnmatchedReadingsCall = defineCall(
  'GET',
  '/api/unmatched-readings',
  import.meta.env.DEV && UnmatchedReadingsResponse,
);

/** The newest 100 readings no device assignment claimed. */
export const getUnmatchedReadings = () => callApi(getUnmatchedReadingsCall, { query: { limit: 100 } });

export const useUnmatchedReadings = () =>
  useQuery({ queryKey: [...useUserScope(), 'unmatched-readings'], queryFn: getUnmatchedReadings });
