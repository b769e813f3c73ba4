import { DbTablesResponse } from '@rpm/contracts';
import { useQuery } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { useUserScope } from '../scope.ts';

export const getDbTablesCall = defineCall('GET', '/api/db/tables', import.meta.env.DEV && DbTablesResponse);

export const getDbTables = () => callApi(getDbTablesCall);

export const useDbTables = () => useQuery({ queryKey: [...useUserScope(), 'db', 'tables'], queryFn: getDbTables });
