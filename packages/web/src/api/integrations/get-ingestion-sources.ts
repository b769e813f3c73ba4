import { IngestionSourcesResponse } from '@rpm/contracts';
import { useQuery } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { useUserScope } from '../scope.ts';
import { integrationKeys } from './keys.ts';

export const getIngestionSourcesCall = defineCall(
  'GET',
  '/api/integrations',
  import.meta.env.DEV && IngestionSourcesResponse,
);

export const getIngestionSources = () => callApi(getIngestionSourcesCall);

export const useIngestionSources = () =>
  useQuery({ queryKey: integrationKeys.all(useUserScope()), queryFn: getIngestionSources });
