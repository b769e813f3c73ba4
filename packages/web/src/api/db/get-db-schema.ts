import { DbSchemaResponse } from '@rpm/contracts';
import { useQuery } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { useUserScope } from '../scope.ts';

export const getDbSchemaCall = defineCall('GET', '/api/db/schema/:table', import.meta.env.DEV && DbSchemaResponse);

export const getDbSchema = (table: string) => callApi(getDbSchemaCall, { params: { table } });

/** The columns of `table`; nothing is asked until a table is chosen (''). */
export const useDbSchema = (table: string) =>
  useQuery({
    queryKey: [...useUserScope(), 'db', 'schema', table],
    queryFn: () => getDbSchema(table),
    enabled: table !== '',
  });
