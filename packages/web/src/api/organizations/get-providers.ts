import { ProvidersResponse } from '@rpm/contracts';
import { useQuery } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { useUserScope } from '../scope.ts';
import { organizationKeys } from './keys.ts';

export const getProvidersCall = defineCall(
  'GET',
  '/api/organizations/:id/providers',
  import.meta.env.DEV && ProvidersResponse,
);

export const getProviders = (organizationId: number) => callApi(getProvidersCall, { params: { id: organizationId } });

/** The providers of one organization; nothing is asked until an organization is chosen. */
export const useProviders = (organizationId: number | null) =>
  useQuery({
    queryKey: organizationKeys.providers(useUserScope(), organizationId),
    queryFn: () => getProviders(organizationId!),
    enabled: organizationId !== null,
  });
