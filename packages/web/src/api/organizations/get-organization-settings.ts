import { OrganizationSettings } from '@rpm/contracts';
import { useQuery } from '@tanstack/react-query';
import { callApi, defineCall } from '../client.ts';
import { useUserScope } from '../scope.ts';
import { organizationKeys } from './keys.ts';

export const getOrganizationSettingsCall = defineCall(
  'GET',
  '/api/organizations/:id/settings',
  import.meta.env.DEV && OrganizationSettings,
);

export const getOrganizationSettings = (id: number) => callApi(getOrganizationSettingsCall, { params: { id } });

export const useOrganizationSettings = (id: number) =>
  useQuery({ queryKey: organizationKeys.settings(useUserScope(), id), queryFn: () => getOrganizationSettings(id) });
