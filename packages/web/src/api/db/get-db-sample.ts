import { DbSampleResponse } from '@rpm/contracts';
import { useQuery } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { useUserScope } from '../scope.ts';

export const getDbSampleCall = defineCall('GET', '/api/db/sample/:table', import.meta.env.DEV && DbSampleResponse);

export const getDbSample = (table: string) => callApi(getDbSampleCall, { params: { table } });

/** A few rows of `table`; nothing is asked until a table is chosen (''). */
export const useDbSample = (table: string) =>
  useQuery({
    queryKey: [...useUserScope(), 'db', 'sample', table],
    queryFn: () => getDbSample(table),
    enabled: table !== '',
  });
