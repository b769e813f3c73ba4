import { OrganizationsResponse } from '@rpm/contracts';
import { useQuery } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { useUserScope } from '../scope.ts';
import { organizationKeys } from './keys.ts';

export const getOrganizationsCall = defineCall(
  'GET',
  '/api/organizations',
  import.meta.env.DEV && OrganizationsResponse,
);

export const getOrganizations = () => callApi(getOrganizationsCall);

export const useOrganizations = () =>
  useQuery({ queryKey: organizationKeys.all(useUserScope()), queryFn: getOrganizations });
